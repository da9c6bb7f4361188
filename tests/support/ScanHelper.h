#pragma once

#include "keyspace/Keyspace.h"
#include "scan/ScanTypes.h"

namespace keylens::test {

struct ScanResult
{
    scan::ScanSummary summary;
    std::uint64_t duplicates = 0;
    std::uint64_t batches = 0;
    std::uint64_t received = 0; // batch entries taken (stored and duplicates)
    bool finished = false;
};

// Runs the real Scanner (worker thread, queued signals) and ingests its batches into `keyspace` on the
// calling thread, as the applications do. Gives up after `timeoutMs`.
ScanResult scanInto(keyspace::Keyspace& keyspace, const scan::ScanOptions& options, int timeoutMs = 120000);

} // namespace keylens::test
