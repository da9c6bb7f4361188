#pragma once

#include "keyspace/Keyspace.h"
#include "scan/ScanDriver.h"

namespace keylens::test {

using ScanResult = scan::DrivenScan;

// The applications' scan driver (scan::driveScan: the real Scanner on its thread, batches ingested on the calling
// thread), giving up after `timeoutMs`.
ScanResult scanInto(keyspace::Keyspace& keyspace, const scan::ScanOptions& options, int timeoutMs = 120000);

} // namespace keylens::test
