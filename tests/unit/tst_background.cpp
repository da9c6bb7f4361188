// base/: the one way background work is written. Each helper is checked for what its callers rely on: the work runs
// on another thread, everything it wrote is visible after the wait, nothing is run twice or skipped, and a queue
// keeps its order.
#include "base/QueueWorker.h"
#include "base/SideTask.h"

#include <QTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
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
        auto* worker = new base::QueueWorker; // never deleted, as its callers do
        std::vector<int> order;               // written by the worker only
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
};

QTEST_GUILESS_MAIN(TestBackground)
#include "tst_background.moc"
