#pragma once

#include "base/ThreadPriority.h"

#include <QString>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace keylens::base {

// A stop flag with a condition variable: request() sets it and wakes every waitFor() at once, so that a loop that
// waits between its rounds stops as soon as it is asked instead of at the end of a sleep. flag() is the same flag for
// what takes a plain one (redis::Connection::open: a blocked read ends within Transport::CancelSliceMs once it is
// set). Any thread may request, look and wait; reset() only while nothing waits on it or reads it.
class StopFlag
{
public:
    StopFlag() = default;
    StopFlag(const StopFlag&) = delete;
    StopFlag& operator=(const StopFlag&) = delete;

    void request();
    bool isRequested() const { return m_requested.load(); }
    // Sleeps up to `ms`: true when the time passed, false at once when the flag is (or gets) requested.
    bool waitFor(int ms) const;
    const std::atomic<bool>* flag() const { return &m_requested; }
    void reset() { m_requested.store(false); }

private:
    std::atomic<bool> m_requested{false};
    mutable std::mutex m_mutex;
    mutable std::condition_variable m_wake;
};

// A long-lived loop on a thread of its own, until it is asked to stop or returns: a subscription's reader, the live
// view's looks at the keys that changed, a MONITOR reader. Not for a piece of work the caller waits for (SideTask),
// nor for results delivered back to the GUI thread (JobRunner, WorkerJob).
//
// Threads: start() once, from the owner; the loop runs on the service's thread, named `name`, at `priority`.
// Stop: requestStop() (any thread) sets the stop flag and returns at once: waitFor() returns false at once, and a
// connection opened with stopFlag() ends its blocked read within Transport::CancelSliceMs. stop() (the owner, and the
// destructor) requests and then waits for the loop to return: it returns as soon as the loop looks at the flag or
// waits, never after a whole interval. A loop that returns by itself requests the stop too, so that whoever waits on
// the service (waitFor()) wakes.
// Ownership: what the loop uses must outlive stop(); nothing the loop writes is delivered anywhere: the owner takes it
// under its own lock, and after stop() returns the loop writes nothing more.
class ServiceThread
{
public:
    explicit ServiceThread(const QString& name, Priority priority = Priority::Normal);
    ~ServiceThread(); // stop()
    ServiceThread(const ServiceThread&) = delete;
    ServiceThread& operator=(const ServiceThread&) = delete;

    void start(std::function<void()> loop);
    void requestStop() { m_stop.request(); }
    // Requests the stop and waits for the loop to return; at once when it has (or never started).
    void stop();

    // For the loop (or anyone): whether the stop was requested, and a sleep that ends at once on it.
    bool isStopRequested() const { return m_stop.isRequested(); }
    bool waitFor(int ms) const { return m_stop.waitFor(ms); }
    const std::atomic<bool>* stopFlag() const { return m_stop.flag(); }

private:
    QString m_name;
    Priority m_priority;
    StopFlag m_stop;
    std::thread m_thread;
};

} // namespace keylens::base
