#pragma once

#include "base/ThreadPriority.h"

#include <QString>

#include <functional>
#include <memory>

namespace keylens::base {

// One thread of its own that runs posted jobs one at a time, in the order they were posted: for work that must leave
// the caller's thread but keep an order (the store's next pages faulted in ahead of the ingest, children forked from
// one quiet thread, snapshots written) and for what a finished scan leaves, freed there (dispose(): a store of a
// million keys takes a third of a second to free, a linter's verdicts and tables tens of milliseconds at ten million
// keys; freed on the GUI thread they were stalls). JobRunner runs its jobs on one.
//
// Threads: post() and dispose() from any thread; the jobs run on the queue's thread, started by the first post and
// named `name`, at `priority` for its whole life.
// Ordering: the jobs one thread posts run in the order it posted them, never two at once; each job's function is
// destroyed on the queue's thread, right after it ran, before the next one starts.
// Stop: the destructor runs every job posted before it, then ends the thread: it waits, nothing is dropped. A queue
// that must outlive static destruction (a job may be posted while statics are destroyed at exit) is made with `new`
// and never deleted: its thread is never joined and ends with the process.
// Nothing is delivered back: a job that answers does so itself (a promise, or a JobRunner's delivery).
class QueueThread
{
public:
    explicit QueueThread(const QString& name, Priority priority = Priority::Normal);
    ~QueueThread(); // runs what was posted, then joins
    QueueThread(const QueueThread&) = delete;
    QueueThread& operator=(const QueueThread&) = delete;

    void post(std::function<void()> job);
    // Frees `old` on the queue's thread, in order with the jobs posted.
    template<typename T> void dispose(std::unique_ptr<T> old)
    {
        if (old)
            post([old = old.release()] { delete old; });
    }

private:
    struct Queue;
    std::unique_ptr<Queue> m_queue;
};

} // namespace keylens::base
