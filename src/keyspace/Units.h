#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <cstdint>
#include <optional>

namespace keylens::keyspace {

// Human units shared by the CLI report and the GUI. Binary prefixes for bytes ("1.5 MiB"),
// thousands separators for counts ("1,234,567"), and the largest two units for durations ("2h 5m").
QByteArray formatBytes(std::uint64_t bytes);
QByteArray formatCount(std::uint64_t count);
// A count with its noun: "1 key", "2,628 keys"; the noun takes an "s" unless `plural` is given ("1 match", "2
// matches").
QByteArray formatCounted(std::uint64_t count, QByteArrayView noun, QByteArrayView plural = {});
QByteArray formatDuration(std::int64_t milliseconds);
QByteArray formatPercent(double fraction); // 0.4567 -> "45.7%", tiny non-zero shares -> "<0.1%"
// One key's TTL as of `nowMs`: "no TTL", "not measured" (PTTL denied), "expired", or the time left.
QByteArray formatTimeLeft(std::int64_t expiresAtMs, std::int64_t nowMs);

// The memory of some keys, of which `unmeasured` were not measured (MEMORY USAGE denied, failed or not sampled):
// then the sum is a lower bound, and when no key was measured it is unknown, never zero.
struct MemoryFigure
{
    std::uint64_t bytes = 0;
    std::uint64_t keys = 0;
    std::uint64_t unmeasured = 0;

    bool known() const { return keys == 0 || unmeasured < keys; }
    bool atLeast() const { return unmeasured > 0 && unmeasured < keys; }
};
// "1.5 MiB", "≥ 1.5 MiB" for a lower bound, "n/a" for unknown.
QByteArray formatMemory(const MemoryFigure& figure);
// The figure of anything that sums keys: NamespaceStats, SubtreeTotals, a report's rows.
template<typename Sum> MemoryFigure memoryFigureOf(const Sum& sum)
{
    return {sum.memoryBytes, sum.keys, sum.keysMemoryUnmeasured};
}

} // namespace keylens::keyspace
