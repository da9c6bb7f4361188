#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace keylens::scan {

// Pause, resume and cancel requests from any thread to a running scan. The scan loop polls it between
// pipeline rounds (a round takes a few milliseconds), so each request takes effect well within 100 ms.
class ScanControl
{
public:
    void cancel();
    void pause();
    void resume();

    bool isCancelled() const { return m_cancelled.load(std::memory_order_relaxed); }
    bool isPaused() const { return m_paused.load(std::memory_order_relaxed); }

    // Sleeps until `deadline`, a resume or a cancel, whichever comes first; returns false if cancelled.
    bool sleepUntil(std::chrono::steady_clock::time_point deadline);
    // Blocks while paused; returns false if cancelled.
    bool waitWhilePaused();

private:
    std::atomic<bool> m_cancelled{false};
    std::atomic<bool> m_paused{false};
    std::mutex m_mutex;
    std::condition_variable m_wake;
};

} // namespace keylens::scan
