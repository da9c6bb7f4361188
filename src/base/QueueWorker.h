#pragma once

#include <functional>

namespace keylens::base {

// A thread that runs posted jobs one at a time, in the order they came, for work that must leave the caller's thread
// but keep an order (pages of a big array faulted in ahead of use; forks made from one quiet thread). Create it with
// `new` and never delete it: it is detached, and a job may be posted while statics are destroyed at exit.
class QueueWorker
{
public:
    QueueWorker();
    QueueWorker(const QueueWorker&) = delete;
    QueueWorker& operator=(const QueueWorker&) = delete;

    void post(std::function<void()> job);

private:
    struct Queue;
    Queue* m_queue; // shared with the thread, which outlives everything
};

} // namespace keylens::base
