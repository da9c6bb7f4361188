#pragma once

#include "history/Snapshot.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace keylens::history {

// The snapshot file format's version this build writes, and the newest it reads (docs/snapshot-format.md).
inline constexpr int SnapshotFormatVersion = 1;

// The file's bytes: one gzip stream.
QByteArray encodeSnapshot(const Snapshot& snapshot);

// A snapshot from a file's bytes, or nothing with `error` saying why in a sentence: empty, not a snapshot, written by
// a newer Keylens, damaged or cut short (with the offset in the uncompressed contents).
std::optional<Snapshot> decodeSnapshot(QByteArrayView bytes, QString* error);

// Whether the bytes start as a snapshot file does (a gzip stream): the other readable input is a JSON report.
bool looksLikeSnapshotFile(QByteArrayView bytes);

// Writes the file whole or not at all (QSaveFile: a reader never sees half of one). Returns an error sentence, or
// an empty string.
QString writeSnapshotFile(const QString& path, const Snapshot& snapshot);

} // namespace keylens::history
