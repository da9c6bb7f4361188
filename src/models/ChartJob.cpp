#include "models/ChartJob.h"

#include <QDateTime>
#include <QThread>

namespace keylens::models {

ChartJob::ChartJob(QObject* parent)
    : QObject(parent)
{}

ChartJob::~ChartJob()
{
    cancel();
}

void ChartJob::cancel()
{
    ++m_jobs; // a result already on its way is dropped
    m_slices.cancel();
    m_walk.reset();
    if (m_worker) {
        m_cancelled.store(true, std::memory_order_relaxed);
        m_worker->wait();
        m_cancelled.store(false, std::memory_order_relaxed);
        m_worker = nullptr; // deleted by its finished handler, or with this object
    }
    m_workerWalk.reset();
}

void ChartJob::start(const keyspace::Keyspace& store, std::vector<keyspace::NodeId> roots,
                     const ChartWalk::BarOf& barOf, bool storeIsFinal)
{
    cancel();
    std::uint64_t keys = 0;
    for (const keyspace::NodeId root : roots)
        keys += store.stats(root).keys + (store.isKey(root) ? 1 : 0);
    auto walk = std::make_unique<ChartWalk>(store, std::move(roots), QDateTime::currentMSecsSinceEpoch(), barOf);
    if (!storeIsFinal || keys < WorkerThreshold) {
        m_walk = std::move(walk);
        m_slices.start([this](std::size_t nodes) { return m_walk->step(nodes); },
                       [this] {
                           const ChartData data = m_walk->result();
                           m_walk.reset();
                           Q_EMIT done(data);
                       },
                       true); // small ones are done at once
        return;
    }
    const unsigned job = m_jobs;
    m_workerWalk = std::shared_ptr<ChartWalk>(walk.release());
    m_worker = QThread::create([this, walk = m_workerWalk] {
        while (!walk->step(NodesPerCheck)) {
            if (m_cancelled.load(std::memory_order_relaxed))
                return;
        }
    });
    m_worker->setParent(this);
    QThread* worker = m_worker;
    connect(worker, &QThread::finished, this, [this, worker, job, walk = m_workerWalk] {
        worker->deleteLater();
        if (m_worker == worker)
            m_worker = nullptr;
        if (job != m_jobs || !walk->isDone())
            return;
        m_workerWalk.reset();
        Q_EMIT done(walk->result());
    });
    worker->start();
}

} // namespace keylens::models
