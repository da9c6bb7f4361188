#pragma once

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <map>
#include <memory>

class QThread;

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

// Background work on one thread of its own, for the owner's thread (the GUI): each job gets an id and a cancel
// flag, runs on the worker, and returns what to deliver, which runs back on the owner's thread unless the job was
// cancelled or superseded in between. Jobs posted to the same lane supersede each other: posting cancels the
// lane's earlier job, so clicking through keys reads the last one, not a queue. The destructor cancels everything
// and joins the thread, which is prompt because jobs read through cancellable connections.
class JobRunner : public QObject
{
    Q_OBJECT
public:
    using Delivery = std::function<void()>;
    using Work = std::function<Delivery(const JobContext&)>;

    explicit JobRunner(const QString& threadName, QObject* parent = nullptr);
    ~JobRunner() override;

    // Queues `work`; a job in the same lane that has not delivered yet is cancelled. Lane 0 supersedes nothing.
    std::uint64_t post(Work work, int lane = 0);
    // Cancels every job queued or running: none of them delivers.
    void cancelAll();
    bool isCurrent(std::uint64_t job) const { return m_live.count(job) != 0; }

private:
    QThread* m_thread;
    QObject* m_worker;
    std::uint64_t m_nextId = 0;
    std::map<std::uint64_t, std::shared_ptr<std::atomic<bool>>> m_live; // id → cancel flag, until delivered
    std::map<int, std::uint64_t> m_laneJob;
};

} // namespace keylens::base
