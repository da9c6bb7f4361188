#include "keyspace/PageWorker.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace keylens::keyspace::detail {

namespace {

class PageWorker
{
public:
    PageWorker()
    {
        // Detached and never destroyed: an array may post its next page while statics are destroyed at exit.
        std::thread([this] { run(); }).detach();
    }

    void post(std::function<void()> job)
    {
        {
            const std::lock_guard lock(m_mutex);
            m_jobs.push_back(std::move(job));
        }
        m_wake.notify_one();
    }

private:
    void run()
    {
        for (;;) {
            std::function<void()> job;
            {
                std::unique_lock lock(m_mutex);
                m_wake.wait(lock, [this] { return !m_jobs.empty(); });
                job = std::move(m_jobs.front());
                m_jobs.pop_front();
            }
            job();
        }
    }

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::function<void()>> m_jobs;
};

} // namespace

void runOnPageWorker(std::function<void()> job, PageLane lane)
{
    // See the constructor.
    static PageWorker* const pages = new PageWorker;
    static PageWorker* const bigBuffers = new PageWorker;
    (lane == PageLane::Pages ? pages : bigBuffers)->post(std::move(job));
}

} // namespace keylens::keyspace::detail
