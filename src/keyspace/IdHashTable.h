#pragma once

// Private to the keyspace library: not installed, not included by other layers.

#include "keyspace/ZeroedSlots.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <utility>

namespace keylens::keyspace::detail {

// An open-addressing set of 32-bit ids whose keys live elsewhere (in the store's arrays). The table
// keeps only ids, 4 bytes a slot, so interning a segment or finding a child costs little memory; the
// caller supplies the hash of what it looks for and an equality test on ids. No deletion: the store
// only grows during a scan, and a rescan builds a new store.
//
// A slot's bits above those its id needs hold bits of the id's hash (7 at ten million ids), so that a probe
// past a slot of another key rarely calls the equality test. That test reads the store's arrays at the id,
// a cache miss at millions of keys, and a new id (a key's own segment) probes several slots before it finds
// an empty one: without these bits, interning ten million ids spent most of its time in those misses.
class IdHashTable
{
public:
    static constexpr std::uint32_t Empty = 0xffffffffu;

    template<typename Matches> std::uint32_t find(std::size_t hash, Matches&& matches) const
    {
        if (m_capacity == 0)
            return Empty;
        const std::uint32_t tag = tagOf(hash);
        for (std::size_t i = home(hash);; i = next(i)) {
            const std::uint32_t slot = m_slots[i];
            if (slot == 0)
                return Empty;
            if ((slot & ~m_idMask) == tag && matches((slot & m_idMask) - 1))
                return (slot & m_idMask) - 1;
        }
    }

    // A lookup in two steps for a batch (see Keyspace::insert of several keys): prefetch() asks the memory for the slot
    // a lookup of `hash` starts at; a little later, candidate() reads it and gives the first id whose tag matches (the
    // one find() tests first), or Empty, for the caller to prefetch what its equality test reads. By the time find()
    // runs, what it reads has arrived, and the misses of several lookups overlapped instead of coming one by one.
    void prefetch(std::size_t hash) const
    {
        if (m_capacity != 0)
            __builtin_prefetch(m_slots.address(home(hash)));
    }
    std::uint32_t candidate(std::size_t hash) const
    {
        return find(hash, [](std::uint32_t) { return true; });
    }

    // Inserts an id known to be absent. `hashOf(id)` rehashes existing ids when the table grows.
    template<typename HashOf> void insert(std::size_t hash, std::uint32_t id, HashOf&& hashOf)
    {
        m_idEnd = std::max<std::uint64_t>(m_idEnd, std::uint64_t(id) + 1);
        if (m_prepared && m_prepared->isReady())
            adoptPrepared(hashOf);
        if ((m_size + 1) * 10 > m_capacity * 7)
            rehash(m_capacity < 16 ? 16 : m_capacity + m_capacity / 2, hashOf);
        else if (m_idEnd > m_idMask) // an id bigger than the table (never with dense ids): fewer bits of hash
            rehash(m_capacity, hashOf);
        place(hash, id);
        ++m_size;
    }

    template<typename HashOf> void reserve(std::size_t count, HashOf&& hashOf)
    {
        // Exactly what the count needs: a table of millions that doubled past it would waste up to half its bytes.
        const std::size_t capacity = std::max<std::size_t>(16, count * 10 / 7 + 1);
        if (capacity > m_capacity)
            rehash(capacity, hashOf);
    }

    // Like reserve(), but the bigger table is made ready on another thread (PreparedSlots) and taken up by the
    // first insert after that; this one serves (and grows if it must) meanwhile.
    void reserveAhead(std::size_t count)
    {
        const std::size_t capacity = std::max<std::size_t>(16, count * 10 / 7 + 1);
        if (capacity > m_capacity && !m_prepared)
            m_prepared = std::make_unique<PreparedSlots>(capacity);
    }

    std::size_t memoryBytes() const
    {
        return (m_capacity + (m_prepared ? m_prepared->count() : 0)) * sizeof(std::uint32_t);
    }

private:
    // A slot holds id + 1, so that an empty slot is 0 and a new table comes zeroed from the kernel, its pages
    // faulted in as slots fill, rather than all written at once (reserving for a million keys cost 40-70 ms of
    // the GUI thread when the first batch arrived). See ZeroedSlots for the pages.
    using Slots = ZeroedSlots;

    // Any capacity, not only powers of two: the hash's high bits pick the slot (multiply and shift, as a fraction
    // of the capacity), which the mixed hashes the store hands in spread evenly.
    std::size_t home(std::size_t hash) const
    {
        __extension__ using Wide = unsigned __int128; // GCC and Clang on 64-bit targets
        return static_cast<std::size_t>((static_cast<Wide>(hash) * m_capacity) >> 64);
    }
    std::size_t next(std::size_t i) const { return i + 1 == m_capacity ? 0 : i + 1; }

    // The bits of `hash` a slot keeps above its id, in place (the id's bits zero).
    std::uint32_t tagOf(std::size_t hash) const
    {
        // The low bits: the home slot comes from the high ones, so neighbours in a run share those.
        return static_cast<std::uint32_t>(std::uint64_t(hash) << m_idBits);
    }

    void place(std::size_t hash, std::uint32_t id)
    {
        std::size_t i = home(hash);
        while (m_slots[i] != 0)
            i = next(i);
        m_slots[i] = tagOf(hash) | (id + 1);
    }

    template<typename HashOf> void adoptPrepared(HashOf&& hashOf)
    {
        std::unique_ptr<PreparedSlots> prepared = std::move(m_prepared);
        if (prepared->count() > m_capacity)
            rehash(prepared->count(), hashOf, prepared->take());
    }

    template<typename HashOf> void rehash(std::size_t capacity, HashOf&& hashOf)
    {
        rehash(capacity, hashOf, Slots(capacity));
    }
    template<typename HashOf> void rehash(std::size_t capacity, HashOf&& hashOf, Slots slots)
    {
        Slots old = std::exchange(m_slots, std::move(slots));
        const std::size_t oldCapacity = std::exchange(m_capacity, capacity);
        const std::uint32_t oldMask = m_idMask;
        // Room for id + 1 of every id so far and of any id below the capacity; the rest of the 32 bits is tag.
        m_idBits = std::min<unsigned>(32, std::bit_width(std::max<std::uint64_t>(m_capacity, m_idEnd)));
        m_idMask = m_idBits == 32 ? 0xffffffffu : (std::uint32_t(1) << m_idBits) - 1;
        for (std::size_t i = 0; i < oldCapacity; ++i) {
            if (old[i] != 0) {
                const std::uint32_t id = (old[i] & oldMask) - 1;
                place(hashOf(id), id);
            }
        }
    }

    Slots m_slots;
    std::unique_ptr<PreparedSlots> m_prepared;
    std::size_t m_capacity = 0;
    std::size_t m_size = 0;
    std::uint64_t m_idEnd = 0; // one past the biggest id inserted
    unsigned m_idBits = 32;    // the low bits of a slot, which hold id + 1
    std::uint32_t m_idMask = 0xffffffffu;
};

// A fast, well-mixed hash of a byte string (64-bit FNV-1a would be too slow on long keys; this reads
// 8 bytes at a time and finishes with a murmur-style avalanche).
std::size_t hashBytes(const char* data, std::size_t size);

inline std::size_t mix64(std::uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return static_cast<std::size_t>(x);
}

} // namespace keylens::keyspace::detail
