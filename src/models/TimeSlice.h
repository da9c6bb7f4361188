#pragma once

#include <QElapsedTimer>

#include <cstddef>

namespace keylens::models {

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

// Calls step(units) until it returns true (the work is done) or a slice is spent; true when done. False
// without calling it when another job's slice just ended.
template<typename Step> bool runForOneSlice(Step&& step, std::size_t units = 20'000)
{
    if (!mayStartSlice())
        return false;
    QElapsedTimer clock;
    clock.start();
    bool done = false;
    while (!(done = step(units))) {
        if (clock.elapsed() >= SliceMs)
            break; // the next turn of the event loop goes on
    }
    sliceEnded();
    return done;
}

} // namespace keylens::models
