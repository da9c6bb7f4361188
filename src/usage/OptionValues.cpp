#include "usage/OptionValues.h"

#include <QString>

#include <cmath>

namespace keylens::usage {

std::optional<std::int64_t> parseDuration(QByteArrayView text)
{
    text = text.trimmed();
    if (text.isEmpty())
        return std::nullopt;
    std::int64_t total = 0;
    qsizetype at = 0;
    constexpr std::int64_t Most = std::int64_t(1) << 52; // 142,000 years in ms: far beyond any TTL
    while (at < text.size()) {
        const qsizetype digits = at;
        std::int64_t number = 0;
        while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
            number = number * 10 + (text[at++] - '0');
            if (number > Most)
                return std::nullopt;
        }
        if (at == digits)
            return std::nullopt;
        const qsizetype unitStart = at;
        while (at < text.size() && text[at] >= 'a' && text[at] <= 'z')
            ++at;
        const QByteArrayView unit = text.sliced(unitStart, at - unitStart);
        std::int64_t scale = 0;
        if (unit.isEmpty() || unit == "s")
            scale = 1000;
        else if (unit == "ms")
            scale = 1;
        else if (unit == "m")
            scale = 60'000;
        else if (unit == "h")
            scale = 3'600'000;
        else if (unit == "d")
            scale = 86'400'000;
        else
            return std::nullopt;
        if (unit.isEmpty() && at < text.size())
            return std::nullopt; // a bare number is only allowed alone or last
        total += number * scale;
        if (total > Most)
            return std::nullopt;
    }
    return total;
}

std::optional<std::int64_t> parseWholeSeconds(QByteArrayView text)
{
    const std::optional<std::int64_t> ms = parseDuration(text);
    if (!ms || *ms < 1000)
        return std::nullopt;
    return *ms / 1000;
}

std::optional<std::uint64_t> parseByteSize(QStringView text)
{
    QString number = text.trimmed().toString().toUpper();
    std::uint64_t unit = 1;
    // Longest suffix first: "KIB" before "B".
    for (const auto& [suffix, size] : {std::pair{QStringLiteral("GIB"), 1ull << 30},
                                       {QStringLiteral("MIB"), 1ull << 20},
                                       {QStringLiteral("KIB"), 1ull << 10},
                                       {QStringLiteral("GB"), 1'000'000'000ull},
                                       {QStringLiteral("MB"), 1'000'000ull},
                                       {QStringLiteral("KB"), 1'000ull},
                                       {QStringLiteral("B"), 1ull}}) {
        if (number.endsWith(suffix)) {
            number.chop(suffix.size());
            unit = size;
            break;
        }
    }
    bool ok = false;
    const double value = number.trimmed().toDouble(&ok);
    const double bytes = value * double(unit);
    // Below 2^64 with room for the double's rounding; "1.5KB" is 1,500 bytes, a fraction of a byte is dropped.
    if (!ok || !std::isfinite(value) || value < 0 || bytes >= 1.8e19)
        return std::nullopt;
    return std::uint64_t(bytes);
}

std::optional<std::uint64_t> parseCount(QStringView text, std::uint64_t least, std::uint64_t most)
{
    bool ok = false;
    const std::uint64_t count = text.trimmed().toULongLong(&ok);
    if (!ok || count < least || count > most)
        return std::nullopt;
    return count;
}

std::optional<double> parseRate(QStringView text)
{
    bool ok = false;
    const double rate = text.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(rate) || rate <= 0)
        return std::nullopt;
    return rate;
}

std::optional<bool> parseTtlFromSave(QStringView text)
{
    if (text == QLatin1String("saved"))
        return true;
    if (text == QLatin1String("now"))
        return false;
    return std::nullopt;
}

} // namespace keylens::usage
