#include "cli/ScanJob.h"

#include "cli/InterruptWatcher.h"
#include "cli/ProgressBar.h"
#include "judging/EndOfScan.h"
#include "scan/Ingest.h"
#include "scan/Scanner.h"

#include <QEventLoop>

#include <optional>

namespace keylens::cli {

ScanOutcome runScanJob(const scan::ScanOptions& options, keyspace::Keyspace& keyspace, InterruptWatcher* interrupts,
                       const scan::Ingest::KeyStored& keyStored,
                       const std::function<void(const redis::ServerInfo&)>& serverKnown)
{
    ScanOutcome outcome;
    scan::Scanner scanner;
    ProgressBar progressBar;
    QEventLoop loop;
    scan::Ingest ingest(keyspace);
    ingest.setKeyStored(keyStored);

    QObject::connect(&scanner, &scan::Scanner::serverInfoReady, &loop,
                     [&](std::uint64_t, const redis::ServerInfo& info) {
                         if (serverKnown)
                             serverKnown(info);
                         ingest.serverInfo(info, options);
                     });
    QObject::connect(&scanner, &scan::Scanner::batchReady, &loop,
                     [&](const scan::KeyBatch& batch) { ingest.add(batch); });
    QObject::connect(&scanner, &scan::Scanner::progressChanged, &loop,
                     [&](const scan::ScanProgress& progress) { progressBar.update(progress); });
    QObject::connect(&scanner, &scan::Scanner::finished, &loop, [&](const scan::ScanSummary& summary) {
        outcome.summary = summary;
        ingest.settle(outcome.summary);
        outcome.duplicates = ingest.duplicates();
        loop.quit();
    });
    std::optional<InterruptWatcher> ownWatcher;
    if (!interrupts)
        interrupts = &ownWatcher.emplace();
    const auto interrupt = [&] {
        outcome.interrupted = true;
        scanner.cancel();
    };
    interrupts->setOnInterrupt(interrupt);

    scanner.start(options);
    if (interrupts->hasFired())
        interrupt(); // Ctrl-C came before the scan: it ends at once, with what little it has
    loop.exec();
    interrupts->setOnInterrupt({}); // the callback refers to this frame
    progressBar.clear();
    // Not of a server that failed the scan: its connect timeout would hold the exit.
    if (!outcome.interrupted && !outcome.summary.error)
        outcome.librarySets = judging::readLibrarySets(options.connection, keyspace);
    return outcome;
}

} // namespace keylens::cli
