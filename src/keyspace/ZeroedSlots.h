#pragma once

// Private to the keyspace library: not installed, not included by other layers.

#include "base/SideTask.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace keylens::keyspace::detail {

// Zero-filled memory for a hash table's slots: a big table straight from the kernel (mapped, so it is never
// cleared by hand), a small one calloc'ed.
class ZeroedSlots
{
public:
    ZeroedSlots() = default;
    explicit ZeroedSlots(std::size_t count); // throws std::bad_alloc
    ZeroedSlots(ZeroedSlots&& other) noexcept { swap(other); }
    ZeroedSlots& operator=(ZeroedSlots&& other) noexcept
    {
        ZeroedSlots(std::move(other)).swap(*this);
        return *this;
    }
    ZeroedSlots(const ZeroedSlots&) = delete;
    ZeroedSlots& operator=(const ZeroedSlots&) = delete;
    ~ZeroedSlots();

    std::uint32_t& operator[](std::size_t i) { return m_slots[i]; }
    std::uint32_t operator[](std::size_t i) const { return m_slots[i]; }
    const std::uint32_t* address(std::size_t i) const { return m_slots + i; }
    // Makes the kernel back every page of a mapped table now (a calloc'ed one is left alone).
    void faultIn();

private:
    void swap(ZeroedSlots& other) noexcept;

    std::uint32_t* m_slots = nullptr;
    std::size_t m_mappedBytes = 0; // non-zero when mapped from the kernel rather than calloc'ed
};

// A table's slots made ready on a thread of their own. A fresh table of millions of slots is faulted in page by
// page as it fills, and a table re-reserved mid-scan gets all the old one's entries at once, scattered over its
// pages: on the GUI thread that was 60 ms at 3,000,000 keys, about 200 at 10,000,000 (huge pages were worse: the
// kernel compacted memory for them). Until isReady() the old table serves.
class PreparedSlots
{
public:
    explicit PreparedSlots(std::size_t count); // throws std::bad_alloc
    PreparedSlots(const PreparedSlots&) = delete;
    PreparedSlots& operator=(const PreparedSlots&) = delete;
    ~PreparedSlots();

    std::size_t count() const { return m_count; }
    bool isReady() const { return m_ready.load(std::memory_order_acquire); }
    ZeroedSlots take(); // waits if not ready

private:
    ZeroedSlots m_slots;
    std::size_t m_count;
    std::atomic<bool> m_ready{false};
    base::SideTask m_faulting; // declared last: it starts once the slots exist
};

} // namespace keylens::keyspace::detail
