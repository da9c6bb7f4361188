#pragma once

#include <cstddef>
#include <functional>
#include <thread>

namespace keylens::base {

// Work on a thread of its own beside the caller's, started at once and waited for by wait() or the destructor: the
// fork of a fork-join. For passes that read a store nobody writes meanwhile (two halves of an array, two gathering
// passes over a finished scan) and for blocking work the caller overlaps with its own (asking a server while
// computing). Not for a loop that runs until it is stopped (ServiceThread).
//
// Threads: the caller's and the task's own (a new one per task, unnamed, at the caller's priority).
// Ordering and ownership: nothing is delivered anywhere: the work writes what the caller reads after wait(), which
// makes every write visible; what the work refers to (the caller's locals) must outlive the wait.
// Stop: there is none: the work runs to its end, and wait() and the destructor wait for it (a task that may block
// takes a cancel flag of the caller's, as the big keys' length questions do).
class SideTask
{
public:
    explicit SideTask(std::function<void()> work);
    ~SideTask(); // waits: the work may refer to the caller's locals
    SideTask(const SideTask&) = delete;
    SideTask& operator=(const SideTask&) = delete;

    // Returns once the work is done; again at once.
    void wait();
    // Whether wait() has returned (the work may have ended before it).
    bool isWaitedFor() const { return !m_thread.joinable(); }

private:
    std::thread m_thread;
};

// `half(from, to)` over [0, count) cut in the middle, the second half on a side task: for a pass over a million
// entries that is mostly cache misses, where two cores halve the wait.
void inTwoHalves(std::size_t count, const std::function<void(std::size_t from, std::size_t to)>& half);

// `task(i)` for every i in [0, count), each on a thread of its own (the shards of a cluster, each its own blocking
// connection), returning when all are done.
void eachOnItsOwnThread(std::size_t count, const std::function<void(std::size_t)>& task);

} // namespace keylens::base
