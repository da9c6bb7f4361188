#include "models/SortKeys.h"

#include <array>

namespace keylens::models {

namespace {

// One stable counting-sort pass on the byte that `byteOf` picks; skipped when every entry has the same.
template<typename ByteOf>
void countingPass(std::vector<SortEntry>& entries, std::vector<SortEntry>& scratch, ByteOf byteOf)
{
    std::array<std::size_t, 256> counts{};
    for (const SortEntry& entry : entries)
        ++counts[byteOf(entry)];
    for (const std::size_t count : counts) {
        if (count == entries.size())
            return;
        if (count != 0)
            break;
    }
    std::size_t offset = 0;
    for (std::size_t& count : counts) {
        const std::size_t n = count;
        count = offset;
        offset += n;
    }
    scratch.resize(entries.size());
    for (const SortEntry& entry : entries)
        scratch[counts[byteOf(entry)]++] = entry;
    entries.swap(scratch);
}

} // namespace

void sortByNode(std::vector<SortEntry>& entries, std::vector<SortEntry>& scratch)
{
    for (unsigned shift = 0; shift < 32; shift += 8)
        countingPass(entries, scratch, [shift](const SortEntry& e) { return (e.node >> shift) & 0xff; });
}

void sortByRankAndKey(std::vector<SortEntry>& entries, std::vector<SortEntry>& scratch)
{
    // Least significant first: key, then rank.
    for (unsigned shift = 0; shift < 64; shift += 8)
        countingPass(entries, scratch, [shift](const SortEntry& e) { return unsigned(e.key >> shift) & 0xff; });
    countingPass(entries, scratch, [](const SortEntry& e) { return unsigned(e.rank); });
}

} // namespace keylens::models
