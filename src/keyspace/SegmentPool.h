#pragma once

#include "keyspace/IdHashTable.h"
#include "keyspace/PagedArray.h"

#include <QByteArrayView>

#include <cstdint>
#include <memory>
#include <vector>

namespace keylens::keyspace {

using SegmentId = std::uint32_t;

// Stores every distinct segment once ("profile", "settings", and each id) so a million
// `user:<id>:profile` keys hold the word "profile" once. Segments live in 1 MiB blocks, each prefixed
// with its length as a varint; a segment is found by one 64-bit location. Ids are dense and stable.
class SegmentPool
{
public:
    SegmentPool();

    SegmentId intern(QByteArrayView segment);
    // intern() in steps, for a batch of segments: the hash first, then, a few segments ahead of interning each, the
    // memory it will read asked for in order (the slot, the candidate's location, its bytes; see IdHashTable).
    static std::size_t hashOf(QByteArrayView segment);
    void prefetchSlot(std::size_t hash) const { m_index.prefetch(hash); }
    void prefetchLocation(std::size_t hash) const;
    void prefetchBytes(std::size_t hash) const;
    SegmentId intern(QByteArrayView segment, std::size_t hash);
    // The id of a segment already interned, or IdHashTable::Empty.
    SegmentId find(QByteArrayView segment) const;
    QByteArrayView view(SegmentId id) const;
    std::size_t size() const { return m_locations.size(); }
    void reserve(std::size_t segments);
    void reserveAhead(std::size_t segments); // see IdHashTable::reserveAhead
    std::size_t memoryBytes() const;

private:
    std::size_t hashOfId(SegmentId id) const;
    std::uint64_t store(QByteArrayView segment);

    using Block = std::unique_ptr<char[]>;
    std::vector<Block> m_blocks;
    detail::MadeAhead<Block> m_nextBlock; // once the last block is half full
    std::size_t m_blockBytes = 0;         // bytes allocated in all blocks
    std::size_t m_lastBlockUsed = 0;
    std::size_t m_lastBlockSize = 0;
    detail::PagedArray<std::uint64_t> m_locations; // block << 32 | offset
    detail::IdHashTable m_index;
};

} // namespace keylens::keyspace
