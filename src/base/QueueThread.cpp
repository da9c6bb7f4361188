#include "base/QueueThread.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace keylens::base {

struct QueueThread::Queue
{
    QString name;
    Priority priority = Priority::Normal;
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<std::function<void()>> jobs; // under `mutex`
    bool ending = false;                    // under `mutex`: run what is left, then return
    std::thread thread;                     // started by the first post, under `mutex`

    void run()
    {
        setUpThisThread(name, priority);
        for (;;) {
            std::function<void()> job;
            {
                std::unique_lock lock(mutex);
                wake.wait(lock, [this] { return !jobs.empty() || ending; });
                if (jobs.empty())
                    return; // ending, and every job ran
                job = std::move(jobs.front());
                jobs.pop_front();
            }
            job();
            job = nullptr; // what it captured goes here, before the next job
        }
    }
};

QueueThread::QueueThread(const QString& name, Priority priority)
    : m_queue(std::make_unique<Queue>())
{
    m_queue->name = name;
    m_queue->priority = priority;
}

QueueThread::~QueueThread()
{
    {
        const std::lock_guard lock(m_queue->mutex);
        m_queue->ending = true;
    }
    m_queue->wake.notify_one();
    if (m_queue->thread.joinable())
        m_queue->thread.join();
}

void QueueThread::post(std::function<void()> job)
{
    {
        const std::lock_guard lock(m_queue->mutex);
        m_queue->jobs.push_back(std::move(job));
        if (!m_queue->thread.joinable())
            m_queue->thread = std::thread([queue = m_queue.get()] { queue->run(); });
    }
    m_queue->wake.notify_one();
}

} // namespace keylens::base
