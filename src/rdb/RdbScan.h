#pragma once

#include "keyspace/Keyspace.h"
#include "scan/ScanDriver.h"

namespace keylens::rdb {

// An RDB file read into `store` as a scan of its server would have filled it, through the one ingest path (so the
// rules, patterns, reports and snapshots work alike): `options.rdbFile` ("-": standard input), its database
// `options.connection.db`. Memory is estimated (MemoryModel); TTLs are as of the file's save or of now
// (`options.ttlFromSave`), and keys expired by then are counted apart. A damaged file leaves what came before in the
// store, with the error and its offset in the summary. The hooks are driveScan's.
scan::DrivenScan scanRdbFile(const scan::ScanOptions& options, keyspace::Keyspace& store,
                             const scan::ScanHooks& hooks = {});

} // namespace keylens::rdb
