#include "base/SlicedJob.h"

#include <utility>

namespace keylens::base {

SlicedJob::SlicedJob(std::size_t mostUnits, const QString& name, QObject* parent)
    : QObject(parent)
    , m_units(mostUnits)
{
    m_timer.setObjectName(name);
    m_timer.setInterval(0);
    connect(&m_timer, &QTimer::timeout, this, [this] { slice(false); });
}

void SlicedJob::start(Step step, std::function<void()> finished, bool firstSliceNow)
{
    cancel();
    m_step = std::move(step);
    m_finished = std::move(finished);
    if (firstSliceNow)
        slice(true);
    if (m_step)
        m_timer.start();
}

void SlicedJob::cancel()
{
    m_timer.stop();
    m_step = {};
    m_finished = {};
}

void SlicedJob::slice(bool now)
{
    if (!m_step)
        return;
    bool worked = false;
    const auto step = [this, &worked](std::size_t units) {
        worked = true;
        return m_step(units);
    };
    const bool done = now ? runSlice(step, m_units) : runForOneSlice(step, m_units);
    if (!done) {
        if (worked && m_between)
            m_between();
        return; // the timer goes on at the next turn of the event loop
    }
    m_timer.stop();
    // Taken out first: `finished` may start the next job on this object.
    m_step = {};
    const std::function<void()> finished = std::exchange(m_finished, {});
    if (finished)
        finished();
}

} // namespace keylens::base
