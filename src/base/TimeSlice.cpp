#include "base/TimeSlice.h"

#include <algorithm>
#include <limits>

namespace keylens::base {

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

void SliceUnits::stepTook(std::size_t units, qint64 ns)
{
    constexpr qint64 TargetNs = SliceMs * 1'000'000 / 4;
    if (ns > 2 * TargetNs)
        m_units = std::max<std::size_t>(1, std::size_t(double(units) * double(TargetNs) / double(ns)));
    else if (ns < TargetNs / 2)
        m_units = std::min(m_most, m_units * 2);
}

} // namespace keylens::base
