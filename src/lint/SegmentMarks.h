#pragma once

#include "keyspace/Keyspace.h"

#include <cstdint>
#include <vector>

namespace keylens::lint {

// A byte per distinct segment of the store: `marked(bytes)` of each, read in the order the pool keeps them. A pass
// over every node that looks only for a few words then reads node.segmentId() (an array in node order) instead of
// each node's bytes, which are spread over the pool in the order the keys came: at a million keys that was a cache
// miss per node, a tenth of a second per pass.
template<typename Predicate> std::vector<std::uint8_t> markSegments(const keyspace::Keyspace& store, Predicate&& marked)
{
    std::vector<std::uint8_t> marks(store.segmentCount());
    for (std::size_t id = 0; id < marks.size(); ++id)
        marks[id] = marked(store.segmentById(keyspace::SegmentId(id))) ? 1 : 0;
    return marks;
}

} // namespace keylens::lint
