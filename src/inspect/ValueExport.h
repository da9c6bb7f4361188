#pragma once

#include "redis/Connection.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <functional>
#include <optional>
#include <vector>

namespace keylens::inspect {

// Keys' values as JSON lines, one key per line:
//   {"key": B, "type": "hash", "ttl_ms": 5000 or null, "value": V}
// where B, a byte string, is a JSON string when it is valid UTF-8 and {"base64": "…"} otherwise, and V is B for a
// string, [B, …] for a list or set, [[field B, value B], …] for a hash, [[member B, score], …] for a sorted set
// (lowest score first), and [{"id": "…", "fields": [[B, B], …]}, …] for a stream. Collections are read a page at a
// time (HSCAN, SSCAN, ZRANGE, LRANGE, XRANGE), so no command blocks the server for long.
struct ValueExportSummary
{
    std::uint64_t written = 0;
    std::uint64_t gone = 0;   // expired or deleted before their turn
    std::uint64_t failed = 0; // denied, or of a type Keylens does not read
    QString firstProblem;
    bool cancelled = false;
};

// One key's line (without its newline), or nothing when the key is gone; an error for a failed connection; a denied
// read comes back as the error reply's text in `problem`, with nothing.
redis::Result<std::optional<QByteArray>> valueLine(redis::Connection& connection, const QByteArray& key,
                                                   QString* problem);

// Writes every key's line to `path` through a temporary file, which replaces `path` only once every line is written
// (a full disk, a lost connection or a cancel leaves no half file). `progress` hears the keys done so far.
redis::Result<ValueExportSummary> exportValues(redis::Connection& connection, const std::vector<QByteArray>& keys,
                                               const QString& path, const std::atomic<bool>* cancel = nullptr,
                                               const std::function<void(std::uint64_t)>& progress = {});

} // namespace keylens::inspect
