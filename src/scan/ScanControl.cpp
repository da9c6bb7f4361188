#include "scan/ScanControl.h"

namespace keylens::scan {

void ScanControl::cancel()
{
    {
        std::lock_guard lock(m_mutex);
        m_cancelled = true;
    }
    m_wake.notify_all();
}

void ScanControl::pause()
{
    std::lock_guard lock(m_mutex);
    m_paused = true;
}

void ScanControl::resume()
{
    {
        std::lock_guard lock(m_mutex);
        m_paused = false;
    }
    m_wake.notify_all();
}

bool ScanControl::sleepUntil(std::chrono::steady_clock::time_point deadline)
{
    std::unique_lock lock(m_mutex);
    m_wake.wait_until(lock, deadline, [this] { return m_cancelled.load(); });
    return !m_cancelled;
}

bool ScanControl::waitWhilePaused()
{
    std::unique_lock lock(m_mutex);
    m_wake.wait(lock, [this] { return m_cancelled.load() || !m_paused.load(); });
    return !m_cancelled;
}

bool ScanControl::waitForRoom(int limit)
{
    std::unique_lock lock(m_mutex);
    m_wake.wait(lock, [&] { return m_cancelled.load() || m_undelivered.load() < limit; });
    return !m_cancelled;
}

void ScanControl::batchDelivered()
{
    {
        std::lock_guard lock(m_mutex);
        --m_undelivered;
    }
    m_wake.notify_all();
}

} // namespace keylens::scan
