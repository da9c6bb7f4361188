#include "base/JobRunner.h"

namespace keylens::base {

JobRunner::JobRunner(const QString& threadName, QObject* parent, Priority priority)
    : QObject(parent)
    , m_worker(threadName, priority)
{}

JobRunner::~JobRunner()
{
    cancelAll(); // then m_worker's destructor runs what is queued (each job sees its flag) and joins
}

std::uint64_t JobRunner::post(Work work, int lane)
{
    const std::uint64_t id = ++m_nextId;
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    if (lane != 0) {
        if (auto earlier = m_laneJob.find(lane); earlier != m_laneJob.end()) {
            if (auto live = m_live.find(earlier->second); live != m_live.end()) {
                live->second->store(true);
                m_live.erase(live);
            }
        }
        m_laneJob[lane] = id;
    }
    m_live.emplace(id, cancel);
    m_worker.post([this, id, cancel, work = std::move(work)]() mutable { run(id, cancel, work); });
    return id;
}

void JobRunner::run(std::uint64_t id, const std::shared_ptr<std::atomic<bool>>& cancel, Work& work)
{
    {
        // The flag is read under the lock that cancelAllAndWait() sets it under: a job either sees it or is waited for.
        const std::lock_guard lock(m_runMutex);
        if (cancel->load())
            return; // superseded or cancelled before it started: not even begun
        m_running = id;
    }
    Delivery deliver = work(JobContext{id, cancel, this});
    work = nullptr; // what the work captured goes now, while it still counts as running
    {
        const std::lock_guard lock(m_runMutex);
        m_running = 0;
    }
    m_runEnded.notify_all();
    // Back on the owner's thread; the runner outlives this (its destructor joins the worker first, and a queued call
    // to a deleted receiver is dropped by Qt).
    QMetaObject::invokeMethod(
        this,
        [this, id, cancel, deliver = std::move(deliver)] {
            if (cancel->load() || m_live.erase(id) == 0)
                return;
            if (deliver)
                deliver();
        },
        Qt::QueuedConnection);
}

void JobContext::send(std::function<void()> delivery) const
{
    QMetaObject::invokeMethod(
        runner,
        [runner = runner, id = id, cancel = cancel, delivery = std::move(delivery)] {
            if (!cancel->load() && runner->isCurrent(id))
                delivery();
        },
        Qt::QueuedConnection);
}

void JobRunner::cancelAll()
{
    for (auto& [id, cancel] : m_live)
        cancel->store(true);
    m_live.clear();
    m_laneJob.clear();
}

void JobRunner::cancelAllAndWait()
{
    std::unique_lock lock(m_runMutex);
    cancelAll();
    m_runEnded.wait(lock, [this] { return m_running == 0; });
}

} // namespace keylens::base
