// base/: the one way background work is written. Each helper is checked for what its callers rely on: the work runs
// on another thread, everything it wrote is visible after the wait, nothing is run twice or skipped, and a queue
// keeps its order; a worker job delivers on the owner's thread only while current, and a next-turn step runs once.
#include "base/Disposal.h"
#include "base/NextTurn.h"
#include "base/QueueWorker.h"
#include "base/SideTask.h"
#include "base/ThreadPriority.h"
#include "base/WorkerJob.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <future>
#include <mutex>
#include <sys/resource.h>
#include <thread>
#include <vector>

using namespace keylens;
using namespace std::chrono_literals;

class TestBackground : public QObject
{
    Q_OBJECT

private Q_SLOTS:
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

    void aQueueWorkerRunsJobsInOrderOnOneOtherThread()
    {
        static auto* const worker = new base::QueueWorker; // never deleted, as its callers keep theirs
        std::vector<int> order;                            // written by the worker only
        std::vector<std::thread::id> threads;
        std::promise<void> done;
        for (int i = 0; i < 200; ++i) {
            worker->post([&, i] {
                order.push_back(i);
                threads.push_back(std::this_thread::get_id());
            });
        }
        worker->post([&] { done.set_value(); });
        QVERIFY(done.get_future().wait_for(5s) == std::future_status::ready);
        QCOMPARE(order.size(), std::size_t(200));
        for (int i = 0; i < 200; ++i)
            QCOMPARE(order[std::size_t(i)], i);
        QVERIFY(threads.front() != std::this_thread::get_id());
        QVERIFY(std::all_of(threads.begin(), threads.end(), [&](std::thread::id id) { return id == threads.front(); }));
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

    // What is disposed of is freed on one other thread, at background priority, in the order given; the disposal's
    // destructor waits for all of it.
    void aDisposalFreesOffThisThreadInOrderAndIsWaitedFor()
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
            base::Disposal disposal(QStringLiteral("test disposal"));
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
        job.cancel();
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
        // The work is done and its thread's finished signal waits in the event queue: cancel() still drops it.
        base::WorkerJob job(QStringLiteral("test worker"));
        std::atomic<bool> returned{false};
        bool delivered = false;
        job.start([&] { returned = true; }, [&] { delivered = true; });
        while (!returned.load())
            std::this_thread::sleep_for(1ms);
        std::this_thread::sleep_for(10ms); // the thread has ended; no event was processed
        job.cancel();
        QTest::qWait(20);
        QVERIFY(!delivered);
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
};

QTEST_GUILESS_MAIN(TestBackground)
#include "tst_background.moc"
