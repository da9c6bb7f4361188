#include "base/QueueWorker.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace keylens::base {

struct QueueWorker::Queue
{
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<std::function<void()>> jobs;

    [[noreturn]] void run()
    {
        for (;;) {
            std::function<void()> job;
            {
                std::unique_lock lock(mutex);
                wake.wait(lock, [this] { return !jobs.empty(); });
                job = std::move(jobs.front());
                jobs.pop_front();
            }
            job();
        }
    }
};

QueueWorker::QueueWorker()
    : m_queue(new Queue) // never freed: see the class comment
{
    std::thread([queue = m_queue] { queue->run(); }).detach();
}

void QueueWorker::post(std::function<void()> job)
{
    {
        const std::lock_guard lock(m_queue->mutex);
        m_queue->jobs.push_back(std::move(job));
    }
    m_queue->wake.notify_one();
}

} // namespace keylens::base
