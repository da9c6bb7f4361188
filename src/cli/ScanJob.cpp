#include "cli/ScanJob.h"

#include "cli/InterruptWatcher.h"
#include "cli/ProgressBar.h"
#include "inspect/EndOfScanReads.h"
#include "scan/ScanDriver.h"

#include <optional>

namespace keylens::cli {

ScanOutcome runScanJob(const scan::ScanOptions& options, keyspace::Keyspace& keyspace, InterruptWatcher* interrupts,
                       const scan::Ingest::KeyStored& keyStored,
                       const std::function<void(const redis::ServerInfo&)>& serverKnown, bool libraryCatalogue)
{
    ScanOutcome outcome;
    ProgressBar progressBar;
    std::optional<InterruptWatcher> ownWatcher;
    if (!interrupts)
        interrupts = &ownWatcher.emplace();
    scan::ScanHooks hooks;
    hooks.keyStored = keyStored;
    hooks.serverKnown = serverKnown;
    hooks.progress = [&](const scan::ScanProgress& progress) { progressBar.update(progress); };
    hooks.started = [&](const std::function<void()>& cancel) {
        const auto interrupt = [&outcome, cancel] {
            outcome.interrupted = true;
            cancel();
        };
        interrupts->setOnInterrupt(interrupt);
        if (interrupts->hasFired())
            interrupt(); // Ctrl-C came before the scan: it ends at once, with what little it has
    };
    const scan::DrivenScan scanned = scan::driveScan(options, keyspace, hooks);
    interrupts->setOnInterrupt({}); // the callback refers to the driver's frame
    progressBar.clear();
    outcome.summary = scanned.summary;
    outcome.duplicates = scanned.duplicates;
    // Not of a server that failed the scan: its connect timeout would hold the exit.
    if (!outcome.interrupted && !outcome.summary.error && options.rdbFile.isEmpty() && libraryCatalogue)
        outcome.librarySets = inspect::readLibrarySets(options.connection, keyspace, inspect::touchingFor(options));
    return outcome;
}

} // namespace keylens::cli
