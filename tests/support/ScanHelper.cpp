#include "ScanHelper.h"

#include "scan/Scanner.h"

#include <QEventLoop>
#include <QTimer>

namespace keylens::test {

ScanResult scanInto(keyspace::Keyspace& keyspace, const scan::ScanOptions& options, int timeoutMs)
{
    ScanResult result;
    scan::Scanner scanner;
    QEventLoop loop;
    QObject::connect(&scanner, &scan::Scanner::batchReady, &loop, [&](const scan::KeyBatch& batch) {
        ++result.batches;
        result.received += batch.size();
        for (std::size_t i = 0; i < batch.size(); ++i) {
            if (keyspace.insert(batch.key(i), batch.entries[i].info) == keyspace::Keyspace::Insert::Duplicate)
                ++result.duplicates;
        }
    });
    QObject::connect(&scanner, &scan::Scanner::finished, &loop, [&](const scan::ScanSummary& summary) {
        result.summary = summary;
        result.summary.settleInFlight(result.received);
        result.finished = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    scanner.start(options);
    loop.exec();
    return result;
}

} // namespace keylens::test
