#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <optional>

namespace keylens::history {

// One gzip stream (RFC 1952, as `gzip -dc` reads it) of a whole buffer: snapshots are a few MB at most, written and
// read in one piece.
QByteArray gzipBytes(QByteArrayView data);

// The contents of one gzip stream, or nothing with `error` set: damaged, cut short (no trailer), or with bytes after
// its end. The output never grows past `maximumBytes`: a length in a damaged file is not trusted (the one bounded
// inflate, inspect/Inflate.h).
std::optional<QByteArray> gunzipBytes(QByteArrayView data, qsizetype maximumBytes, QString* error);

} // namespace keylens::history
