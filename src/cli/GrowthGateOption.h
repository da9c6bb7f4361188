#pragma once

#include "history/SnapshotDiff.h"

#include <QString>

#include <optional>

namespace keylens::cli {

// `diff --fail-on-growth PERCENT[:BYTES]` (50, 50%, 50:10MB, 0:1KiB), or nothing with `error` set.
std::optional<history::GrowthGate> parseGrowthGate(const QString& text, QString* error);

} // namespace keylens::cli
