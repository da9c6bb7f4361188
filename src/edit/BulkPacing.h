#pragma once

#include "scan/LatencyGuard.h"
#include "scan/ScanSpeed.h"

#include <atomic>
#include <chrono>
#include <cstddef>

namespace keylens::edit {

// How fast a bulk action (or a restore) leans on the server, with the scan's own two speeds: full sends 500 keys'
// commands per round, back to back; gentle sends 32 and then rests as long as the round took, longer while the
// server answers slower than it did (scan::LatencyGuard), so other clients barely notice.
class BulkPacing
{
public:
    explicit BulkPacing(scan::ScanSpeed speed);

    std::size_t batchSize() const;
    void roundStarted();
    // Rests after a round of `commands` commands, in short slices so that a cancel is heard within 50 ms. Returns
    // false when cancelled.
    bool restAfterRound(std::size_t commands, const std::atomic<bool>* cancel);
    bool backingOff() const { return m_guard.backingOff(); }

private:
    scan::ScanSpeed m_speed;
    scan::LatencyGuard m_guard;
    std::chrono::steady_clock::time_point m_roundStart;
};

} // namespace keylens::edit
