#include "models/TimeSlice.h"

#include <limits>

namespace keylens::models {

namespace {

// GUI thread only, as every sliced job.
struct SliceTurns
{
    QElapsedTimer clock;
    qint64 lastEndNs = std::numeric_limits<qint64>::min() / 2;
    SliceTurns() { clock.start(); }
};

SliceTurns& turns()
{
    static SliceTurns instance;
    return instance;
}

} // namespace

bool mayStartSlice()
{
    return turns().clock.nsecsElapsed() - turns().lastEndNs >= BreathMs * 1'000'000;
}

void sliceEnded()
{
    turns().lastEndNs = turns().clock.nsecsElapsed();
}

} // namespace keylens::models
