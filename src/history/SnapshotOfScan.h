#pragma once

#include "history/Snapshot.h"
#include "report/ScanReport.h"

#include <atomic>
#include <optional>

namespace keylens::history {

// How much of the namespace tree a snapshot keeps. Every level's biggest namespaces, down to `depth`, at most `width`
// under one parent and `total` in all (the upper levels first); the rest are summed into their parent's Unlisted. A
// 10M-key keyspace's 1.3 million `user:<id>` namespaces are its patterns' business, not the snapshot's.
struct SnapshotLimits
{
    int depth = 4;
    int width = 500;
    // At the top, where a messy keyspace has thousands of one-key names (`1059:…`, ids without a prefix) and a new
    // namespace can only be told new when every top-level name was listed before.
    int topWidth = 10'000;
    std::size_t total = 50'000;
};

// The report options that list what a snapshot keeps: the namespaces to the limits, the patterns, no top keys.
report::ReportOptions snapshotReportOptions(const SnapshotLimits& limits = {});

// A snapshot straight from a finished scan's store, namespaces only (no patterns, no libraries): what the browser
// takes beside its end-of-scan rules. A set `cancel` stops it between two namespaces (nothing is returned then): a
// new scan must not wait for a walk over ten million keys.
std::optional<Snapshot> snapshotOfStore(const keyspace::Keyspace& store, const scan::ScanSummary& summary,
                                        std::int64_t takenAtMs, const std::atomic<bool>* cancel,
                                        const SnapshotLimits& limits = {});

// Adds the store's patterns to a snapshot of it (a pattern tree of the whole store: half a second at a million keys,
// so the browser does it after the scan has ended). False, and nothing added, when `cancel` stopped it.
bool addPatterns(Snapshot& snapshot, const keyspace::Keyspace& store, const std::atomic<bool>* cancel);

// Labels a snapshot of the store (snapshotOfStore) with the library layouts the linter recognised since: its
// namespaces' libraries and each library's totals, as a snapshot of a report has them. The patterns stay unlabelled.
void labelLibraries(Snapshot& snapshot, const keyspace::Keyspace& store, const lint::LibraryLayouts& libraries);

// A snapshot of what the report says (built with snapshotReportOptions(), or any options: it keeps what is there).
Snapshot snapshotOf(const report::ScanReport& report, const SnapshotLimits& limits = {});

} // namespace keylens::history
