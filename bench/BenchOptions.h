#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>

// The benches' command lines: `--name value` pairs, read the same way by each program.

// The value after `name` (`--reference-cli /path`), or an empty string when the option is not given.
inline QString optionValue(const QStringList& arguments, const char* name)
{
    const qsizetype at = arguments.indexOf(QLatin1String(name));
    return at > 0 && at + 1 < arguments.size() ? arguments[at + 1] : QString();
}

// A number option (`--keys 1000000`), or `fallback` when it is not given; 0 when its value is not a number.
inline std::uint64_t numberOption(const QStringList& arguments, const char* name, std::uint64_t fallback)
{
    const qsizetype at = arguments.indexOf(QLatin1String(name));
    return at > 0 && at + 1 < arguments.size() ? arguments[at + 1].toULongLong() : fallback;
}
