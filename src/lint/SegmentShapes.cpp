#include "lint/SegmentShapes.h"

namespace keylens::lint {

void SegmentShapes::catchUp(const keyspace::Keyspace& store)
{
    const std::size_t count = store.segmentCount();
    for (; m_count < count; ++m_count) {
        if ((m_count & PageMask) == 0)
            m_pages.push_back(std::make_unique_for_overwrite<std::uint8_t[]>(PageMask + 1));
        m_pages.back()[m_count & PageMask] = std::uint8_t(shapeOf(store.segmentById(keyspace::SegmentId(m_count))));
    }
}

} // namespace keylens::lint
