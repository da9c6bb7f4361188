// Background slices on the GUI thread take turns (models/TimeSlice.h): a job whose turn comes right after
// another job's slice gives it back without working, and runs once the breath has passed. SlicedJob runs a job so.
#include "base/SlicedJob.h"
#include "base/TimeSlice.h"

#include <QElapsedTimer>
#include <QTest>
#include <QThread>

#include <vector>

using namespace keylens::base;

class TestTimeSlice : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void slicesTakeTurns()
    {
        QThread::msleep(2 * BreathMs); // whatever ran before
        int first = 0;
        // Started before the first slice ends: it measures at least the time since (see the last check).
        QElapsedTimer sinceBeforeFirst;
        sinceBeforeFirst.start();
        // Three quick steps fit in one slice: done.
        SliceUnits units(100);
        QVERIFY(runForOneSlice([&](std::size_t) { return ++first == 3; }, units));
        QCOMPARE(first, 3);
        // Right after it, a second job gets no turn and is not called; once the breath has passed, it runs.
        // (Measured from a little after the first slice ended, so a refusal must come within the breath.)
        QElapsedTimer sinceFirst;
        sinceFirst.start();
        int second = 0;
        int refusals = 0;
        qint64 firstCallNs = -1;
        for (;;) {
            const qint64 before = sinceFirst.nsecsElapsed();
            const bool ran = runForOneSlice([&](std::size_t) { return ++second > 0; }, units);
            if (firstCallNs < 0)
                firstCallNs = sinceBeforeFirst.nsecsElapsed(); // after the call: no less than its check saw
            if (ran)
                break;
            ++refusals;
            QCOMPARE(second, 0);
            QVERIFY2(before < BreathMs * 1'000'000, "refused after the breath");
            QVERIFY(sinceFirst.elapsed() < 1000);
        }
        QCOMPARE(second, 1);
        // Asked at once, it was refused at least once, unless the machine held this thread for the breath (the
        // clock started before the first slice ended: the time since that end was no more than it says).
        QVERIFY(refusals > 0 || firstCallNs >= BreathMs * 1'000'000);
    }

    // A slice stops at its budget and says so: it goes on only while its clock shows time left, and stops at the
    // first step that ends past the budget. Judged by what the steps saw, not by how long the slice took in all: a
    // loaded machine may hold this thread in any step, which makes the slice late but not wrong.
    void aSliceEndsAtItsBudget()
    {
        QThread::msleep(2 * BreathMs);
        QElapsedTimer clock;
        clock.start();
        // Started in the first step, after the slice's own clock: it shows no more time than the slice saw.
        QElapsedTimer sinceFirstStep;
        std::vector<qint64> stepEndsNs;
        SliceUnits units(100);
        QVERIFY(!runForOneSlice(
            [&](std::size_t) {
                if (!sinceFirstStep.isValid())
                    sinceFirstStep.start();
                QThread::usleep(500);
                stepEndsNs.push_back(sinceFirstStep.nsecsElapsed());
                return false;
            },
            units));
        QVERIFY(!stepEndsNs.empty());
        // More than one step fits in a slice, unless the machine held this thread past the budget in the first.
        QVERIFY(stepEndsNs.size() >= 2 || stepEndsNs.front() >= SliceMs * 1'000'000);
        // Every step but the last ended inside the budget (else the slice went on past it) ...
        for (std::size_t i = 0; i + 1 < stepEndsNs.size(); ++i)
            QVERIFY2(stepEndsNs[i] < SliceMs * 1'000'000, qPrintable(QStringLiteral("step %1 of %2 ended at %3 us")
                                                                         .arg(i + 1)
                                                                         .arg(stepEndsNs.size())
                                                                         .arg(stepEndsNs[i] / 1000)));
        // ... and the slice stopped only once the budget was spent (not done, so not for being done).
        QVERIFY(clock.elapsed() >= SliceMs);
    }

    // A step that overran its quarter of a slice shrinks the next in proportion, at once; quick steps grow it back by
    // doubling, never past the job's most, and never below one unit.
    void unitsFollowWhatAStepCost()
    {
        constexpr qint64 TargetNs = SliceMs * 1'000'000 / 4;
        SliceUnits units(1024);
        QCOMPARE(units.units(), std::size_t(1024));
        units.stepTook(1024, 100 * TargetNs); // a hundred times too long
        QVERIFY2(units.units() >= 9 && units.units() <= 11, qPrintable(QString::number(units.units())));
        units.stepTook(units.units(), TargetNs); // on target: kept
        QVERIFY(units.units() >= 9 && units.units() <= 11);
        std::size_t last = units.units();
        for (int i = 0; i < 20; ++i) {
            units.stepTook(units.units(), TargetNs / 10);
            QVERIFY(units.units() == std::min<std::size_t>(1024, last * 2));
            last = units.units();
        }
        QCOMPARE(units.units(), std::size_t(1024));
        units.stepTook(1024, 1'000'000 * TargetNs);
        QCOMPARE(units.units(), std::size_t(1));
        units.stepTook(1, 1'000 * TargetNs);
        QCOMPARE(units.units(), std::size_t(1));
    }

    // A job whose units turn a hundred times dearer than its most assumed (memory gone slow): one slice overruns, the
    // next ones end near their budget again. Judged by the steps' sizes and when they ended, not by the slices'
    // lengths, which a loaded machine stretches at will: after the overrun no step is asked for more units than take
    // a quarter of a slice, and a slice goes on only while its budget lasts.
    void aSlowJobsNextSlicesKeepTheirBudget()
    {
        constexpr qint64 UnitUs = 100; // 100 us a unit: the most is a 100 ms step
        constexpr std::size_t QuarterSliceUnits = SliceMs * 1000 / 4 / UnitUs;
        SliceUnits units(1000);
        QElapsedTimer sinceFirstStep; // started in a slice's first step: it shows no more time than the slice saw
        std::vector<std::size_t> counts;
        std::vector<qint64> stepEndsNs;
        const auto slowStep = [&](std::size_t count) {
            if (!sinceFirstStep.isValid())
                sinceFirstStep.start();
            QThread::usleep(static_cast<unsigned long>(count * UnitUs));
            counts.push_back(count);
            stepEndsNs.push_back(sinceFirstStep.nsecsElapsed());
            return false;
        };
        QThread::msleep(2 * BreathMs);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(!runForOneSlice(slowStep, units));
        QVERIFY(clock.elapsed() >= 100);
        QCOMPARE(counts, std::vector<std::size_t>{1000}); // one step, a hundred milliseconds: the overrun
        for (int slice = 0; slice < 3; ++slice) {
            QThread::msleep(2 * BreathMs);
            sinceFirstStep.invalidate();
            counts.clear();
            stepEndsNs.clear();
            QVERIFY(!runForOneSlice(slowStep, units));
            QVERIFY(!counts.empty());
            for (std::size_t i = 0; i < counts.size(); ++i) {
                QVERIFY2(counts[i] <= QuarterSliceUnits,
                         qPrintable(QStringLiteral("slice %1, step %2: %3 units").arg(slice).arg(i).arg(counts[i])));
                if (i + 1 < counts.size())
                    QVERIFY2(stepEndsNs[i] < SliceMs * 1'000'000,
                             qPrintable(
                                 QStringLiteral("slice %1 went on after %2 us").arg(slice).arg(stepEndsNs[i] / 1000)));
            }
        }
    }

    // A sliced job works across turns of the event loop, each slice near its budget, until its step is done; then
    // `finished` runs once, and may start the next job.
    void aSlicedJobRunsInSlicesUntilDone()
    {
        SlicedJob job(1'000, QStringLiteral("test slices"));
        std::size_t done = 0, calls = 0;
        constexpr std::size_t Work = 40'000; // 40 ms at 1 us a unit: several slices
        int finished = 0, nextFinished = 0;
        job.start(
            [&](std::size_t units) {
                ++calls;
                const std::size_t now = std::min(units, Work - done);
                QThread::usleep(static_cast<unsigned long>(now)); // 1 us a unit
                done += now;
                return done == Work;
            },
            [&] {
                ++finished;
                job.start([](std::size_t) { return true; }, [&] { ++nextFinished; });
            });
        QVERIFY(job.isRunning());
        QCOMPARE(done, std::size_t(0)); // nothing before the event loop turns, unless asked
        QVERIFY(QTest::qWaitFor([&] { return nextFinished == 1; }, 5'000));
        QCOMPARE(done, Work);
        QCOMPARE(finished, 1);
        QVERIFY(calls > 1);
        QVERIFY(!job.isRunning());
        QTest::qWait(20);
        QCOMPARE(finished, 1); // once
    }

    // A small job asked for its first slice at once is done before start() returns, whatever ran just before; a
    // cancelled or replaced job's step is not called again and its `finished` never.
    void aSlicedJobCancelsAndReplaces()
    {
        SlicedJob job(100, QStringLiteral("test slices"));
        bool smallDone = false;
        // Right after another job's slice: a first slice asked for now does not wait for its turn (the caller is no
        // slice; a Findings panel would show an empty list for a turn).
        SliceUnits other(1);
        QVERIFY(runSlice([](std::size_t) { return true; }, other));
        QVERIFY(!mayStartSlice());
        job.start([](std::size_t) { return true; }, [&] { smallDone = true; }, true);
        QVERIFY(smallDone);
        QVERIFY(!job.isRunning());

        int firstCalls = 0, firstFinished = 0, secondFinished = 0;
        job.start(
            [&](std::size_t) {
                ++firstCalls;
                return false; // never done by itself
            },
            [&] { ++firstFinished; });
        QVERIFY(QTest::qWaitFor([&] { return firstCalls > 0; }, 2'000));
        job.cancel();
        const int callsAtCancel = firstCalls;
        QTest::qWait(20);
        QCOMPARE(firstCalls, callsAtCancel);
        QVERIFY(!job.isRunning());

        job.start([&](std::size_t) { return ++firstCalls < 0; }, [&] { ++firstFinished; });
        job.start([](std::size_t) { return true; }, [&] { ++secondFinished; }); // replaces the running one
        QVERIFY(QTest::qWaitFor([&] { return secondFinished == 1; }, 2'000));
        QTest::qWait(20);
        QCOMPARE(firstFinished, 0);
        QCOMPARE(firstCalls, callsAtCancel); // the replaced job never ran
    }
};

QTEST_GUILESS_MAIN(TestTimeSlice)
#include "tst_timeslice.moc"
