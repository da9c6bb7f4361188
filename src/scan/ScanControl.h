#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace keylens::scan {

// Pause, resume and cancel requests from any thread to a running scan. The scan loop polls it between
// pipeline rounds (a round takes a few milliseconds), so each request takes effect well within 100 ms; a cancel
// also ends a read the server is slow to answer (a paused or stopped server), within 50 ms.
class ScanControl
{
public:
    void cancel();
    void pause();
    void resume();

    bool isCancelled() const { return m_cancelled.load(std::memory_order_relaxed); }
    // For the scan's connection, so that a cancel ends a blocked read too (Connection::open).
    const std::atomic<bool>* cancelFlag() const { return &m_cancelled; }
    bool isPaused() const { return m_paused.load(std::memory_order_relaxed); }

    // Sleeps until `deadline`, a resume or a cancel, whichever comes first; returns false if cancelled.
    bool sleepUntil(std::chrono::steady_clock::time_point deadline);
    // Blocks while paused; returns false if cancelled.
    bool waitWhilePaused();

    // Backpressure between the scan thread and the thread that consumes its batches: the scan waits
    // while `limit` batches are handed over but not yet delivered, so a busy consumer never lets them
    // pile up in its event queue. Returns false if cancelled.
    bool waitForRoom(int limit);
    void batchHandedOver() { ++m_undelivered; }
    void batchDelivered();
    int undeliveredBatches() const { return m_undelivered.load(); }

private:
    std::atomic<bool> m_cancelled{false};
    std::atomic<bool> m_paused{false};
    std::atomic<int> m_undelivered{0};
    std::mutex m_mutex;
    std::condition_variable m_wake;
};

} // namespace keylens::scan
