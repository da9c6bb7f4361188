#include "base/ServiceThread.h"

#include <QtGlobal>

#include <algorithm>
#include <chrono>

namespace keylens::base {

void StopFlag::request()
{
    {
        // Under the mutex: a waiter between its look at the flag and its wait would miss the notification.
        const std::lock_guard lock(m_mutex);
        m_requested.store(true);
    }
    m_wake.notify_all();
}

bool StopFlag::waitFor(int ms) const
{
    std::unique_lock lock(m_mutex);
    return !m_wake.wait_for(lock, std::chrono::milliseconds(std::max(ms, 0)), [this] { return m_requested.load(); });
}

ServiceThread::ServiceThread(const QString& name, Priority priority)
    : m_name(name)
    , m_priority(priority)
{}

ServiceThread::~ServiceThread()
{
    stop();
}

void ServiceThread::start(std::function<void()> loop)
{
    Q_ASSERT(!m_thread.joinable());
    m_thread = std::thread([this, loop = std::move(loop)] {
        setUpThisThread(m_name, m_priority);
        loop();
        m_stop.request(); // ended by itself or asked to: whoever waits on the service wakes
    });
}

void ServiceThread::stop()
{
    m_stop.request();
    if (m_thread.joinable())
        m_thread.join();
}

} // namespace keylens::base
