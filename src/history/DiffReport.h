#pragma once

#include "history/SnapshotDiff.h"

#include <QByteArray>

#include <optional>

namespace keylens::history {

// What `keylens-cli diff` prints. `gate`, when set, adds which namespaces grew past it. `rows` caps the text's
// namespace and pattern lists (the JSON lists every change).
struct DiffReportOptions
{
    std::optional<GrowthGate> gate;
    std::size_t rows = 40;
    QByteArray beforeSource; // the file or server each side came from, for the header
    QByteArray afterSource;
};

// The `keylens-cli diff --format json` document, schema 1 (docs/snapshot-format.md): an interface, fields are added,
// never renamed or removed.
QByteArray diffToJson(const SnapshotDiff& diff, const DiffReportOptions& options);
QByteArray diffToText(const SnapshotDiff& diff, const DiffReportOptions& options);

// The namespaces (then patterns) that grew past the gate.
std::vector<const Change*> changesPastGate(const SnapshotDiff& diff, const GrowthGate& gate);

} // namespace keylens::history
