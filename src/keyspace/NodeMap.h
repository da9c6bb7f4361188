#pragma once

#include "keyspace/Keyspace.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace keylens::keyspace {

// A map from node ids to small values in one flat array (open addressing, linear probing), for tables that reach
// hundreds of thousands of entries. A std::unordered_map holds each entry in a heap node of its own: about 40 bytes
// an entry instead of 11 to 21 (8 a slot, a third to three quarters full), and hundreds of thousands of frees when it
// goes. Those frees, made on another thread as a rescan lets go of the last scan, filled the allocator's shared bins,
// and the GUI thread's next big allocation had to sort them out (20 ms of a rescan at 600,000 entries). This one is a
// single block.
template<typename Value> class NodeMap
{
    static_assert(std::is_trivially_copyable_v<Value>);

public:
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    std::size_t memoryBytes() const { return m_slots.capacity() * sizeof(Slot); }

    // Room for `count` entries without growing: a table sized on a worker thread is not rebuilt on the GUI thread.
    void reserve(std::size_t count)
    {
        if (count > maxSizeFor(m_slots.size()))
            rehash(std::bit_ceil(std::max<std::size_t>(16, count + count / 3 + 1)));
    }

    const Value* find(NodeId node) const
    {
        if (m_size == 0)
            return nullptr;
        for (std::size_t i = home(node);; i = next(i)) {
            if (m_slots[i].node == node)
                return &m_slots[i].value;
            if (m_slots[i].node == InvalidNode)
                return nullptr;
        }
    }

    void insertOrAssign(NodeId node, Value value)
    {
        if (m_size + 1 > maxSizeFor(m_slots.size()))
            rehash(std::max<std::size_t>(16, m_slots.size() * 2));
        std::size_t i = home(node);
        while (m_slots[i].node != InvalidNode && m_slots[i].node != node)
            i = next(i);
        if (m_slots[i].node == InvalidNode)
            ++m_size;
        m_slots[i] = {node, value};
    }

    // Removes the entry, if any. Linear probing without tombstones: the entries after it in its run move back
    // into the gap where their home allows, so lookups never walk over dead slots.
    bool erase(NodeId node)
    {
        if (m_size == 0)
            return false;
        std::size_t gap = home(node);
        while (m_slots[gap].node != node) {
            if (m_slots[gap].node == InvalidNode)
                return false;
            gap = next(gap);
        }
        for (std::size_t i = next(gap); m_slots[i].node != InvalidNode; i = next(i)) {
            // The entry at i may fill the gap unless its home lies cyclically in (gap, i].
            const std::size_t want = home(m_slots[i].node);
            const bool homeAfterGap = gap < i ? (want > gap && want <= i) : (want > gap || want <= i);
            if (!homeAfterGap) {
                m_slots[gap] = m_slots[i];
                gap = i;
            }
        }
        m_slots[gap] = Slot{};
        --m_size;
        return true;
    }

    // Calls f(node, value) for each entry, in no particular order.
    template<typename F> void forEach(F&& f) const
    {
        for (const Slot& slot : m_slots)
            if (slot.node != InvalidNode)
                f(slot.node, slot.value);
    }

private:
    struct Slot
    {
        NodeId node = InvalidNode;
        Value value{};
    };

    // At most three quarters full: linear probing's runs grow fast past that.
    static std::size_t maxSizeFor(std::size_t capacity) { return capacity / 4 * 3; }
    // Fibonacci hashing: node ids come in runs, which the multiply spreads over the table's high bits.
    std::size_t home(NodeId node) const
    {
        return static_cast<std::size_t>((std::uint64_t(node) * 0x9e3779b97f4a7c15ULL) >> m_shift);
    }
    std::size_t next(std::size_t i) const { return (i + 1) & (m_slots.size() - 1); }

    void rehash(std::size_t capacity) // a power of two
    {
        std::vector<Slot> old(capacity);
        old.swap(m_slots);
        m_shift = 64 - unsigned(std::countr_zero(capacity));
        m_size = 0;
        for (const Slot& slot : old)
            if (slot.node != InvalidNode)
                insertOrAssign(slot.node, slot.value);
    }

    std::vector<Slot> m_slots;
    std::size_t m_size = 0;
    unsigned m_shift = 64;
};

} // namespace keylens::keyspace
