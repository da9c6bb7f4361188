#pragma once

// Private to the keyspace library and the arrays that use PagedArray.h: not installed.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace keylens::keyspace::detail {

// Runs `job` on a thread of its own, after the jobs posted before it in the same lane. For work that only makes
// fresh memory ready (PagedArray's next page): on this machine's virtual memory the kernel takes 45 us to clear a
// page on first touch, so the ten node arrays of a store, crossing a page of 65,536 entries at once, held the
// ingesting GUI thread for 25-35 ms of CPU every 65,536 nodes. The threads live as long as the process.
//
// Two lanes, a thread each: the pages of arrays (a few hundred KB, wanted within the next tenth of a second) do
// not queue behind the next buffer of a big vector (16 MB for the 1.3 million rows of a namespace at ten million
// keys, some 170 ms of clearing at 45 us a page). Without the second lane, bench_gui at three million keys made 172
// pages of 256 KB on the spot where it makes 161 with it (the rest are arrays grown by many pages at once).
enum class PageLane {
    Pages,
    BigBuffers,
};
void runOnPageWorker(std::function<void()> job, PageLane lane = PageLane::Pages);

// Asks the kernel to back the whole pages of [data, data + bytes) now, in one call, as writing them would page by page.
// On this machine's virtual memory a page touched for the first time cost 10.5 us (the fault is the expense, not the
// clearing); populated in one call, 0.8 us. The memory keeps its contents (fresh memory reads as zeros). False when the
// kernel cannot (before Linux 5.14, or not Linux): touching the memory then does it as before.
bool populate(void* data, std::size_t bytes);

// Zero-filled memory of its own mapping, straight from the kernel (never cleared by hand: a fresh page reads as
// zeros); throws std::bad_alloc. Freed with unmapZeroed and the same size.
void* mapZeroed(std::size_t bytes);
void unmapZeroed(void* data, std::size_t bytes);

// A value made ready on the page worker for the thread that started it (a page, a bigger buffer): taken only once
// the worker is done with it, never waited for. The worker holds the value too, so an owner that goes first
// leaves it to the worker to free.
template<typename T> class MadeAhead
{
public:
    bool isPending() const { return m_state != nullptr; }

    // `make(value)` runs on the page worker; nothing else touches the value until it is taken.
    template<typename Make> void start(T value, Make make, PageLane lane = PageLane::Pages)
    {
        auto state = std::make_shared<State>(std::move(value));
        runOnPageWorker(
            [state, make = std::move(make)] {
                make(state->value);
                state->ready.store(true, std::memory_order_release);
            },
            lane);
        m_state = std::move(state);
    }

    // The value once made (and this no longer pending), else nothing.
    std::optional<T> takeIfReady()
    {
        if (!m_state || !m_state->ready.load(std::memory_order_acquire))
            return std::nullopt;
        std::optional<T> value(std::move(m_state->value));
        m_state.reset();
        return value;
    }

    void reset() { m_state.reset(); }

private:
    struct State
    {
        explicit State(T made)
            : value(std::move(made))
        {}
        T value;
        std::atomic<bool> ready{false};
    };
    std::shared_ptr<State> m_state;
};

// The next buffer of a big std::vector that grows by appends, made on the page worker: a vector doubling from 4 to
// 8 MB held the GUI thread for 40-60 ms, most of it the kernel clearing the pages the copy touched first.
template<typename T> class RoomAhead
{
public:
    // Before `adding` more elements go into `vector`: moves it into the buffer made ahead when it must grow and that
    // is ready (else the vector grows as ever: nothing waits), and starts the next buffer once the vector has room for
    // 256 KB and is three quarters full. (No sooner: both buffers are held meanwhile, as they are for a moment
    // when a vector grows; and half as big again, not twice: such vectors are megabytes.)
    void makeRoom(std::vector<T>& vector, std::size_t adding)
    {
        const std::size_t needed = vector.size() + adding;
        if (needed * 4 > vector.capacity() * 3)
            makeRoomSlowly(vector, needed);
    }

    // Nothing more arrives: the buffer made ahead would only hold memory.
    void reset() { m_next.reset(); }

    // Nothing more arrives, and a copy of the vector is wanted: the buffer made ahead, if it is ready, holding that
    // copy (its pages were touched on the worker: copying a million elements into fresh pages took 25-45 ms of the
    // GUI thread); else nothing, and the caller copies as it can afford to. The room is gone either way.
    std::optional<std::vector<T>> copyIntoRoom(const std::vector<T>& vector)
    {
        std::optional<std::vector<T>> room = m_next.takeIfReady();
        m_next.reset();
        if (!room || room->capacity() < vector.size())
            return std::nullopt;
        room->assign(vector.begin(), vector.end());
        return room;
    }

private:
    static constexpr std::size_t BigBytes = std::size_t(1) << 18;

    void makeRoomSlowly(std::vector<T>& vector, std::size_t needed)
    {
        if (m_next.isPending() && m_madeFor != vector.capacity())
            m_next.reset(); // the vector grew without it (it was not ready): too small by now
        if (needed > vector.capacity()) {
            if (std::optional<std::vector<T>> grown = m_next.takeIfReady(); grown && grown->capacity() >= needed) {
                grown->assign(vector.begin(), vector.end());
                vector.swap(*grown);
            }
        }
        if (!m_next.isPending() && vector.capacity() * sizeof(T) >= BigBytes && needed * 4 > vector.capacity() * 3) {
            const std::size_t capacity = std::max(needed, vector.capacity());
            m_madeFor = vector.capacity();
            m_next.start(
                std::vector<T>(),
                [capacity = capacity + capacity / 2](std::vector<T>& room) {
                    room.reserve(capacity);
                    populate(room.data(), capacity * sizeof(T));
                    room.resize(capacity); // touched here, not when the elements move in
                    room.clear();
                },
                PageLane::BigBuffers);
        }
    }

    MadeAhead<std::vector<T>> m_next;
    std::size_t m_madeFor = 0; // the capacity of the vector when m_next was started
};

} // namespace keylens::keyspace::detail
