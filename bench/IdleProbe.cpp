#include "IdleProbe.h"

#include <algorithm>
#include <chrono>

namespace {

// A late wake-up worth keeping: below this, a wake-up is as punctual as the kernel's timers make it.
constexpr double KeptLateMs = 1.0;

} // namespace

IdleProbe::IdleProbe(const QElapsedTimer& clock)
    : m_clock(clock)
{}

IdleProbe::~IdleProbe()
{
    stop();
}

double IdleProbe::nowMs() const
{
    return double(m_clock.nsecsElapsed()) / 1e6;
}

void IdleProbe::start()
{
    stop();
    {
        const std::lock_guard lock(m_mutex);
        m_late.clear();
    }
    m_running = true;
    m_thread = std::thread([this] { run(); });
}

void IdleProbe::stop()
{
    m_running = false;
    if (m_thread.joinable())
        m_thread.join();
}

void IdleProbe::run()
{
    while (m_running) {
        const double before = nowMs();
        std::this_thread::sleep_for(std::chrono::milliseconds(IntervalMs));
        const double late = nowMs() - before - IntervalMs;
        if (late > KeptLateMs) {
            const std::lock_guard lock(m_mutex);
            m_late.push_back({before, late});
        }
    }
}

double IdleProbe::lateBetween(double fromMs, double toMs) const
{
    const std::lock_guard lock(m_mutex);
    double latest = 0;
    for (const Late& late : m_late) {
        const double wokeMs = late.fromMs + IntervalMs + late.lateMs;
        if (wokeMs > fromMs && late.fromMs < toMs)
            latest = std::max(latest, late.lateMs);
    }
    return latest;
}

double IdleProbe::longest() const
{
    const std::lock_guard lock(m_mutex);
    double longest = 0;
    for (const Late& late : m_late)
        longest = std::max(longest, late.lateMs);
    return longest;
}
