#include "base/WorkerJob.h"

#include <utility>

namespace keylens::base {

WorkerJob::WorkerJob(const QString& threadName, QObject* parent, Priority priority)
    : QObject(parent)
    , m_runner(threadName, nullptr, priority)
{}

WorkerJob::~WorkerJob()
{
    cancel();
}

void WorkerJob::start(std::function<void()> work, std::function<void()> delivered)
{
    cancel();
    m_job = m_runner.post([work = std::move(work), delivered = std::move(delivered)](const JobContext&) {
        work();
        return delivered; // may start the next job
    });
}

void WorkerJob::cancel()
{
    if (!isRunning())
        return;
    m_cancel.store(true, std::memory_order_relaxed);
    m_runner.cancelAllAndWait();
    m_cancel.store(false, std::memory_order_relaxed); // the next job starts with a clear flag
}

} // namespace keylens::base
