#include "ScanHelper.h"

namespace keylens::test {

ScanResult scanInto(keyspace::Keyspace& keyspace, const scan::ScanOptions& options, int timeoutMs)
{
    scan::ScanHooks hooks;
    hooks.timeoutMs = timeoutMs;
    return scan::driveScan(options, keyspace, hooks);
}

} // namespace keylens::test
