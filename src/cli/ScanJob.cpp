#include "cli/ScanJob.h"

#include "cli/InterruptWatcher.h"
#include "cli/ProgressBar.h"
#include "scan/Scanner.h"

#include <QEventLoop>

namespace keylens::cli {

ScanOutcome runScanJob(const scan::ScanOptions& options, keyspace::Keyspace& keyspace)
{
    ScanOutcome outcome;
    scan::Scanner scanner;
    ProgressBar progressBar;
    QEventLoop loop;
    const bool wholeKeyspace = options.match.isEmpty() && options.type.isEmpty();

    QObject::connect(&scanner, &scan::Scanner::serverInfoReady, &loop,
                     [&](std::uint64_t, const redis::ServerInfo& info) {
                         // DBSIZE sizes the store up front, unless a filter makes it a gross overestimate.
                         if (wholeKeyspace && info.dbsize && *info.dbsize > 0)
                             keyspace.reserve(static_cast<std::size_t>(*info.dbsize));
                     });
    std::uint64_t received = 0;
    QObject::connect(&scanner, &scan::Scanner::batchReady, &loop, [&](const scan::KeyBatch& batch) {
        received += batch.size();
        for (std::size_t i = 0; i < batch.size(); ++i) {
            if (keyspace.insert(batch.key(i), batch.entries[i].info) == keyspace::Keyspace::Insert::Duplicate)
                ++outcome.duplicates;
        }
    });
    QObject::connect(&scanner, &scan::Scanner::progressChanged, &loop,
                     [&](const scan::ScanProgress& progress) { progressBar.update(progress); });
    QObject::connect(&scanner, &scan::Scanner::finished, &loop, [&](const scan::ScanSummary& summary) {
        outcome.summary = summary;
        outcome.summary.settleInFlight(received);
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
