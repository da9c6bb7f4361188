#include "lint/SegmentShapes.h"

namespace keylens::lint {

void SegmentShapes::catchUp(const keyspace::Keyspace& store)
{
    const std::size_t count = store.segmentCount();
    for (; m_count < count; ++m_count) {
        if ((m_count & PageMask) == 0)
            m_pages.push_back(std::make_unique_for_overwrite<std::uint8_t[]>(PageMask + 1));
        const SegmentClass segment = lint::classOf(store.segmentById(keyspace::SegmentId(m_count)));
        m_pages.back()[m_count & PageMask] = std::uint8_t(segment.shape) | (segment.plainWord ? PlainWordBit : 0);
    }
}

} // namespace keylens::lint
