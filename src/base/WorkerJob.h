#pragma once

#include <QObject>

#include <atomic>
#include <functional>

class QThread;

namespace keylens::base {

// One piece of work on a thread of its own, for an owner on the GUI thread: run it, deliver its result back on the
// owner's thread only if it is still current, drop it on cancel. For passes over a finished store that take longer
// than a slice (judging the namespaces, the exact pattern tree, a chart of millions of keys, the final sort of a big
// parent). What the work computes it writes where the delivery reads it; the delivery runs after the work returned.
//
// cancel() and start() wait for running work to return: the work reads a store its owner may be about to free.
// Work that takes long looks at cancelled() between steps. One job at a time; the owner's thread only.
class WorkerJob : public QObject
{
    Q_OBJECT

public:
    // `threadName` names each job's thread (for a debugger, GammaRay, top -H).
    explicit WorkerJob(const QString& threadName, QObject* parent = nullptr);
    ~WorkerJob() override; // cancels

    // Starts `work` on a new thread, after cancelling a running job. Once it returns, `delivered` runs on the owner's
    // thread, unless cancel() or start() came first. `backgroundPriority`: the thread runs at background priority
    // (runAtBackgroundPriority), for work nobody waits for frame by frame.
    void start(std::function<void()> work, std::function<void()> delivered, bool backgroundPriority = true);
    // Asks running work to stop (cancelled() turns true), waits for it to return and drops its delivery, queued or
    // not. At once when nothing runs.
    void cancel();
    // Whether work was started and has not delivered or been cancelled.
    bool isRunning() const { return m_thread != nullptr; }
    // For the work, between its steps: whether it was asked to stop.
    bool cancelled() const { return m_cancel.load(std::memory_order_relaxed); }
    // The same, for work that takes a flag (a pass that looks at it between its own steps).
    const std::atomic<bool>& cancelFlag() const { return m_cancel; }

private:
    QString m_threadName;
    QThread* m_thread = nullptr;
    // The only job a finished thread's queued signal may deliver: an abandoned thread's signal may still be queued
    // when a new thread is allocated at the same address, so jobs are told apart by number.
    unsigned m_job = 0;
    std::atomic<bool> m_cancel{false};
};

} // namespace keylens::base
