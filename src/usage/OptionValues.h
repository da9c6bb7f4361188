#pragma once

#include <QByteArrayView>
#include <QStringView>

#include <cstdint>
#include <limits>
#include <optional>

namespace keylens::usage {

// The values people type into options and dialogs, read one way everywhere: keylens-cli, keylens, and the
// window's dialogs (a TTL, a cold threshold, a size). Each returns nothing for text that is not such a value, and the
// caller names the option in its message; blanks around a value are ignored.

// A duration: "90" (seconds), "500ms", "90s", "15m", "2h", "7d", or sums such as "1h30m", in milliseconds. Nothing for
// a negative or overflowing value.
std::optional<std::int64_t> parseDuration(QByteArrayView text);

// A duration of at least a second, in whole seconds (idle times are whole seconds): --cold-after, Scan > Cold after…
std::optional<std::int64_t> parseWholeSeconds(QByteArrayView text);

// A size in bytes: "4096", "4096B", decimal "10KB", "10MB", "1GB" or binary "512KiB", "1.5MiB", "2GiB" (any case).
std::optional<std::uint64_t> parseByteSize(QStringView text);

// A whole number in [least, most]: keys, elements, a seed.
std::optional<std::uint64_t> parseCount(QStringView text, std::uint64_t least = 1,
                                        std::uint64_t most = std::numeric_limits<std::uint64_t>::max());

// A rate above zero (keys a second): "2000", "0.5".
std::optional<double> parseRate(QStringView text);

// --ttl-from: "saved" (the TTLs as of the file's save, true) or "now" (as of now, false).
std::optional<bool> parseTtlFromSave(QStringView text);

} // namespace keylens::usage
