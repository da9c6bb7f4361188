#include "base/WorkerJob.h"

#include "base/ThreadPriority.h"

#include <QThread>

#include <utility>

namespace keylens::base {

WorkerJob::WorkerJob(const QString& threadName, QObject* parent)
    : QObject(parent)
    , m_threadName(threadName)
{}

WorkerJob::~WorkerJob()
{
    cancel();
}

void WorkerJob::start(std::function<void()> work, std::function<void()> delivered, bool backgroundPriority)
{
    cancel();
    m_thread = QThread::create([work = std::move(work), backgroundPriority] {
        if (backgroundPriority)
            runAtBackgroundPriority();
        work();
    });
    m_thread->setObjectName(m_threadName);
    QThread* thread = m_thread;
    connect(thread, &QThread::finished, this, [this, thread, job = ++m_job, delivered = std::move(delivered)] {
        if (job != m_job)
            return; // cancelled, and deleted by cancel()
        thread->deleteLater();
        m_thread = nullptr;
        if (delivered)
            delivered(); // may start the next job
    });
    m_thread->start();
}

void WorkerJob::cancel()
{
    if (!m_thread)
        return;
    m_cancel.store(true, std::memory_order_relaxed);
    m_thread->wait();
    delete m_thread; // its finished signal, maybe queued already, is dropped with it or by the number below
    m_thread = nullptr;
    ++m_job;
    m_cancel.store(false, std::memory_order_relaxed);
}

} // namespace keylens::base
