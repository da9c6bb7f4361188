#include "keyspace/ZeroedSlots.h"

#include "keyspace/PageWorker.h"

#include <cstdlib>
#include <new>
#include <utility>

namespace keylens::keyspace::detail {

namespace {

#if defined(__linux__)
// Above this a table is mapped on its own: glibc's calloc serves big blocks from its heap once a few were freed
// (its mmap threshold grows with them) and must then clear them itself, on the calling thread.
constexpr std::size_t MapAtLeast = std::size_t(1) << 20;
#endif

} // namespace

ZeroedSlots::ZeroedSlots(std::size_t count)
{
    const std::size_t bytes = count * sizeof(std::uint32_t);
#if defined(__linux__)
    if (bytes >= MapAtLeast) {
        m_slots = static_cast<std::uint32_t*>(mapZeroed(bytes));
        m_mappedBytes = bytes;
        return;
    }
#endif
    m_slots = static_cast<std::uint32_t*>(std::calloc(count, sizeof(std::uint32_t)));
    if (!m_slots && count > 0)
        throw std::bad_alloc();
}

ZeroedSlots::~ZeroedSlots()
{
#if defined(__linux__)
    if (m_mappedBytes > 0) {
        unmapZeroed(m_slots, m_mappedBytes);
        return;
    }
#endif
    std::free(m_slots);
}

void ZeroedSlots::faultIn()
{
    if (m_mappedBytes == 0 || populate(m_slots, m_mappedBytes))
        return;
    // Zeros over zeros: what makes the kernel back every page now, on this thread.
    constexpr std::size_t Page = 4096;
    auto* bytes = reinterpret_cast<volatile unsigned char*>(m_slots);
    for (std::size_t at = 0; at < m_mappedBytes; at += Page)
        bytes[at] = 0;
}

PreparedSlots::PreparedSlots(std::size_t count)
    : m_slots(count)
    , m_count(count)
    , m_faulting([this] {
        m_slots.faultIn();
        m_ready.store(true, std::memory_order_release);
    })
{}

PreparedSlots::~PreparedSlots() = default; // m_faulting waits

ZeroedSlots PreparedSlots::take()
{
    m_faulting.wait();
    return std::move(m_slots);
}

void ZeroedSlots::swap(ZeroedSlots& other) noexcept
{
    std::swap(m_slots, other.m_slots);
    std::swap(m_mappedBytes, other.m_mappedBytes);
}

} // namespace keylens::keyspace::detail
