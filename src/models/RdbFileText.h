#pragma once

#include "models/ServerStatusText.h"
#include "scan/ScanTypes.h"

#include <cstdint>
#include <vector>

namespace keylens::models {

// An RDB file at a glance, for the Server tab in place of INFO: the file (its format, its checksum, how far it was
// read), who saved it and when (the AUX fields), the used memory at save time beside the keys' estimated total, and
// the keys of each database. `summary` is the reading's (ScanSummary::rdbFacts); `nowSeconds` dates the save.
std::vector<StatusGroup> describeRdbFile(const scan::ScanSummary& summary, const ScannedTotals& scanned,
                                         std::int64_t nowSeconds);

// Which servers write an RDB version: "Redis 7.0".
QString rdbVersionWriters(int version, bool valkey);

} // namespace keylens::models
