// Background slices on the GUI thread take turns (models/TimeSlice.h): a job whose turn comes right after
// another job's slice gives it back without working, and runs once the breath has passed.
#include "models/TimeSlice.h"

#include <QElapsedTimer>
#include <QTest>
#include <QThread>

using namespace keylens::models;

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
        QVERIFY(runForOneSlice([&](std::size_t) { return ++first == 3; }));
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
            const bool ran = runForOneSlice([&](std::size_t) { return ++second > 0; });
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

    // A slice stops at its budget and says so.
    void aSliceEndsAtItsBudget()
    {
        QThread::msleep(2 * BreathMs);
        QElapsedTimer clock;
        clock.start();
        std::size_t calls = 0;
        QVERIFY(!runForOneSlice([&](std::size_t) {
            ++calls;
            QThread::usleep(500);
            return false;
        }));
        QVERIFY(calls >= 2);
        QVERIFY(clock.elapsed() >= SliceMs);
        QVERIFY(clock.elapsed() < SliceMs + 50);
    }
};

QTEST_GUILESS_MAIN(TestTimeSlice)
#include "tst_timeslice.moc"
