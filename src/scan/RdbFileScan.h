#pragma once

#include "scan/ScanControl.h"
#include "scan/ScanLoop.h"
#include "scan/ScanTypes.h"

namespace keylens::scan {

// An RDB file read as a scan of its server would have gone (ScanOptions::rdbFile, "-": standard input; its database
// options.connection.db), on the Scanner's worker like runScan(): the keys in batches through the sink, progress by
// the bytes read, pause and cancel between keys. Memory is estimated (rdb::memory); TTLs are as of the file's save or
// of now (options.ttlFromSave), and keys expired by then are counted apart, not stored. A damaged file ends the scan
// with the error and its offset, after the keys before it.
ScanSummary runRdbFileScan(std::uint64_t jobId, const ScanOptions& options, ScanControl& control, ScanSink& sink);

} // namespace keylens::scan
