#include "rdb/MemoryModel.h"

#include <bit>

namespace keylens::rdb::memory {

namespace {

constexpr std::uint64_t RobjBytes = 16;
constexpr std::uint64_t DictEntryBytes = 24;
constexpr std::uint64_t DictBytes = 56;

std::uint64_t buckets(std::uint64_t elements)
{
    // The table doubles when it is full: the next power of two at or above the count (4 at least).
    return elements <= 4 ? 4 : std::bit_ceil(elements);
}

} // namespace

std::uint64_t allocation(std::uint64_t bytes)
{
    if (bytes <= 8)
        return 8;
    if (bytes <= 128)
        return (bytes + 15) / 16 * 16;
    // Four classes per doubling from there on, small and large alike: 160, 192, 224, 256, 320, … 96 KiB, 112 KiB.
    const std::uint64_t spacing = std::bit_floor(bytes - 1) / 4;
    return (bytes + spacing - 1) / spacing * spacing;
}

std::uint64_t sds(std::uint64_t length)
{
    const std::uint64_t header = length < 32             ? 1
                                 : length < 256          ? 3
                                 : length < 65536        ? 5
                                 : length < (1ULL << 32) ? 9
                                                         : 17;
    return allocation(header + length + 1);
}

std::uint64_t key(std::uint64_t length)
{
    return sds(length) + DictEntryBytes;
}

std::uint64_t string(std::uint64_t length, bool integer)
{
    if (integer)
        return RobjBytes;
    if (length <= 44)
        return allocation(RobjBytes + 3 + length + 1); // embstr: sdshdr8 in the robj's allocation
    const std::uint64_t header = length < 256 ? 3 : length < 65536 ? 5 : 9;
    return RobjBytes + allocation(header + length + 1);
}

std::uint64_t packed(std::uint64_t blobBytes)
{
    return RobjBytes + allocation(blobBytes);
}

std::uint64_t hashTable(std::uint64_t elements, std::uint64_t entryBytes)
{
    return RobjBytes + DictBytes + 8 * buckets(elements) + entryBytes + elements * DictEntryBytes;
}

std::uint64_t skiplist(std::uint64_t elements, std::uint64_t memberBytes)
{
    // zset, zskiplist, the dict, the 32-level header node (536 bytes), and per member its dict entry and a node of
    // 24 bytes and 16 per level: levels 1, 2, 3, 4 with odds 3/4, 3/16, 3/64, 1/64 allocate 53 bytes on average.
    constexpr std::uint64_t Fixed = RobjBytes + 16 + 32 + DictBytes;
    const std::uint64_t header = allocation(24 + 32 * 16);
    return Fixed + 8 * buckets(elements) + header + memberBytes + elements * (DictEntryBytes + 53);
}

std::uint64_t quicklist(std::uint64_t nodes, std::uint64_t nodeBytes)
{
    return RobjBytes + 40 + nodes * 40 + nodeBytes; // quicklist 40, quicklistNode 40 (32 and its bit fields)
}

namespace {

// A radix tree of stream IDs as the server counts it (streamRadixTreeMemoryUsage): 16 bytes an element and 244 a
// node. The nodes per element depend on how the IDs share prefixes: the listpacks' first IDs, far apart, take about
// two (a branch and the compressed rest); the pending entries, consecutive, about one (measured on redis-server 7.0:
// streams of 10 to 20,000 entries, 0 to 1,000 pending).
std::uint64_t radixTree(std::uint64_t elements, std::uint64_t nodesPerElement)
{
    return elements * 16 + (nodesPerElement * elements + 1) * 244;
}

} // namespace

std::uint64_t stream(std::uint64_t listpacks, std::uint64_t listpackBytes)
{
    return RobjBytes + 80 + radixTree(listpacks, 2) + listpackBytes; // the stream struct: 80
}

std::uint64_t consumerGroup(std::uint64_t pending)
{
    return 40 + radixTree(pending, 1) + pending * 24; // streamCG, its PEL, a NACK per entry
}

std::uint64_t consumer(std::uint64_t nameLength, std::uint64_t pending)
{
    return 32 + nameLength + radixTree(pending, 1); // streamConsumer, its name, its own PEL (sharing the NACKs)
}

} // namespace keylens::rdb::memory
