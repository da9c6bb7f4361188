#pragma once

#include "base/JobRunner.h"

#include <QObject>

#include <atomic>
#include <functional>

namespace keylens::base {

// JobRunner's one-job form, for an owner on the GUI thread: one piece of work at a time on the runner's thread, its
// result delivered back on the owner's thread only if it is still current, dropped on cancel. For passes over a
// finished store that take longer than a slice (judging the namespaces, the exact pattern tree, a chart of millions
// of keys, the final sort of a big parent). What the work computes it writes where the delivery reads it; the
// delivery runs after the work returned.
//
// Threads: start(), cancel() and isRunning() on the owner's thread only; the work on the job's thread (one per
// WorkerJob, started by the first job, named `threadName`, at `priority` for good); `delivered` on the owner's thread.
// Cancel: cancel() and start() set the flag (cancelled()), wait for running work to return and drop its delivery,
// queued or not: the work reads a store its owner may be about to free. Work that takes long looks at cancelled()
// between steps. The destructor cancels.
class WorkerJob : public QObject
{
    Q_OBJECT

public:
    explicit WorkerJob(const QString& threadName, QObject* parent = nullptr, Priority priority = Priority::Background);
    ~WorkerJob() override; // cancels

    // Starts `work` on the job's thread, after cancelling a running job. Once it returns, `delivered` runs on the
    // owner's thread, unless cancel() or start() came first.
    void start(std::function<void()> work, std::function<void()> delivered);
    // Asks running work to stop (cancelled() turns true), waits for it to return and drops its delivery, queued or
    // not. At once when nothing runs.
    void cancel();
    // Whether work was started and has not delivered or been cancelled.
    bool isRunning() const { return m_runner.isCurrent(m_job); }
    // For the work, between its steps: whether it was asked to stop.
    bool cancelled() const { return m_cancel.load(std::memory_order_relaxed); }
    // The same, for work that takes a flag (a pass that looks at it between its own steps).
    const std::atomic<bool>& cancelFlag() const { return m_cancel; }

private:
    std::atomic<bool> m_cancel{false};
    std::uint64_t m_job = 0;
    JobRunner m_runner; // last: destroyed (joined) first
};

} // namespace keylens::base
