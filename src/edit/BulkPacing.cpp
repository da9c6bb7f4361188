#include "edit/BulkPacing.h"

#include <algorithm>
#include <thread>

namespace keylens::edit {

namespace {
constexpr std::size_t FullBatch = 500;
constexpr std::size_t GentleBatch = 32;
constexpr std::chrono::milliseconds CancelSlice{50};
} // namespace

BulkPacing::BulkPacing(scan::ScanSpeed speed)
    : m_speed(speed)
{}

std::size_t BulkPacing::batchSize() const
{
    return m_speed == scan::ScanSpeed::Full ? FullBatch : GentleBatch;
}

void BulkPacing::roundStarted()
{
    m_roundStart = std::chrono::steady_clock::now();
}

bool BulkPacing::restAfterRound(std::size_t commands, const std::atomic<bool>* cancel)
{
    const auto cancelled = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
    if (m_speed == scan::ScanSpeed::Full)
        return !cancelled();
    const auto elapsed =
        std::chrono::duration_cast<scan::LatencyGuard::Duration>(std::chrono::steady_clock::now() - m_roundStart);
    auto rest = m_guard.afterRound(elapsed, std::max<std::size_t>(commands, 1));
    while (rest.count() > 0) {
        if (cancelled())
            return false;
        const auto slice = std::min<scan::LatencyGuard::Duration>(rest, CancelSlice);
        std::this_thread::sleep_for(slice);
        rest -= slice;
    }
    return !cancelled();
}

} // namespace keylens::edit
