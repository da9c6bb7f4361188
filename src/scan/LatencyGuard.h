#pragma once

#include <chrono>
#include <cstddef>

namespace keylens::scan {

// The gentle scan's watch on its own round trips: it learns how long a command usually takes (a slow moving average
// of the rounds that were not slow, per command), and when rounds get much slower than that (the server is busy, or
// in trouble, and other clients wait with us) it rests longer between rounds, doubling the rest while it stays slow
// and halving it as it recovers. A single slow round in a hundred is noise on a shared machine; a run of them is not.
class LatencyGuard
{
public:
    using Duration = std::chrono::microseconds;

    static constexpr double SlowFactor = 4.0;      // a round this many times the usual per command is slow...
    static constexpr Duration SlowAtLeast{2'000};  // ...when it took this long at least: loopback jitter is not trouble
    static constexpr Duration FirstBackoff{2'000}; // the first extra rest when the server slows
    static constexpr Duration MostBackoff{500'000};

    // A round of `commands` commands took `elapsed`, from sending to the last answer. Returns the rest before the
    // next round: as long as the round itself (the scan has the server at most half the time), plus the back-off.
    Duration afterRound(Duration elapsed, std::size_t commands);

    bool backingOff() const { return m_backoff.count() > 0; }
    Duration backoff() const { return m_backoff; }
    double baselineMicrosecondsPerCommand() const { return m_baseline; }

private:
    double m_baseline = -1; // µs per command, a moving average of the rounds that were not slow
    Duration m_backoff{0};
};

} // namespace keylens::scan
