#include "keyspace/PageWorker.h"

#include "base/QueueThread.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace keylens::keyspace::detail {

void runOnPageWorker(std::function<void()> job, PageLane lane)
{
    // Never destroyed: an array may post its next page while statics are destroyed at exit.
    static base::QueueThread* const pages = new base::QueueThread(QStringLiteral("keylens pages"));
    static base::QueueThread* const bigBuffers = new base::QueueThread(QStringLiteral("keylens buffers"));
    (lane == PageLane::Pages ? pages : bigBuffers)->post(std::move(job));
}

bool populate(void* data, std::size_t bytes)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    static const auto pageSize = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto begin = (reinterpret_cast<std::uintptr_t>(data) + pageSize - 1) & ~(pageSize - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(pageSize - 1);
    // A megabyte a call: the kernel holds the process's memory map for reading while it populates, and a thread that
    // maps or unmaps memory meanwhile (the GUI thread's malloc of a big block) waits for it. 0.2 ms at most, not the
    // 13 ms of a 64 MB table at once.
    constexpr std::uintptr_t Chunk = std::uintptr_t(1) << 20;
    for (std::uintptr_t at = begin; at < end; at += Chunk) {
        if (madvise(reinterpret_cast<void*>(at), std::min(Chunk, end - at), MADV_POPULATE_WRITE) != 0)
            return false;
    }
    return true; // also when there is no whole page: the caller's touch costs a fault or two at most
#else
    (void)data;
    (void)bytes;
    return false;
#endif
}

void* mapZeroed(std::size_t bytes)
{
#if defined(__linux__)
    void* mapped = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED)
        throw std::bad_alloc();
    return mapped;
#else
    void* allocated = std::calloc(bytes, 1);
    if (!allocated && bytes > 0)
        throw std::bad_alloc();
    return allocated;
#endif
}

void unmapZeroed(void* data, std::size_t bytes)
{
#if defined(__linux__)
    if (data)
        munmap(data, bytes);
#else
    (void)bytes;
    std::free(data);
#endif
}

} // namespace keylens::keyspace::detail
