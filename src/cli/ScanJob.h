#pragma once

#include "keyspace/Keyspace.h"
#include "lint/LibraryLayouts.h"
#include "scan/Ingest.h"
#include "scan/ScanTypes.h"

#include <functional>

namespace keylens::cli {

struct ScanOutcome
{
    scan::ScanSummary summary;
    std::uint64_t duplicates = 0;
    bool interrupted = false;
    // What names and types cannot tell a library's layout by (lint::LibraryLayouts::keysToRead), read once
    // the keys are in; empty when there was nothing to read, or no answer.
    lint::SetMembers librarySets;
};

class InterruptWatcher;

// Runs one scan to its end on a Scanner thread, ingesting its batches into `keyspace` on this thread,
// with a progress bar on a terminal and Ctrl-C turned into a cancel. A command that watched for Ctrl-C
// before the scan passes its watcher, so that no signal falls between two watchers (it would kill us
// with the default action) and one that came before the scan cancels it at once.
// `keyStored` hears of every key as it enters the store (the linter), `serverKnown` of the server before the first.
// Without the library catalogue (--no-catalogue) no library's registries are read.
ScanOutcome runScanJob(const scan::ScanOptions& options, keyspace::Keyspace& keyspace,
                       InterruptWatcher* interrupts = nullptr, const scan::Ingest::KeyStored& keyStored = {},
                       const std::function<void(const redis::ServerInfo&)>& serverKnown = {},
                       bool libraryCatalogue = true);

} // namespace keylens::cli
