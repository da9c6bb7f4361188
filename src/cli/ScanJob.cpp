#include "cli/ScanJob.h"

#include "cli/InterruptWatcher.h"
#include "cli/ProgressBar.h"
#include "scan/Ingest.h"
#include "scan/Scanner.h"

#include <QEventLoop>

namespace keylens::cli {

ScanOutcome runScanJob(const scan::ScanOptions& options, keyspace::Keyspace& keyspace)
{
    ScanOutcome outcome;
    scan::Scanner scanner;
    ProgressBar progressBar;
    QEventLoop loop;
    scan::Ingest ingest(keyspace);

    QObject::connect(&scanner, &scan::Scanner::serverInfoReady, &loop,
                     [&](std::uint64_t, const redis::ServerInfo& info) { ingest.serverInfo(info, options); });
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
    InterruptWatcher interrupts([&] {
        outcome.interrupted = true;
        scanner.cancel();
    });

    scanner.start(options);
    loop.exec();
    progressBar.clear();
    return outcome;
}

} // namespace keylens::cli
