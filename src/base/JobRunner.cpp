#include "base/JobRunner.h"

#include <QThread>

namespace keylens::base {

JobRunner::JobRunner(const QString& threadName, QObject* parent)
    : QObject(parent)
    , m_thread(new QThread)
    , m_worker(new QObject)
{
    m_thread->setObjectName(threadName);
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread->start();
}

JobRunner::~JobRunner()
{
    cancelAll();
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
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
    QMetaObject::invokeMethod(m_worker, [this, id, cancel, work = std::move(work)] {
        const JobContext context{id, cancel, this};
        if (context.cancelled())
            return; // superseded or cancelled before it started: not even begun
        Delivery deliver = work(context);
        // Back on the owner's thread; the runner outlives this (its destructor joins the worker first, and a queued
        // call to a deleted receiver is dropped by Qt).
        QMetaObject::invokeMethod(this, [this, id, cancel, deliver = std::move(deliver)] {
            if (cancel->load() || m_live.erase(id) == 0)
                return;
            if (deliver)
                deliver();
        });
    });
    return id;
}

void JobContext::send(std::function<void()> delivery) const
{
    QMetaObject::invokeMethod(runner, [runner = runner, id = id, cancel = cancel, delivery = std::move(delivery)] {
        if (!cancel->load() && runner->isCurrent(id))
            delivery();
    });
}

void JobRunner::cancelAll()
{
    for (auto& [id, cancel] : m_live)
        cancel->store(true);
    m_live.clear();
    m_laneJob.clear();
}

} // namespace keylens::base
