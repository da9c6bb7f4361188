#pragma once

#include "history/Snapshot.h"

#include <QByteArrayView>
#include <QString>

#include <optional>

namespace keylens::history {

// A snapshot of what a `keylens-cli scan --format json` report says (schema 1): its namespaces to the report's own
// --depth and --width, its patterns when it listed them. `fallbackTimeMs` dates a report written before reports said
// when they were made (the file's time). Nothing, with `error` set, for a document that is not such a report.
std::optional<Snapshot> snapshotOfJsonReport(QByteArrayView json, std::int64_t fallbackTimeMs, QString* error);

} // namespace keylens::history
