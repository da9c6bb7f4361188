#pragma once

#include "keyspace/Keyspace.h"

#include <vector>

namespace keylens::lint {

// A bit per distinct segment of the store: `marked(bytes)` of each, read in the order the pool keeps them. A pass
// over every node that looks only for a few words then reads node.segmentId() (an array in node order) instead of
// each node's bytes, which are spread over the pool in the order the keys came: at a million keys that was a cache
// miss per node, a tenth of a second per pass. Bits, not bytes: several passes run side by side after a scan, and a
// megabyte each was a measurable share of the lint's peak memory.
template<typename Predicate> std::vector<bool> markSegments(const keyspace::Keyspace& store, Predicate&& marked)
{
    std::vector<bool> marks(store.segmentCount());
    for (std::size_t id = 0; id < marks.size(); ++id)
        marks[id] = marked(store.segmentById(keyspace::SegmentId(id)));
    return marks;
}

} // namespace keylens::lint
