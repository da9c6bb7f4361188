#pragma once

#include "keyspace/Keyspace.h"
#include "scan/Ingest.h"
#include "scan/ScanTypes.h"

#include <functional>

namespace keylens::scan {

// What a driven scan tells its caller as it goes; every hook is optional.
struct ScanHooks
{
    Ingest::KeyStored keyStored;                               // every key as it enters the store (the linter)
    std::function<void(const redis::ServerInfo&)> serverKnown; // the server, before the first key
    std::function<void(const ScanProgress&)> progress;
    // Once the scan started, with what cancels it (Ctrl-C); the function is valid until driveScan() returns.
    std::function<void(const std::function<void()>& cancel)> started;
    int timeoutMs = 0; // 0: none; else the driver gives up waiting (finished stays false)
};

struct DrivenScan
{
    ScanSummary summary;
    std::uint64_t duplicates = 0;
    std::uint64_t received = 0; // batch entries taken (stored and duplicates)
    std::uint64_t batches = 0;
    bool finished = false;
};

// Runs one scan to its end on a Scanner thread and ingests its batches into `store` on the calling thread, in a
// local event loop: the one scan driver of keylens-cli and the tests (the window ingests in slices through
// models::ScanSession instead, as its event loop must keep answering).
DrivenScan driveScan(const ScanOptions& options, keyspace::Keyspace& store, const ScanHooks& hooks = {});

} // namespace keylens::scan
