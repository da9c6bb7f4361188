#include "rdb/MemoryModel.h"

#include <algorithm>
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
// node (a raxNode's 4 and 30 pointers' worth for its children and data).
std::uint64_t radixTree(const StreamIdTree& tree)
{
    return tree.ids() * 16 + tree.nodes() * 244;
}

// The bytes two IDs share from their start.
int sharedPrefix(const char* a, const char* b)
{
    int shared = 0;
    while (shared < StreamIdTree::IdBytes && a[shared] == b[shared])
        ++shared;
    return shared;
}

// A branch's or a leaf's node at `depth` under a branch at `parentDepth`, and the compressed node of the bytes between
// them, past the branch's own byte, if there are any.
std::uint64_t nodesUnder(int parentDepth, int depth)
{
    return depth - parentDepth >= 2 ? 2 : 1;
}

} // namespace

void StreamIdTree::add(const char* id)
{
    if (m_ids == 0) {
        std::copy(id, id + IdBytes, m_last);
        m_ids = 1;
        return;
    }
    const int parting = sharedPrefix(m_last, id);
    if (parting == IdBytes)
        return;
    // The last ID's leaf hangs under the deeper of its two partings; the branches deeper than this one are complete.
    m_closedNodes += nodesUnder(std::max(m_lastParting, parting), IdBytes);
    closeBranchesBelow(parting);
    if (m_openCount == 0 || m_open[m_openCount - 1] < parting)
        m_open[m_openCount++] = parting;
    m_lastParting = parting;
    std::copy(id, id + IdBytes, m_last);
    ++m_ids;
}

void StreamIdTree::closeBranchesBelow(int depth)
{
    while (m_openCount > 0 && m_open[m_openCount - 1] > depth) {
        const int branch = m_open[--m_openCount];
        const int parent = std::max(m_openCount > 0 ? m_open[m_openCount - 1] : -1, depth);
        m_closedNodes += nodesUnder(parent, branch);
    }
}

std::uint64_t StreamIdTree::nodes() const
{
    if (m_ids <= 1)
        return m_ids + 1; // the head alone; or the head holding the whole ID, and the leaf
    std::uint64_t nodes = m_closedNodes + nodesUnder(m_lastParting, IdBytes);
    for (int i = m_openCount - 1; i > 0; --i)
        nodes += nodesUnder(m_open[i - 1], m_open[i]);
    // The first branch is the head, or hangs under it as the compressed bytes every ID shares.
    return nodes + (m_open[0] > 0 ? 2 : 1);
}

std::uint64_t stream(const StreamIdTree& listpacks, std::uint64_t listpackBytes)
{
    return RobjBytes + 80 + radixTree(listpacks) + listpackBytes; // the stream struct: 80
}

std::uint64_t streamNodePreallocation(std::uint64_t bytes)
{
    const std::uint64_t allocated = allocation(bytes);
    return allocated < StreamNodeBytes ? StreamNodeBytes - allocated : 0;
}

std::uint64_t consumerGroup(const StreamIdTree& pending)
{
    return 40 + radixTree(pending) + pending.ids() * 24; // streamCG, its PEL, a NACK per entry
}

std::uint64_t consumer(std::uint64_t nameLength, const StreamIdTree& pending)
{
    return 32 + nameLength + radixTree(pending); // streamConsumer, its name, its own PEL (sharing the NACKs)
}

} // namespace keylens::rdb::memory
