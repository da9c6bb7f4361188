#pragma once

#include "keyspace/Keyspace.h"
#include "scan/ScanTypes.h"

namespace keylens::cli {

struct ScanOutcome
{
    scan::ScanSummary summary;
    std::uint64_t duplicates = 0;
    bool interrupted = false;
};

// Runs one scan to its end on a Scanner thread, ingesting its batches into `keyspace` on this thread,
// with a progress bar on a terminal and Ctrl-C turned into a cancel.
ScanOutcome runScanJob(const scan::ScanOptions& options, keyspace::Keyspace& keyspace);

} // namespace keylens::cli
