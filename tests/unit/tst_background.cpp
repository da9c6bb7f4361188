// base/: the one way background work is written, five primitives (docs/ARCHITECTURE.md, "Threads"). Each is checked
// for what its callers rely on, and each under a stress matrix of batch size × delay × iterations (the rows of its
// `_data` function) that would catch a delivery lost, run twice, out of order or stale (after its job was cancelled
// or superseded), and a stop that hangs:
// - JobRunner and its one-job form WorkerJob: deliveries on the owner's thread, only while current, in order;
// - QueueThread: jobs run once each, in order, on one other thread; the destructor runs them all and returns;
// - ServiceThread: a loop stopped at once, however long its wait; nothing written after stop();
// - SideTask, inTwoHalves, eachOnItsOwnThread: every index once, everything written visible after the wait;
// - SlicedJob and its one-step form NextTurn: every unit once and in order, a dropped job never called again.
#include "base/JobRunner.h"
#include "base/NextTurn.h"
#include "base/QueueThread.h"
#include "base/ServiceThread.h"
#include "base/SideTask.h"
#include "base/SlicedJob.h"
#include "base/ThreadPriority.h"
#include "base/WorkerJob.h"

#include <QElapsedTimer>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <sys/resource.h>
#include <thread>
#include <vector>

using namespace keylens;
using namespace std::chrono_literals;

namespace {

// A job's cost: busy for `us` microseconds (a sleep would hand the core over and hide races).
void spend(int us)
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
    while (std::chrono::steady_clock::now() < until) {
    }
}

