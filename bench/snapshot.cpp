// Snapshots of a 1M-key scan (the demo mix): the time to build one from the store, to write and read its file, its
// size, and the time to compare two (after 10,000 keys were added and a namespace deleted between the scans). The
// floors: written in 200 ms, read in 200 ms, compared in 1 s.
//
//   build/bin/bench_snapshot [--keys N] [--runs R]
#include "BenchOptions.h"
#include "DemoServer.h"
#include "Median.h"
#include "cli/ScanJob.h"
#include "history/SnapshotDiff.h"
#include "history/SnapshotFile.h"
#include "history/SnapshotOfScan.h"
#include "redis/Connection.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace keylens;

namespace {

double millisecondsOf(const std::function<void()>& work)
{
    QElapsedTimer timer;
    timer.start();
    work();
    return double(timer.nsecsElapsed()) / 1e6;
}

// A scan of the server, as keylens-cli makes it, and the report a snapshot is taken from (`reportMs`: the time to
// build that report from the store: the namespaces to the snapshot's depth, the patterns).
std::optional<report::ScanReport> scanReport(quint16 port, keyspace::Keyspace& store, double* reportMs = nullptr)
{
    scan::ScanOptions options;
    options.connection.port = port;
    const cli::ScanOutcome outcome = cli::runScanJob(options, store);
    if (outcome.summary.error) {
        std::fprintf(stderr, "the scan failed: %s\n", qPrintable(outcome.summary.error->message));
        return std::nullopt;
    }
    std::optional<report::ScanReport> built;
    const double ms = millisecondsOf([&] {
        built = report::buildReport(store, outcome.summary, outcome.duplicates, history::snapshotReportOptions(),
                                    QDateTime::currentMSecsSinceEpoch(), outcome.librarySets);
    });
    if (reportMs) {
        *reportMs = ms;
        report::ReportOptions namespacesOnly = history::snapshotReportOptions();
        namespacesOnly.patterns = false;
        const double withoutPatterns = millisecondsOf([&] {
            report::buildReport(store, outcome.summary, outcome.duplicates, namespacesOnly,
                                QDateTime::currentMSecsSinceEpoch(), outcome.librarySets);
        });
        std::printf("the report without its patterns: %.1f ms\n", withoutPatterns);
    }
    return built;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList arguments = QCoreApplication::arguments();
    const std::uint64_t keys = std::max<std::uint64_t>(1000, numberOption(arguments, "--keys", 1'000'000));
    const int runs = int(std::max<std::uint64_t>(1, numberOption(arguments, "--runs", 5)));

    demo::RedisServerProcess server;
    if (!startDemoServer(server, keys))
        return 1;
    keyspace::Keyspace firstStore(keyspace::Delimiters(':'));
    double reportMs = 0;
    std::optional<report::ScanReport> first = scanReport(server.port(), firstStore, &reportMs);
    if (!first)
        return 1;
    std::vector<double> building, writing, reading;
    history::Snapshot before;
    for (int run = 0; run < runs; ++run)
        building.push_back(millisecondsOf([&] { before = history::snapshotOf(*first); }));

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("before.kls"));
    for (int run = 0; run < runs; ++run)
        writing.push_back(millisecondsOf([&] { history::writeSnapshotFile(path, before); }));
    const qint64 size = QFile(path).size();
    for (int run = 0; run < runs; ++run) {
        reading.push_back(millisecondsOf([&] {
            QFile file(path);
            file.open(QIODevice::ReadOnly);
            QString error;
            if (!history::decodeSnapshot(file.readAll(), &error))
                std::fprintf(stderr, "cannot read it back: %s\n", qPrintable(error));
        }));
    }

    // The second scan: 10,000 keys more in a namespace of their own, and the `session:` namespace gone.
    redis::ConnectionOptions options;
    options.port = server.port();
    auto opened = redis::Connection::open(options);
    if (!opened)
        return 1;
    redis::Connection& connection = **opened;
    for (int i = 0; i < 10000; ++i)
        connection.append({"SET", "bench:added:" + QByteArray::number(i), "x"});
    connection.append({"EVAL", "for _, k in ipairs(redis.call('KEYS', 'session:*')) do redis.call('DEL', k) end", "0"});
    for (int i = 0; i < 10001; ++i)
        connection.read();
    keyspace::Keyspace secondStore(keyspace::Delimiters(':'));
    std::optional<report::ScanReport> second = scanReport(server.port(), secondStore);
    if (!second)
        return 1;
    const history::Snapshot after = history::snapshotOf(*second);
    history::DiffOptions comparison;
    comparison.depth = 4;
    comparison.patterns = true;
    std::vector<double> comparing;
    std::size_t changed = 0;
    for (int run = 0; run < runs; ++run) {
        comparing.push_back(millisecondsOf([&] {
            const history::SnapshotDiff diff = history::diffSnapshots(before, after, comparison);
            changed = diff.namespaces.size() + diff.patterns.size();
        }));
    }

    std::printf("%llu keys of the demo mix; the snapshot lists %zu namespaces, %zu patterns\n",
                static_cast<unsigned long long>(first->totals.keys), before.namespaces.size(), before.patterns.size());
    std::printf("median of %d runs:\n", runs);
    std::printf("  the scan's report for it      %8.1f ms   (once: the store's namespaces and patterns)\n", reportMs);
    std::printf("  built from the report         %8.1f ms\n", median(building));
    std::printf("  written (encoded, gzip, file) %8.1f ms   (floor 200): %s\n", median(writing),
                median(writing) <= 200 ? "ok" : "FAIL");
    std::printf("  read (file, gunzip, decoded)  %8.1f ms   (floor 200): %s\n", median(reading),
                median(reading) <= 200 ? "ok" : "FAIL");
    std::printf("  compared with the next scan's %8.1f ms   (floor 1000): %s, %zu namespaces and patterns\n",
                median(comparing), median(comparing) <= 1000 ? "ok" : "FAIL", changed);
    std::printf("  file size                     %8.1f KiB (%.1f bytes per key)\n", double(size) / 1024.0,
                double(size) / double(first->totals.keys));
    return median(writing) <= 200 && median(reading) <= 200 && median(comparing) <= 1000 ? 0 : 1;
}
