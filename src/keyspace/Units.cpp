#include "keyspace/Units.h"

#include "keyspace/NamespaceStats.h"

#include <array>
#include <cstdio>

namespace keylens::keyspace {

QByteArray formatBytes(std::uint64_t bytes)
{
    static constexpr std::array<const char*, 6> units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    if (bytes < 1024)
        return QByteArray::number(bytes).append(" B");
    double value = static_cast<double>(bytes);
    std::size_t unit = 0;
    while (value >= 1024.0 && unit + 1 < units.size()) {
        value /= 1024.0;
        ++unit;
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer,
                  value < 10    ? "%.2f %s"
                  : value < 100 ? "%.1f %s"
                                : "%.0f %s",
                  value, units[unit]);
    return buffer;
}

QByteArray formatCount(std::uint64_t count)
{
    QByteArray digits = QByteArray::number(count);
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, ',');
    return digits;
}

QByteArray formatCounted(std::uint64_t count, QByteArrayView noun, QByteArrayView plural)
{
    QByteArray text = formatCount(count).append(' ');
    if (count == 1)
        return text.append(noun);
    return plural.isNull() ? text.append(noun).append('s') : text.append(plural);
}

QByteArray formatDuration(std::int64_t milliseconds)
{
    if (milliseconds < 0)
        return QByteArray("-").append(formatDuration(-milliseconds));
    if (milliseconds < 1000)
        return QByteArray::number(milliseconds).append("ms");
    if (milliseconds < 10'000) {
        char buffer[16];
        std::snprintf(buffer, sizeof buffer, "%.1fs", static_cast<double>(milliseconds) / 1000.0);
        return buffer;
    }
    struct Unit
    {
        std::int64_t ms;
        const char* name;
    };
    static constexpr std::array<Unit, 4> units = {Unit{86'400'000, "d"}, Unit{3'600'000, "h"}, Unit{60'000, "m"},
                                                  Unit{1000, "s"}};
    for (std::size_t i = 0; i < units.size(); ++i) {
        if (milliseconds >= units[i].ms) {
            const std::int64_t major = milliseconds / units[i].ms;
            QByteArray out = QByteArray::number(major).append(units[i].name);
            if (i + 1 < units.size()) {
                const std::int64_t minor = (milliseconds % units[i].ms) / units[i + 1].ms;
                if (minor > 0)
                    out.append(' ').append(QByteArray::number(minor)).append(units[i + 1].name);
            }
            return out;
        }
    }
    return "0s";
}

QByteArray formatPercent(double fraction)
{
    if (fraction > 0 && fraction < 0.001)
        return "<0.1%";
    // 5,627 of 5,628 is not all of them: never round a part up to the whole.
    if (fraction < 1.0 && fraction > 0.999)
        return ">99.9%";
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "%.1f%%", fraction * 100.0);
    return buffer;
}

QByteArray formatTimeLeft(std::int64_t expiresAtMs, std::int64_t nowMs)
{
    if (expiresAtMs == ExpiryUnknown)
        return "not measured";
    if (!hasExpiry(expiresAtMs))
        return "no TTL";
    if (expiresAtMs <= nowMs)
        return "expired";
    return formatDuration(expiresAtMs - nowMs);
}

QByteArray formatMemory(const MemoryFigure& figure)
{
    if (!figure.known())
        return "n/a";
    if (figure.atLeast())
        return QByteArray("\u2265 ").append(formatBytes(figure.bytes)); // ≥: some keys were not measured
    return formatBytes(figure.bytes);
}

} // namespace keylens::keyspace
