#pragma once

#include "scan/KeyBatch.h"
#include "scan/ScanControl.h"
#include "scan/ScanTypes.h"

namespace keylens::scan {

// Where a scan's results go. Called on the scanning thread.
class ScanSink
{
public:
    virtual ~ScanSink() = default;
    virtual void serverInfo(const redis::ServerInfo& info) = 0;
    virtual void batch(KeyBatch&& batch) = 0;
    virtual void progress(const ScanProgress& progress) = 0;
    // Keys a cluster node redirected (MOVED, ASK) when asked about them: they moved to another shard mid-scan. A
    // cluster scan asks about them again there; a single-server scan never gets any.
    virtual void movedKeys(std::vector<QByteArray>&& keys) { Q_UNUSED(keys); }
};

// Scans the whole keyspace on the calling thread, blocking until done, cancelled or failed.
//
// SCAN walks the cursor; for every batch of keys one pipeline asks TYPE, PTTL and MEMORY USAGE per
// key. Two batches stay in flight: SCAN n+1 and batch n's questions are sent before batch n-1's
// answers are read, so the server never waits for us. Keys that vanished between SCAN and TYPE are
// counted, not stored. A denied or missing MEMORY command turns memory off with a notice instead of
// reporting zeros.
ScanSummary runScan(std::uint64_t jobId, const ScanOptions& options, ScanControl& control, ScanSink& sink);

} // namespace keylens::scan
