#pragma once

#include <QElapsedTimer>

#include <cstddef>

namespace keylens::base {

// How long the GUI thread spends on background work (ingest, verdicts, chart and top-key walks, treemap
// layout) per turn of the event loop: short enough that a 60 Hz window never waits for it.
inline constexpr qint64 SliceMs = 4;

// The slices of different jobs take turns. Qt fires every due timer in one turn of the event loop, so at the
// end of a scan four jobs of 4 ms each (pattern totals, top keys, the expiry timeline, a chart) held the GUI
// thread for 16 ms at a time, turn after turn, with no input or paint in between: 36-50 ms stalls. A slice
// starts only when the last one, of any job, ended at least BreathMs ago; a job that has to wait gives its
// turn back and is called again on the next one.
inline constexpr qint64 BreathMs = 1;
bool mayStartSlice();
void sliceEnded();

// How much of a job's work to do between two looks at the clock, learned from the job's own steps: as many units
// as take about a quarter of a slice, and never more than the job's `most`. Fixed counts were tuned by hand per job
// and broke where a unit cost more than they assumed: 4,096 pattern members a check made 27-31 ms slices at ten
// million keys, where a member's totals take 2 us, and on a guest whose memory access slowed (its kernel's DAMON
// at work) one check's 1,024 members took 100 ms. A step that overran shrinks the next at once; quick ones grow it
// back by doubling.
class SliceUnits
{
public:
    explicit SliceUnits(std::size_t most)
        : m_units(most)
        , m_most(most)
    {}
    std::size_t units() const { return m_units; }
    // A step of `units` took `ns`.
    void stepTook(std::size_t units, qint64 ns);

private:
    std::size_t m_units;
    std::size_t m_most;
};

// Calls step(units) until it returns true (the work is done) or a slice is spent; true when done. For a slice the
// caller must run now, whatever ran just before (the first of a job that a small store finishes at once).
template<typename Step> bool runSlice(Step&& step, SliceUnits& units)
{
    QElapsedTimer clock;
    clock.start();
    bool done = false;
    qint64 stepStartNs = 0;
    for (;;) {
        const std::size_t count = units.units();
        done = step(count);
        const qint64 nowNs = clock.nsecsElapsed();
        if (done)
            break;
        units.stepTook(count, nowNs - stepStartNs);
        stepStartNs = nowNs;
        if (nowNs >= SliceMs * 1'000'000)
            break; // the next turn of the event loop goes on
    }
    sliceEnded();
    return done;
}

// runSlice() when it is this job's turn; false without calling the step when another job's slice just ended.
template<typename Step> bool runForOneSlice(Step&& step, SliceUnits& units)
{
    return mayStartSlice() && runSlice(std::forward<Step>(step), units);
}

} // namespace keylens::base
