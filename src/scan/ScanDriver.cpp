#include "scan/ScanDriver.h"

#include "scan/Scanner.h"

#include <QEventLoop>
#include <QTimer>

namespace keylens::scan {

DrivenScan driveScan(const ScanOptions& options, keyspace::Keyspace& store, const ScanHooks& hooks)
{
    DrivenScan result;
    Scanner scanner;
    QEventLoop loop;
    Ingest ingest(store);
    ingest.setKeyStored(hooks.keyStored);
    QObject::connect(&scanner, &Scanner::serverInfoReady, &loop, [&](std::uint64_t, const redis::ServerInfo& info) {
        if (hooks.serverKnown)
            hooks.serverKnown(info);
        ingest.serverInfo(info, options);
    });
    QObject::connect(&scanner, &Scanner::batchReady, &loop, [&](const KeyBatch& batch) {
        ++result.batches;
        ingest.add(batch);
    });
    if (hooks.progress)
        QObject::connect(&scanner, &Scanner::progressChanged, &loop, hooks.progress);
    QObject::connect(&scanner, &Scanner::finished, &loop, [&](const ScanSummary& summary) {
        result.summary = summary;
        ingest.settle(result.summary);
        result.duplicates = ingest.duplicates();
        result.received = ingest.received();
        result.finished = true;
        loop.quit();
    });
    if (hooks.timeoutMs > 0)
        QTimer::singleShot(hooks.timeoutMs, &loop, &QEventLoop::quit);
    scanner.start(options);
    if (hooks.started)
        hooks.started([&scanner] { scanner.cancel(); });
    loop.exec();
    return result;
}

} // namespace keylens::scan