// The matrix every stress test runs: batch × delay × iterations, from many tiny jobs to a few slow ones (each row
// about the same total work, a few tens of milliseconds).
void stressRows()
{
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("delayUs");
    QTest::addColumn<int>("iterations");
    for (const int batch : {1, 8, 64}) {
        for (const int delayUs : {0, 50, 1000}) {
            const int iterations = std::clamp(20'000 / (batch * (delayUs + 20)), 4, 90);
            QTest::addRow("batch %d, %d us, %d rounds", batch, delayUs, iterations) << batch << delayUs << iterations;
        }
    }
}

// How a stress round ends: everything delivered before the next, all cancelled at once, or the next round goes on
// while this one's work still runs (and supersedes it, where lanes or restarts do).
enum class RoundEnd { Delivered, Cancelled, Overlapped };
RoundEnd roundEnd(int round)
{
    return round % 3 == 0 ? RoundEnd::Delivered : round % 3 == 1 ? RoundEnd::Cancelled : RoundEnd::Overlapped;
}

// Whether a round lets the worker run all of its work out before the round ends (its deliveries are queued then, and
// must be dropped all the same when the round is cancelled or overlapped), or ends it while work still runs.
bool settles(int round)
{
    return (round / 3) % 2 == 0;
}

// A stop may take a moment (a cancel slice, a loaded machine), never a job's or a wait's length.
constexpr qint64 PromptStopMs = 500;

// Ends the test run at once, saying what hung, when the scope it guards (a stop, a destructor that waits) has not
// returned within `ms`: a stop that hangs would otherwise stall the run until QtTest's watchdog, five minutes on.
class HangGuard
{
public:
    explicit HangGuard(const char* what, int ms = 10'000)
        : m_watch([this, what, ms] {
            std::unique_lock lock(m_mutex);
            if (!m_returnedOrNot.wait_for(lock, std::chrono::milliseconds(ms), [this] { return m_returned; }))
                qFatal("%s has not returned after %d ms: it hangs", what, ms);
        })
    {}
    ~HangGuard()
    {
        {
            const std::lock_guard lock(m_mutex);
            m_returned = true;
        }
        m_returnedOrNot.notify_all();
        m_watch.join();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_returnedOrNot;
    bool m_returned = false;
    std::thread m_watch; // last: started once the rest exists
};

} // namespace

class TestBackground : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // --- JobRunner --------------------------------------------------------------------------------------------------

    void aJobRunnerDeliversOnlyWhileCurrentAndInOrder_data() { stressRows(); }
    // Each round posts `batch` jobs to lane 0 and `batch` to lane 1, alternately; each job streams one delivery
    // (send) and returns another. Lane 0's all arrive unless cancelled; of a round's lane-1 jobs only the last may (it
    // superseded the others before the owner's thread took a turn), and not when the next round's first supersedes it
    // after it ran. Every delivery is on the owner's thread, in posting order, once.
    void aJobRunnerDeliversOnlyWhileCurrentAndInOrder()
    {
        QFETCH(int, batch);
        QFETCH(int, delayUs);
        QFETCH(int, iterations);
        struct Expect
        {
            bool mayDeliver = false;
            bool mustDeliver = false;
        };
        std::vector<Expect> expect;
        std::vector<int> returned; // the owner's thread only
        std::vector<int> sent;
        std::vector<std::atomic<int>> started(std::size_t(iterations * batch * 2));
        std::atomic<int> lastRan{-1}; // jobs run in posting order
        bool offThread = false;
        QThread* const owner = QThread::currentThread();
        auto runner = std::make_unique<base::JobRunner>(QStringLiteral("stress jobs"));
        for (int round = 0; round < iterations; ++round) {
            const RoundEnd end = roundEnd(round);
            const std::size_t first = expect.size();
            for (int i = 0; i < 2 * batch; ++i) {
                const int seq = int(expect.size());
                expect.push_back({});
                runner->post(
                    [&, seq, delayUs](const base::JobContext& job) -> base::JobRunner::Delivery {
                        ++started[std::size_t(seq)];
                        spend(delayUs);
                        job.send([&, seq] {
                            offThread = offThread || QThread::currentThread() != owner;
                            sent.push_back(seq);
                        });
                        lastRan = seq;
                        return [&, seq] {
                            offThread = offThread || QThread::currentThread() != owner;
                            returned.push_back(seq);
                        };
                    },
                    i % 2);
            }
            const bool settled = settles(round) && end != RoundEnd::Delivered;
            if (settled) { // every job of the round has run, and its deliveries wait in the event queue
                while (lastRan.load() < int(expect.size()) - 1)
                    std::this_thread::sleep_for(100us);
            }
            for (std::size_t seq = first; seq < expect.size(); ++seq) {
                const bool lane1 = (seq - first) % 2 == 1;
                const bool last = seq + 1 == expect.size();
                // An overlapped round's last lane-1 job is superseded by the next round's first: after it ran when
                // the round settled, before or after otherwise; the last round's is not.
                const bool superseded = end == RoundEnd::Overlapped && settled && round + 1 < iterations;
                expect[seq].mayDeliver = end != RoundEnd::Cancelled && (!lane1 || (last && !superseded));
                expect[seq].mustDeliver = expect[seq].mayDeliver && (!lane1 || end == RoundEnd::Delivered);
            }
            if (end == RoundEnd::Cancelled)
                runner->cancelAll();
            if (end == RoundEnd::Delivered)
                QVERIFY(QTest::qWaitFor([&] { return !returned.empty() && returned.back() == int(expect.size()) - 1; },
                                        20000));
        }
        bool fenced = false; // deliveries come in order: once this one ran, every earlier one has
        runner->post(
            [&fenced](const base::JobContext&) -> base::JobRunner::Delivery { return [&fenced] { fenced = true; }; });
        QTRY_VERIFY_WITH_TIMEOUT(fenced, 20000);
        QTest::qWait(5); // anything stale still queued would arrive now

        // The stop: a job blocked until it is cancelled, slow ones queued behind it that must never start.
        std::atomic<bool> blocked{false};
        std::atomic<int> startedLate{0};
        runner->post([&blocked](const base::JobContext& job) -> base::JobRunner::Delivery {
            blocked = true;
            while (!job.cancelled())
                std::this_thread::sleep_for(1ms);
            return {};
        });
        for (int i = 0; i < batch; ++i) {
            runner->post([&startedLate](const base::JobContext&) -> base::JobRunner::Delivery {
                ++startedLate;
                spend(100'000);
                return {};
            });
        }
        while (!blocked)
            std::this_thread::sleep_for(1ms);
        QElapsedTimer stopping;
        stopping.start();
        {
            const HangGuard guard("a JobRunner's destructor");
            runner.reset();
        }
        QVERIFY2(stopping.elapsed() < PromptStopMs, qPrintable(QString::number(stopping.elapsed())));
        QCOMPARE(startedLate.load(), 0);

        QVERIFY(!offThread);
        for (std::size_t i = 0; i < returned.size(); ++i) {
            const int seq = returned[i];
            QVERIFY2(expect[std::size_t(seq)].mayDeliver, qPrintable(QStringLiteral("job %1 was stale").arg(seq)));
            if (i > 0) // strictly increasing: none twice, none out of order
                QVERIFY2(returned[i - 1] < seq,
                         qPrintable(QStringLiteral("%1 after %2").arg(seq).arg(returned[i - 1])));
        }
        for (std::size_t seq = 0; seq < expect.size(); ++seq) {
            if (expect[seq].mustDeliver)
                QVERIFY2(std::binary_search(returned.begin(), returned.end(), int(seq)),
                         qPrintable(QStringLiteral("job %1 was lost").arg(seq)));
            QVERIFY(started[seq] <= 1);
        }
        for (std::size_t i = 0; i < sent.size(); ++i) {
            QVERIFY2(expect[std::size_t(sent[i])].mayDeliver,
                     qPrintable(QStringLiteral("job %1 sent stale").arg(sent[i])));
            if (i > 0)
                QVERIFY(sent[i - 1] < sent[i]);
        }
        for (const int seq : returned) // a job's sent delivery came, and before its return (both in order)
            QVERIFY(std::binary_search(sent.begin(), sent.end(), seq));
    }

    // A lane-0 job cancelled while it runs: its flag turns, cancelAllAndWait() returns only after it has.
    void cancelAllAndWaitWaitsForTheRunningJob()
    {
        base::JobRunner runner(QStringLiteral("test jobs"));
        std::atomic<bool> running{false};
        std::atomic<bool> returned{false};
        bool delivered = false;
        runner.post([&](const base::JobContext& job) -> base::JobRunner::Delivery {
            running = true;
            while (!job.cancelled())
                std::this_thread::sleep_for(1ms);
            std::this_thread::sleep_for(20ms); // still working after it saw the flag
            returned = true;
            return [&delivered] { delivered = true; };
        });
        while (!running)
            std::this_thread::sleep_for(1ms);
        {
            const HangGuard guard("JobRunner::cancelAllAndWait()");
            runner.cancelAllAndWait();
        }
        QVERIFY(returned.load());
        QTest::qWait(20);
        QVERIFY(!delivered);
    }

    // --- WorkerJob, JobRunner's one-job form ---------------------------------------------------------------------

    void aWorkerJobRunsOffThisThreadAndDeliversOnIt()
    {
        base::WorkerJob job(QStringLiteral("test worker"));
        std::thread::id workThread;
        QThread* deliveryThread = nullptr;
        int deliveries = 0;
        job.start([&] { workThread = std::this_thread::get_id(); },
                  [&] {
                      deliveryThread = QThread::currentThread();
                      ++deliveries;
                  });
        QVERIFY(job.isRunning());
        QTRY_COMPARE(deliveries, 1);
        QVERIFY(workThread != std::this_thread::get_id());
        QCOMPARE(deliveryThread, QThread::currentThread());
        QVERIFY(!job.isRunning());
        QTest::qWait(20);
        QCOMPARE(deliveries, 1); // once
    }

    void aCancelledWorkerJobStopsIsWaitedForAndNeverDelivers()
    {
        base::WorkerJob job(QStringLiteral("test worker"));
        std::atomic<bool> started{false};
        std::atomic<bool> returned{false};
        bool delivered = false;
        job.start(
            [&] {
                started = true;
                while (!job.cancelled())
                    std::this_thread::sleep_for(1ms);
                returned = true;
            },
            [&] { delivered = true; });
        QTRY_VERIFY(started.load());
        {
            const HangGuard guard("WorkerJob::cancel()");
            job.cancel();
        }
        QVERIFY(returned.load()); // cancel() waited for the work
        QVERIFY(!job.isRunning());
        QVERIFY(!job.cancelled()); // the next job starts with a clear flag
        QTest::qWait(20);
        QVERIFY(!delivered);
    }

    void aWorkerJobStartedAgainDeliversOnlyTheLastWork()
    {
        base::WorkerJob job(QStringLiteral("test worker"));
        std::vector<int> delivered;
        for (int i = 0; i < 5; ++i)
            job.start([] { std::this_thread::sleep_for(2ms); }, [&delivered, i] { delivered.push_back(i); });
        QTRY_VERIFY(!job.isRunning());
        QTest::qWait(20);
        QCOMPARE(delivered, std::vector<int>{4});
    }

    void aWorkerJobWhoseDeliveryIsQueuedIsDroppedOnCancel()
    {
        // The work is done and its delivery waits in the event queue: cancel() still drops it.
        base::WorkerJob job(QStringLiteral("test worker"));
        std::atomic<bool> returned{false};
        bool delivered = false;
        job.start([&] { returned = true; }, [&] { delivered = true; });
        while (!returned.load())
            std::this_thread::sleep_for(1ms);
        std::this_thread::sleep_for(10ms); // the work has returned; no event was processed
        job.cancel();
        QTest::qWait(20);
        QVERIFY(!delivered);
    }

    // A WorkerJob thread runs at background priority unless asked otherwise, for good.
    void aWorkerJobsThreadHasItsPriority()
    {
        errno = 0;
        const int before = getpriority(PRIO_PROCESS, 0);
        QCOMPARE(errno, 0);
        for (const base::Priority priority : {base::Priority::Background, base::Priority::Normal}) {
            base::WorkerJob job(QStringLiteral("test worker"), nullptr, priority);
            int nice = -100;
            bool done = false;
            job.start([&nice] { nice = getpriority(PRIO_PROCESS, 0); }, [&done] { done = true; });
            QTRY_VERIFY(done);
            QCOMPARE(nice, priority == base::Priority::Background ? std::max(before, 10) : before);
        }
        QCOMPARE(getpriority(PRIO_PROCESS, 0), before);
    }

    void aWorkerJobDeliversOnlyItsLastStartAndCancelWaits_data() { stressRows(); }
    // Each round starts the job `batch` times (each start cancels the one before and waits for it) and then lets the
    // last deliver, cancels it, or starts the next round over it, either at once or once its work has returned (its
    // delivery queued). At most one work runs at a time; only a round's last start may deliver, once; after cancel()
    // no work runs and nothing of it is delivered.
    void aWorkerJobDeliversOnlyItsLastStartAndCancelWaits()
    {
        QFETCH(int, batch);
        QFETCH(int, delayUs);
        QFETCH(int, iterations);
        base::WorkerJob job(QStringLiteral("stress worker"));
        std::atomic<int> running{0};
        std::atomic<int> overlaps{0};
        std::atomic<int> dirtyStarts{0}; // work that began with the cancel flag still set
        std::atomic<int> lastReturned{-1};
        std::vector<int> delivered;
        std::vector<int> mayDeliver;  // in order
        std::vector<int> mustDeliver; // in order
        int seq = 0;
        for (int round = 0; round < iterations; ++round) {
            const RoundEnd end = roundEnd(round);
            for (int i = 0; i < batch; ++i, ++seq) {
                job.start(
                    [&, delayUs, seq] {
                        if (running.fetch_add(1) != 0)
                            ++overlaps;
                        if (job.cancelled())
                            ++dirtyStarts;
                        for (int spent = 0; spent < delayUs && !job.cancelled(); spent += 10)
                            spend(10);
                        --running;
                        lastReturned = seq;
                    },
                    [&delivered, seq] { delivered.push_back(seq); });
            }
            const int last = seq - 1;
            const bool settled = settles(round) && end != RoundEnd::Delivered;
            if (settled) { // its work has returned, its delivery waits in the event queue
                while (lastReturned.load() < last)
                    std::this_thread::sleep_for(100us);
            }
            if (end == RoundEnd::Cancelled) {
                job.cancel();
                QCOMPARE(running.load(), 0); // waited for
                QVERIFY(!job.isRunning());
            } else if (end == RoundEnd::Delivered || !settled || round + 1 == iterations) {
                // An overlapped round's last start is superseded by the next round's first start: after its work
                // returned when the round settled, before or after otherwise; the last round's is not.
                mayDeliver.push_back(last);
                if (end == RoundEnd::Delivered || round + 1 == iterations)
                    mustDeliver.push_back(last);
                if (end == RoundEnd::Delivered)
                    QVERIFY(QTest::qWaitFor([&] { return !delivered.empty() && delivered.back() == last; }, 20000));
            }
        }
        QTRY_VERIFY_WITH_TIMEOUT(!job.isRunning(), 20000);
        QTest::qWait(5);
        QCOMPARE(overlaps.load(), 0);
        QCOMPARE(dirtyStarts.load(), 0);
        for (std::size_t i = 0; i < delivered.size(); ++i) {
            QVERIFY2(std::binary_search(mayDeliver.begin(), mayDeliver.end(), delivered[i]),
                     qPrintable(QStringLiteral("start %1 was stale").arg(delivered[i])));
            if (i > 0)
                QVERIFY(delivered[i - 1] < delivered[i]);
        }
        for (const int last : mustDeliver)
            QVERIFY2(std::binary_search(delivered.begin(), delivered.end(), last),
                     qPrintable(QStringLiteral("start %1 was lost").arg(last)));
        // The stop: the destructor cancels work that runs until it is told, promptly.
        auto blocking = std::make_unique<base::WorkerJob>(QStringLiteral("stress worker"));
        std::atomic<bool> blocked{false};
        blocking->start(
            [&blocked, job = blocking.get()] {
                blocked = true;
                while (!job->cancelled())
                    std::this_thread::sleep_for(1ms);
            },
            [] { QFAIL("delivered after its job was destroyed"); });
        while (!blocked)
            std::this_thread::sleep_for(1ms);
        QElapsedTimer stopping;
        stopping.start();
        {
            const HangGuard guard("a WorkerJob's destructor");
            blocking.reset();
        }
        QVERIFY2(stopping.elapsed() < PromptStopMs, qPrintable(QString::number(stopping.elapsed())));
        QTest::qWait(5);
    }

    // --- QueueThread ------------------------------------------------------------------------------------------------

    void aQueueThreadRunsEveryJobOnceInOrder_data() { stressRows(); }
    // Two producers (this thread and a side task) post `batch` jobs each per round; the queue runs each once, on one
    // thread that is neither, in each producer's order. The queue is then destroyed with a round still queued: its
    // destructor runs all of it (nothing dropped) and returns once it has.
    void aQueueThreadRunsEveryJobOnceInOrder()
    {
        QFETCH(int, batch);
        QFETCH(int, delayUs);
        QFETCH(int, iterations);
        std::vector<int> ran[2]; // by producer; written by the queue's thread only, read after a fence or the join
        std::vector<std::thread::id> threads;
        auto queue = std::make_unique<base::QueueThread>(QStringLiteral("stress queue"));
        int posted[2] = {0, 0};
        const auto produce = [&](int producer) {
            for (int i = 0; i < batch; ++i) {
                queue->post([&, producer, seq = posted[producer]++, delayUs] {
                    spend(delayUs);
                    ran[producer].push_back(seq);
                    threads.push_back(std::this_thread::get_id());
                });
            }
        };
        for (int round = 0; round < iterations; ++round) {
            {
                base::SideTask other([&] { produce(1); });
                produce(0);
            }
            if (roundEnd(round) == RoundEnd::Delivered) { // a fence: everything posted before it has run
                std::promise<void> fence;
                queue->post([&fence] { fence.set_value(); });
                QVERIFY(fence.get_future().wait_for(20s) == std::future_status::ready);
                QCOMPARE(ran[0].size(), std::size_t(posted[0]));
                QCOMPARE(ran[1].size(), std::size_t(posted[1]));
            }
        }
        produce(0);
        produce(1);
        QElapsedTimer stopping;
        stopping.start();
        {
            const HangGuard guard("a QueueThread's destructor");
            queue.reset(); // runs what is queued, then joins
        }
        QVERIFY2(stopping.elapsed() < 5000 + qint64(8 * batch) * delayUs / 1000, // it drains: slow, never stuck
                 qPrintable(QString::number(stopping.elapsed())));
        for (int producer : {0, 1}) {
            QCOMPARE(ran[producer].size(), std::size_t(posted[producer])); // none lost, none twice
            for (std::size_t i = 0; i < ran[producer].size(); ++i)
                QCOMPARE(ran[producer][i], int(i)); // in order
        }
        QVERIFY(threads.front() != std::this_thread::get_id());
        QVERIFY(std::all_of(threads.begin(), threads.end(), [&](std::thread::id id) { return id == threads.front(); }));
    }

    // What is disposed of is freed on the queue's thread, at its priority, in the order given; the destructor waits
    // for all of it.
    void aQueueThreadDisposesOffThisThreadInOrderAndIsWaitedFor()
    {
        struct Tracked
        {
            std::vector<int>* order;
            int id;
            std::vector<std::thread::id>* threads;
            std::vector<int>* priorities;
            ~Tracked()
            {
                std::this_thread::sleep_for(2ms);
                order->push_back(id);
                threads->push_back(std::this_thread::get_id());
                priorities->push_back(getpriority(PRIO_PROCESS, 0));
            }
        };
        std::vector<int> order;
        std::vector<std::thread::id> threads;
        std::vector<int> priorities;
        {
            base::QueueThread disposal(QStringLiteral("test disposal"), base::Priority::Background);
            for (int i = 0; i < 20; ++i)
                disposal.dispose(std::unique_ptr<Tracked>(new Tracked{&order, i, &threads, &priorities}));
            disposal.dispose(std::unique_ptr<Tracked>()); // nothing: nothing to free
        }                                                 // waits
        QCOMPARE(order.size(), std::size_t(20));
        for (int i = 0; i < 20; ++i)
            QCOMPARE(order[std::size_t(i)], i);
        QVERIFY(threads.front() != std::this_thread::get_id());
        QVERIFY(std::all_of(threads.begin(), threads.end(), [&](std::thread::id id) { return id == threads.front(); }));
        QVERIFY(std::all_of(priorities.begin(), priorities.end(), [](int nice) { return nice >= 10; }));
    }

    // A queue that is never deleted (the page worker's, the spawner's) runs its jobs as any other.
    void aQueueThreadThatIsNeverDeletedRunsItsJobs()
    {
        static auto* const queue = new base::QueueThread(QStringLiteral("test queue")); // never deleted
        std::promise<std::thread::id> ran;
        queue->post([&ran] { ran.set_value(std::this_thread::get_id()); });
        std::future<std::thread::id> thread = ran.get_future();
        QVERIFY(thread.wait_for(5s) == std::future_status::ready);
        QVERIFY(thread.get() != std::this_thread::get_id());
    }

    // --- ServiceThread ----------------------------------------------------------------------------------------------

    void aServiceThreadStopsAtOnceAndWritesNothingAfter_data()
    {
        QTest::addColumn<int>("batch");      // services at once
        QTest::addColumn<int>("delayMs");    // each one's wait between rounds
        QTest::addColumn<int>("iterations"); // start-and-stop cycles
        for (const int batch : {1, 4, 16})
            for (const int delayMs : {0, 2, 60'000})
                QTest::addRow("batch %d, %d ms, 6 cycles", batch, delayMs) << batch << delayMs << 6;
    }
    // Each service's loop appends 0, 1, 2, … to what it owns under its lock, waiting `delayMs` between rounds; the
    // owner takes what is there a few times meanwhile, as the live view does. stop() returns at once whatever the
    // wait; after it, nothing more is written; what was taken and what is left are 0, 1, 2, … (none lost, none twice,
    // in order).
    void aServiceThreadStopsAtOnceAndWritesNothingAfter()
    {
        QFETCH(int, batch);
        QFETCH(int, delayMs);
        QFETCH(int, iterations);
        struct Service
        {
            std::mutex mutex;
            std::vector<int> written; // under mutex
            std::vector<int> taken;   // the owner's
            std::unique_ptr<base::ServiceThread> thread;
        };
        for (int cycle = 0; cycle < iterations; ++cycle) {
            std::vector<Service> services(static_cast<std::size_t>(batch));
            for (Service& service : services) {
                service.thread = std::make_unique<base::ServiceThread>(QStringLiteral("stress service"));
                base::ServiceThread* thread = service.thread.get();
                service.thread->start([&service, thread, delayMs] {
                    int next = 0;
                    do {
                        const std::lock_guard lock(service.mutex);
                        service.written.push_back(next++);
                    } while (thread->waitFor(delayMs) && next < 1'000'000);
                });
            }
            for (int take = 0; take < 3; ++take) {
                std::this_thread::sleep_for(1ms);
                for (Service& service : services) {
                    const std::lock_guard lock(service.mutex);
                    service.taken.insert(service.taken.end(), service.written.begin(), service.written.end());
                    service.written.clear();
                }
            }
            QElapsedTimer stopping;
            stopping.start();
            if (cycle % 2 == 0) { // all asked at once, then waited for; or each stopped in turn
                for (Service& service : services)
                    service.thread->requestStop();
            }
            {
                const HangGuard guard("ServiceThread::stop()");
                for (Service& service : services)
                    service.thread->stop();
            }
            QVERIFY2(stopping.elapsed() < PromptStopMs, qPrintable(QString::number(stopping.elapsed())));
            for (Service& service : services) {
                std::size_t after = 0;
                {
                    const std::lock_guard lock(service.mutex);
                    after = service.written.size();
                }
                std::this_thread::sleep_for(delayMs == 0 ? 1ms : 3ms);
                const std::lock_guard lock(service.mutex);
                QCOMPARE(service.written.size(), after); // nothing written after stop()
                service.taken.insert(service.taken.end(), service.written.begin(), service.written.end());
                QVERIFY(!service.taken.empty()); // the loop ran before its first wait
                for (std::size_t i = 0; i < service.taken.size(); ++i)
                    QCOMPARE(service.taken[i], int(i));
                QVERIFY(service.thread->isStopRequested());
            }
        }
    }

    // A loop that ends by itself stops the service: whoever waits on it wakes at once.
    void aServiceWhoseLoopEndsWakesItsWaiters()
    {
        base::ServiceThread service(QStringLiteral("test service"));
        service.start([] { std::this_thread::sleep_for(20ms); });
        QElapsedTimer waited;
        waited.start();
        QVERIFY(!service.waitFor(60'000));
        QVERIFY2(waited.elapsed() < 20 + PromptStopMs, qPrintable(QString::number(waited.elapsed())));
        service.stop();
        service.stop(); // again: at once
    }

    // Its stop flag stops what takes a plain flag (a connection's blocked read) too; a stop flag of one's own wakes
    // its waiters from another thread and can be used again once reset.
    void aStopFlagWakesItsWaitersAtOnce()
    {
        base::StopFlag stop;
        QVERIFY(stop.waitFor(1)); // the time passed
        std::optional<base::SideTask> requester;
        requester.emplace([&stop] {
            std::this_thread::sleep_for(10ms);
            stop.request();
        });
        QElapsedTimer waited;
        waited.start();
        QVERIFY(!stop.waitFor(60'000));
        QVERIFY(waited.elapsed() < 10 + PromptStopMs);
        requester.reset();
        QVERIFY(stop.flag()->load());
        QVERIFY(!stop.waitFor(60'000)); // stays requested
        stop.reset();
        QVERIFY(!stop.isRequested());
        QVERIFY(stop.waitFor(1));
    }

    // --- SideTask, inTwoHalves, eachOnItsOwnThread --------------------------------------------------------------

    void aSideTaskRunsBesideTheCallerAndIsDoneAfterWait()
    {
        std::thread::id worker;
        std::vector<int> written;
        base::SideTask task([&] {
            std::this_thread::sleep_for(20ms); // still running when the caller asks
            worker = std::this_thread::get_id();
            written.assign(1000, 7);
        });
        QVERIFY(!task.isWaitedFor());
        task.wait();
        QVERIFY(task.isWaitedFor());
        QVERIFY(worker != std::this_thread::get_id());
        QCOMPARE(written.size(), std::size_t(1000));
        QCOMPARE(written.back(), 7);
        task.wait(); // again: at once
    }

    void aSideTaskLeftInScopeIsWaitedFor()
    {
        std::atomic<bool> finished = false;
        {
            base::SideTask task([&] {
                std::this_thread::sleep_for(30ms);
                finished = true;
            });
        }
        QVERIFY(finished);
    }

    void twoHalvesCoverEveryIndexOnceOnTwoThreads()
    {
        for (const std::size_t count : {0, 1, 2, 3, 1001}) {
            std::vector<std::atomic<int>> seen(count);
            std::mutex mutex;
            std::vector<std::thread::id> threads;
            base::inTwoHalves(count, [&](std::size_t from, std::size_t to) {
                {
                    const std::lock_guard lock(mutex);
                    threads.push_back(std::this_thread::get_id());
                }
                for (std::size_t i = from; i < to; ++i)
                    ++seen[i];
            });
            for (std::size_t i = 0; i < count; ++i)
                QCOMPARE(seen[i].load(), 1);
            QCOMPARE(threads.size(), std::size_t(2));
            QVERIFY(threads[0] != threads[1]);
        }
    }

    void forkJoinCoversEveryIndexOnceAndShowsItAfterTheWait_data() { stressRows(); }
    // inTwoHalves over `batch` × 16 indexes, eachOnItsOwnThread over `batch` tasks, and `batch` side tasks at once,
    // `iterations` times: each index written once (plain writes, read after the join), on more than one thread.
    void forkJoinCoversEveryIndexOnceAndShowsItAfterTheWait()
    {
        QFETCH(int, batch);
        QFETCH(int, delayUs);
        QFETCH(int, iterations);
        for (int round = 0; round < std::min(iterations, 20); ++round) {
            const std::size_t count = std::size_t(batch) * 16;
            std::vector<int> halves(count, 0);
            std::vector<std::thread::id> halfThreads(count);
            base::inTwoHalves(count, [&](std::size_t from, std::size_t to) {
                for (std::size_t i = from; i < to; ++i) {
                    ++halves[i];
                    halfThreads[i] = std::this_thread::get_id();
                }
                spend(delayUs);
            });
            for (std::size_t i = 0; i < count; ++i)
                QCOMPARE(halves[i], 1);
            QVERIFY(halfThreads.front() == std::this_thread::get_id());
            QVERIFY(halfThreads.back() != std::this_thread::get_id());

            std::vector<int> each(std::size_t(batch), 0);
            base::eachOnItsOwnThread(each.size(), [&](std::size_t i) {
                spend(delayUs);
                ++each[i];
            });
            QVERIFY(std::all_of(each.begin(), each.end(), [](int runs) { return runs == 1; }));

            std::vector<int> written(std::size_t(batch), 0);
            {
                std::vector<std::unique_ptr<base::SideTask>> tasks;
                for (int i = 0; i < batch; ++i) {
                    tasks.push_back(std::make_unique<base::SideTask>([&written, i, delayUs] {
                        spend(delayUs);
                        written[std::size_t(i)] = i + 1;
                    }));
                }
            } // each waited for
            for (int i = 0; i < batch; ++i)
                QCOMPARE(written[std::size_t(i)], i + 1);
        }
    }

    void eachTaskRunsOnceAndAllRunAtTheSameTime()
    {
        // Every task waits for all the others to have started: run one after another, none would see them all.
        constexpr std::size_t Count = 6;
        std::atomic<std::size_t> started = 0;
        std::vector<std::atomic<int>> runs(Count);
        std::vector<std::atomic<bool>> sawAll(Count);
        base::eachOnItsOwnThread(Count, [&](std::size_t i) {
            ++runs[i];
            ++started;
            const auto deadline = std::chrono::steady_clock::now() + 5s;
            while (started < Count && std::chrono::steady_clock::now() < deadline)
                std::this_thread::sleep_for(1ms);
            sawAll[i] = started == Count;
        });
        for (std::size_t i = 0; i < Count; ++i) {
            QCOMPARE(runs[i].load(), 1);
            QVERIFY(sawAll[i]);
        }
    }

    // The background priority is the calling thread's only: the GUI thread that starts a worker keeps its own.
    void backgroundPriorityIsPerThread()
    {
        errno = 0;
        const int before = getpriority(PRIO_PROCESS, 0);
        QCOMPARE(errno, 0);
        int worker = before;
        std::thread([&worker] {
            base::runAtBackgroundPriority();
            worker = getpriority(PRIO_PROCESS, 0);
        }).join();
        QCOMPARE(worker, std::max(before, 10));
        QCOMPARE(getpriority(PRIO_PROCESS, 0), before);
    }

    // --- SlicedJob and NextTurn ---------------------------------------------------------------------------------

    void aSlicedJobDoesEveryUnitOnceInOrder_data() { stressRows(); }
    // `iterations` jobs of `batch` × 64 units, each unit `delayUs`: a job let finish does every unit once, in order,
    // and its `finished` once; a job replaced (start() again) or cancelled mid-way has its step never called again and
    // its `finished` never.
    void aSlicedJobDoesEveryUnitOnceInOrder()
    {
        QFETCH(int, batch);
        QFETCH(int, delayUs);
        QFETCH(int, iterations);
        base::SlicedJob job(256, QStringLiteral("stress slices"));
        const std::size_t units = std::size_t(batch) * 64;
        const int rounds = std::min(iterations, 12);
        std::vector<int> finished(std::size_t(rounds), 0);        // by round: a dropped job's must stay 0
        std::vector<bool> doneAtOnce(std::size_t(rounds), false); // a small job, its first slice run by start()
        std::vector<std::shared_ptr<std::vector<std::size_t>>> done;
        int staleSteps = 0;
        int current = -1;
        for (int round = 0; round < rounds; ++round) {
            const RoundEnd end = roundEnd(round);
            done.push_back(std::make_shared<std::vector<std::size_t>>());
            current = round;
            job.start(
                [&, did = done.back(), round, delayUs, units](std::size_t count) {
                    if (round != current)
                        ++staleSteps;
                    for (std::size_t i = 0; i < count && did->size() < units; ++i) {
                        spend(delayUs / 64); // the unit's cost, kept small: a slice does many
                        did->push_back(did->size());
                    }
                    return did->size() == units;
                },
                [&finished, round] { ++finished[std::size_t(round)]; }, /*firstSliceNow=*/round % 2 == 1);
            doneAtOnce[std::size_t(round)] = !job.isRunning();
            if (end == RoundEnd::Delivered)
                QVERIFY(QTest::qWaitFor([&] { return !job.isRunning(); }, 20000));
            else if (end == RoundEnd::Cancelled)
                job.cancel();
            // Overlapped: the next start() replaces it, whatever it had done.
        }
        QTRY_VERIFY_WITH_TIMEOUT(!job.isRunning(), 20000);
        QTest::qWait(5);
        QCOMPARE(staleSteps, 0);
        for (int round = 0; round < rounds; ++round) {
            const bool letFinish = roundEnd(round) == RoundEnd::Delivered || round == rounds - 1;
            const std::vector<std::size_t>& did = *done[std::size_t(round)];
            QCOMPARE(finished[std::size_t(round)], letFinish || doneAtOnce[std::size_t(round)] ? 1 : 0);
            if (letFinish) {
                QCOMPARE(did.size(), units);
                for (std::size_t i = 0; i < units; ++i)
                    QCOMPARE(did[i], i); // every unit once, in order
            }
        }
    }

    void aNextTurnStepRunsOnceAfterTheCurrentEventUnlessCancelled()
    {
        base::NextTurn turn(QStringLiteral("test turn"));
        std::vector<int> ran;
        turn.post([&] { ran.push_back(1); });
        turn.post([&] { ran.push_back(2); }); // replaces the first
        QVERIFY(ran.empty());                 // not at once
        QVERIFY(turn.isPending());
        QTRY_COMPARE(ran, std::vector<int>{2});
        QVERIFY(!turn.isPending());
        turn.post([&] { ran.push_back(3); });
        turn.cancel();
        QTest::qWait(20);
        QCOMPARE(ran, std::vector<int>{2});
        int fixed = 0;
        turn.setStep([&] { ++fixed; });
        turn.post();
        turn.post(); // posted again before it ran: still once
        QTRY_COMPARE(fixed, 1);
        QTest::qWait(20);
        QCOMPARE(fixed, 1);
    }

    void aNextTurnRunsOnlyTheLastOfABatch_data() { stressRows(); }
    // `batch` posts a turn: only the last runs, once, and a cancelled turn's never.
    void aNextTurnRunsOnlyTheLastOfABatch()
    {
        QFETCH(int, batch);
        QFETCH(int, delayUs);
        QFETCH(int, iterations);
        base::NextTurn turn(QStringLiteral("stress turn"));
        std::vector<int> ran;
        std::vector<int> lasts;
        int seq = 0;
        for (int round = 0; round < std::min(iterations, 30); ++round) {
            for (int i = 0; i < batch; ++i, ++seq) {
                turn.post([&ran, seq, delayUs] {
                    spend(delayUs);
                    ran.push_back(seq);
                });
            }
            if (roundEnd(round) == RoundEnd::Cancelled) {
                turn.cancel();
            } else {
                lasts.push_back(seq - 1);
                QVERIFY(QTest::qWaitFor([&] { return !turn.isPending(); }, 5000));
            }
        }
        QTest::qWait(5);
        QCOMPARE(ran, lasts);
    }
};

QTEST_GUILESS_MAIN(TestBackground)
#include "tst_background.moc"
