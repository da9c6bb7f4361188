#pragma once

// Private to the keyspace library and the arrays that use PagedArray.h: not installed.

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

namespace keylens::keyspace::detail {

// Runs `job` on a thread of its own, after the jobs posted before it. For work that only makes fresh memory ready
// (PagedArray's next page): on this machine's virtual memory the kernel takes 45 us to clear a page on first
// touch, so the ten node arrays of a store, crossing a page of 65,536 entries at once, held the ingesting GUI
// thread for 25-35 ms of CPU every 65,536 nodes. The thread lives as long as the process.
void runOnPageWorker(std::function<void()> job);

// A value made ready on the page worker for the thread that started it (a page, a bigger buffer): taken only once
// the worker is done with it, never waited for. The worker holds the value too, so an owner that goes first
// leaves it to the worker to free.
template<typename T> class MadeAhead
{
public:
    bool isPending() const { return m_state != nullptr; }

    // `make(value)` runs on the page worker; nothing else touches the value until it is taken.
    template<typename Make> void start(T value, Make make)
    {
        auto state = std::make_shared<State>(std::move(value));
        runOnPageWorker([state, make = std::move(make)] {
            make(state->value);
            state->ready.store(true, std::memory_order_release);
        });
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

} // namespace keylens::keyspace::detail
