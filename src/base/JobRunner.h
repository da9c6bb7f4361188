#pragma once

#include "base/QueueThread.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

namespace keylens::base {

class JobRunner;

// What a running job sees: its id, and the flag that asks it to stop. Hand the flag to the connection it reads
// from (redis::Connection::setCancelFlag) and a blocked read ends within redis::Transport::CancelSliceMs once set.
struct JobContext
{
    std::uint64_t id = 0;
    std::shared_ptr<std::atomic<bool>> cancel;
    JobRunner* runner = nullptr;

    bool cancelled() const { return cancel->load(std::memory_order_relaxed); }
    // Runs `delivery` on the owner's thread, in order with the job's other deliveries, while the job is current
    // (not cancelled, superseded or ended): for results a job streams before its end (a scan's batches).
    void send(std::function<void()> delivery) const;
};

// Blocking work for an owner on its thread (the GUI, the CLI's main thread), on one worker thread of the runner's own
// (a QueueThread, started by the first job), with stale results dropped: each job gets an id and a cancel flag, runs
// on the worker, and returns what to deliver, which runs back on the owner's thread only while the job is current.
// The one tracker of stale results in the house (what hotspot's JobTracker is); WorkerJob is its one-job form.
//
// Threads: post(), cancel*() and isCurrent() on the owner's thread only; the work on the runner's thread; deliveries
// (the returned one and JobContext::send's) on the owner's thread, in the order the worker made them.
// Ordering: jobs run one at a time, in the order posted; a job's deliveries come in the order it sent them, and its
// returned delivery last.
// Current: from post() until its delivery runs, unless cancelled or superseded: a job posted to a lane (not 0)
// supersedes the lane's earlier job, so clicking through keys reads the last one, not a queue.
// Cancel: sets the job's flag, and from then on nothing of it is delivered; a job cancelled before it started never
// starts. cancelAll() returns at once; cancelAllAndWait() also waits until no job runs, for work that reads what the
// owner is about to free. The destructor cancels everything and joins the thread, which is prompt when jobs read
// through cancellable connections and look at their flag.
// Ownership: the work's function is destroyed on the worker right after it returned, before the job stops counting
// as running; a delivery that is dropped is destroyed on the owner's thread (or with the runner).
class JobRunner : public QObject
{
    Q_OBJECT
public:
    using Delivery = std::function<void()>;
    using Work = std::function<Delivery(const JobContext&)>;

    explicit JobRunner(const QString& threadName, QObject* parent = nullptr, Priority priority = Priority::Normal);
    ~JobRunner() override;

    // Queues `work`; a job in the same lane that has not delivered yet is cancelled. Lane 0 supersedes nothing.
    std::uint64_t post(Work work, int lane = 0);
    // Cancels every job queued or running: none of them delivers. Returns at once.
    void cancelAll();
    // cancelAll(), then waits for the running job, if any, to return.
    void cancelAllAndWait();
    bool isCurrent(std::uint64_t job) const { return m_live.count(job) != 0; }

private:
    void run(std::uint64_t id, const std::shared_ptr<std::atomic<bool>>& cancel, Work& work);

    // The owner's thread only.
    std::uint64_t m_nextId = 0;
    std::map<std::uint64_t, std::shared_ptr<std::atomic<bool>>> m_live; // id → cancel flag, until delivered
    std::map<int, std::uint64_t> m_laneJob;
    // Shared with the worker: which job runs (0: none), so that cancelAllAndWait() can wait for it.
    std::mutex m_runMutex;
    std::condition_variable m_runEnded;
    std::uint64_t m_running = 0;
    // Last: destroyed first, joining the worker while everything it uses is still there.
    QueueThread m_worker;
};

} // namespace keylens::base
