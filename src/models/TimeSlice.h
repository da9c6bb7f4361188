#pragma once

#include <QElapsedTimer>

#include <cstddef>

namespace keylens::models {

// How long the GUI thread spends on background work (ingest, verdicts, chart and top-key walks, treemap
// layout) per turn of the event loop: short enough that a 60 Hz window never waits for it.
inline constexpr qint64 SliceMs = 4;

// Calls step(units) until it returns true (the work is done) or a slice is spent; true when done.
template<typename Step> bool runForOneSlice(Step&& step, std::size_t units = 20'000)
{
    QElapsedTimer clock;
    clock.start();
    while (!step(units)) {
        if (clock.elapsed() >= SliceMs)
            return false; // the next turn of the event loop goes on
    }
    return true;
}

} // namespace keylens::models
