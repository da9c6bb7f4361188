#include "scan/LatencyGuard.h"

#include <algorithm>

namespace keylens::scan {

LatencyGuard::Duration LatencyGuard::afterRound(Duration elapsed, std::size_t commands)
{
    const double perCommand = double(elapsed.count()) / double(std::max<std::size_t>(commands, 1));
    if (m_baseline < 0)
        m_baseline = perCommand;
    const bool slow = perCommand > SlowFactor * m_baseline && elapsed >= SlowAtLeast;
    // Slow rounds move the average too, a little: a server that is simply farther away or busier for good becomes
    // the new normal instead of a permanent back-off.
    m_baseline += (slow ? 0.01 : 0.05) * (perCommand - m_baseline);
    if (slow)
        m_backoff = std::clamp(m_backoff * 2, FirstBackoff, MostBackoff);
    else
        m_backoff = m_backoff / 2 < FirstBackoff / 2 ? Duration(0) : m_backoff / 2;
    return elapsed + m_backoff;
}

} // namespace keylens::scan
