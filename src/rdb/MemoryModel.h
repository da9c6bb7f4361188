#pragma once

#include <cstdint>

namespace keylens::rdb::memory {

// What MEMORY USAGE would answer for a key on redis-server 7, worked out from what the file says: the server's
// structures on a 64-bit build (robj 16 bytes, dictEntry 24, dict 56, quicklist 40 and its nodes 32, skiplist nodes
// with their random levels) and jemalloc's size classes. An estimate: the file does not say how full a hash table was
// when saved, nor which sizes a listpack's allocations rounded to. A stream is held differently by the server that
// wrote the file and by one that loads it (streamNodePreallocation): its figures are the writer's.

// jemalloc's size class for an allocation of `bytes`.
std::uint64_t allocation(std::uint64_t bytes);
// An sds string of `length` bytes as sdsnewlen() allocates it (the smallest header that holds the length).
std::uint64_t sds(std::uint64_t length);
// The key's own cost: its sds and its entry in the database's dict.
std::uint64_t key(std::uint64_t length);
// A string value: an integer (robj only), embedded with its robj up to 44 bytes, or an robj and an sds.
std::uint64_t string(std::uint64_t length, bool integer);
// A value in one packed allocation (listpack, intset): robj and the blob.
std::uint64_t packed(std::uint64_t blobBytes);
// A hash table of `elements` whose entries (each a dictEntry and its sds strings) took `entryBytes`.
std::uint64_t hashTable(std::uint64_t elements, std::uint64_t entryBytes);
// A sorted set as a skiplist and a dict, its members' sds strings taking `memberBytes`.
std::uint64_t skiplist(std::uint64_t elements, std::uint64_t memberBytes);
// A list as a quicklist whose nodes' entries took `nodeBytes` (each a listpack or a plain element).
std::uint64_t quicklist(std::uint64_t nodes, std::uint64_t nodeBytes);
// A radix tree of stream IDs (rax.c: the listpacks by their first ID, a group's or a consumer's pending entries),
// its nodes counted as the IDs come in ascending order, as the file lists them: a node where IDs part (branching on
// their next byte), a node where each ends, and a compressed node for each run of bytes after a branch (or from the
// root) where no other ID parts. The nodes are most of a small stream's memory (244 bytes each as the server counts
// them), and their count per ID runs from one to three with how far apart the IDs are: counted, not guessed. This is
// the tree a server builds by inserting the IDs; the one that wrote the file, acknowledged entries deleted, was
// measured holding the same nodes or one more (redis-server 7.0).
class StreamIdTree
{
public:
    static constexpr int IdBytes = 16; // milliseconds and sequence, big-endian

    void add(const char* id); // IdBytes bytes, greater than the last (an ID repeated is counted once)
    std::uint64_t ids() const { return m_ids; }
    std::uint64_t nodes() const;

private:
    void closeBranchesBelow(int depth);

    char m_last[IdBytes] = {};
    std::uint64_t m_ids = 0;
    std::uint64_t m_closedNodes = 0; // of the branches and leaves whose parent is known, with their compressed runs
    int m_lastParting = -1;          // where the last ID parted from the one before it
    int m_open[IdBytes] = {};        // the depths of the branches that later IDs may still join, ascending
    int m_openCount = 0;
};

// A stream: its listpacks (`listpackBytes` in all, allocated) and the radix tree over them.
std::uint64_t stream(const StreamIdTree& listpacks, std::uint64_t listpackBytes);
// The room a stream's newest listpack of `bytes` has ahead of its entries on the server that added them: XADD
// allocates a new node at stream-node-max-bytes (4096 at most, and by default), and only a node that is closed is
// shrunk to its size. A server that loads the stream from a file allocates every node at its size: 0 there.
std::uint64_t streamNodePreallocation(std::uint64_t bytes);
inline constexpr std::uint64_t StreamNodeBytes = 4096;
// A stream's consumer group with `pending` entries delivered and not acknowledged, and one of its consumers.
std::uint64_t consumerGroup(const StreamIdTree& pending);
std::uint64_t consumer(std::uint64_t nameLength, const StreamIdTree& pending);

} // namespace keylens::rdb::memory
