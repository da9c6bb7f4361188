#pragma once

#include "history/Snapshot.h"

#include <QString>

#include <optional>

namespace keylens::history {

// A scan to compare with, from a file: a snapshot (docs/snapshot-format.md) or a JSON scan report (read as one, its
// time the file's when the report has none). Nothing, with `error` a sentence naming the file, when it is neither.
std::optional<Snapshot> readSnapshotOrReport(const QString& path, QString* error);

} // namespace keylens::history
