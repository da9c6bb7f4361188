#pragma once

#include "keyspace/Keyspace.h"
#include "lint/SegmentShape.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace keylens::lint {

// The shape (SegmentShape.h) of each distinct segment of a store, by segment id, classified once as the segments
// arrive: the passes after a scan (the pattern index, the library layouts, data-in-key, the findings' patterns) then
// read a byte where they classified a node's bytes, once per node. At a million demo keys those passes spent a
// quarter of a second of CPU in shapeOf, most of it on ids they had only to recognise as ids. The byte holds the
// segment's whole class (SegmentClass): the key checks read whether a word is plain from it.
//
// A byte per segment, in 64 KiB pages (no copy of the whole table as it grows). Filled by its owner's thread
// (catchUp after each insert); read by others only once they are done inserting.
class SegmentShapes
{
public:
    // Classifies the segments the store interned since the last call (every segment, the first time).
    void catchUp(const keyspace::Keyspace& store);

    // The shape of the node's segment: from the table, or classified now for a segment past it.
    Shape of(const keyspace::Keyspace& store, keyspace::NodeId node) const
    {
        const keyspace::SegmentId id = store.segmentId(node);
        if (id < m_count)
            return Shape(m_pages[id >> PageBits][id & PageMask] & ShapeMask);
        return shapeOf(store.segment(node));
    }
    // The node's segment's class, the same way.
    SegmentClass classOf(const keyspace::Keyspace& store, keyspace::NodeId node) const
    {
        const keyspace::SegmentId id = store.segmentId(node);
        if (id >= m_count)
            return lint::classOf(store.segment(node));
        const std::uint8_t known = m_pages[id >> PageBits][id & PageMask];
        return {Shape(known & ShapeMask), (known & PlainWordBit) != 0};
    }

private:
    static constexpr std::uint8_t PlainWordBit = 0x80, ShapeMask = 0x7f;
    static_assert(int(Shape::Count) <= ShapeMask);
    static constexpr unsigned PageBits = 16;
    static constexpr std::size_t PageMask = (std::size_t(1) << PageBits) - 1;
    std::vector<std::unique_ptr<std::uint8_t[]>> m_pages;
    std::size_t m_count = 0;
};

// shapes->of(store, node), or the node's segment classified when there is no table.
inline Shape shapeOfNode(const SegmentShapes* shapes, const keyspace::Keyspace& store, keyspace::NodeId node)
{
    return shapes ? shapes->of(store, node) : shapeOf(store.segment(node));
}

} // namespace keylens::lint
