#include "ScanHelper.h"

#include "scan/Ingest.h"
#include "scan/Scanner.h"

#include <QEventLoop>
#include <QTimer>

namespace keylens::test {

ScanResult scanInto(keyspace::Keyspace& keyspace, const scan::ScanOptions& options, int timeoutMs)
{
    ScanResult result;
    scan::Scanner scanner;
    QEventLoop loop;
    scan::Ingest ingest(keyspace);
    QObject::connect(&scanner, &scan::Scanner::serverInfoReady, &loop,
                     [&](std::uint64_t, const redis::ServerInfo& info) { ingest.serverInfo(info, options); });
    QObject::connect(&scanner, &scan::Scanner::batchReady, &loop, [&](const scan::KeyBatch& batch) {
        ++result.batches;
        ingest.add(batch);
    });
    QObject::connect(&scanner, &scan::Scanner::finished, &loop, [&](const scan::ScanSummary& summary) {
        result.summary = summary;
        ingest.settle(result.summary);
        result.duplicates = ingest.duplicates();
        result.received = ingest.received();
        result.finished = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    scanner.start(options);
    loop.exec();
    return result;
}

} // namespace keylens::test
