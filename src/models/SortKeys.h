#pragma once

#include <cstdint>
#include <vector>

namespace keylens::models {

// One row's place in a sort: compared by (rank, key), then by node id, all ascending. Callers encode a
// descending order by inverting rank and key, so the comparison itself never changes.
struct SortEntry
{
    std::uint64_t key;
    std::uint32_t node;
    std::uint8_t rank;
};

// LSD radix sorts: a few linear passes, skipping the bytes in which all entries agree (the high bytes of node
// ids and of most sizes). For a million rows that is tens of milliseconds where std::sort with a comparator took
// hundreds. `scratch` is the second buffer the passes take turns with: a caller that sorts twice passes the same
// one, as fresh memory of tens of megabytes is costly to fault in.
void sortByNode(std::vector<SortEntry>& entries, std::vector<SortEntry>& scratch);
// By (rank, key); stable, so entries sorted by node first end up ordered by (rank, key, node).
void sortByRankAndKey(std::vector<SortEntry>& entries, std::vector<SortEntry>& scratch);

} // namespace keylens::models
