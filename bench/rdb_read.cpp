// Reading RDB files (issue 44): first a file holding one list of 1 GiB, made up as it is read (never on disk), to show
// that the reader's memory does not grow with a value; then a dump of the demo mix saved by the local redis-server,
// read by the parser alone and as a scan into a store (the floors, 150 MB/s and 1.5M keys/s, are the scan's: the keys
// in the store), with its RSS per key against the live scan's 124 bytes a key, and the store alone for those keys.
//
//   build/bin/bench_rdb [--keys N | --file DUMP.rdb] [--list-mib N] [--scan-only]
//
// --file reads a file already saved (yours, or one kept from a run) instead of starting a demo server; with
// --scan-only, only the scan into a store runs: what a profiler should see of it.
#include "BenchOptions.h"
#include "DemoServer.h"
#include "ProcessStats.h"
#include "keyspace/Keyspace.h"
#include "rdb/Crc64.h"
#include "rdb/RdbReader.h"
#include "redis/Connection.h"
#include "scan/Ingest.h"
#include "scan/KeyBatch.h"
#include "scan/ScanDriver.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QIODevice>

#include <cstdio>
#include <vector>

using namespace keylens;

namespace {

// An RDB file of one key, `list`, whose quicklist has as many 8 KiB listpack nodes as `mib` MiB take, produced as it
// is read: header, the nodes, EOF and a correct CRC-64.
class HugeListFile : public QIODevice
{
public:
    explicit HugeListFile(std::uint64_t mib)
    {
        // One listpack of 8,000-odd bytes: 120 strings of 60 bytes.
        QByteArray lp(6, '\0');
        for (int i = 0; i < 120; ++i) {
            lp += char(0x80 | 60);
            lp += QByteArray(60, char('a' + i % 26));
            lp += char(61); // back-length
        }
        lp += char(0xff);
        const auto total = std::uint32_t(lp.size());
        for (int i = 0; i < 4; ++i)
            lp[i] = char((total >> (8 * i)) & 0xff);
        lp[4] = char(120);
        lp[5] = 0;
        m_nodes = mib * 1024 * 1024 / std::uint64_t(lp.size());
        // A node: container 2 (packed), then the listpack as a string of 14-bit length.
        m_node = QByteArray(1, char(2)) + char(0x40 | (lp.size() >> 8)) + char(lp.size() & 0xff) + lp;
        m_head = QByteArray("REDIS0010") + char(0xfe) + char(0) + char(18) + char(4) + "list" + char(0x80);
        for (int shift = 24; shift >= 0; shift -= 8)
            m_head += char((m_nodes >> shift) & 0xff);
        open(QIODevice::ReadOnly);
    }
    bool isSequential() const override { return true; }
    std::uint64_t nodes() const { return m_nodes; }

protected:
    qint64 readData(char* data, qint64 maxSize) override
    {
        qint64 written = 0;
        while (written < maxSize) {
            if (m_piece.size() == m_at) {
                if (!nextPiece())
                    break;
            }
            const qint64 take = std::min<qint64>(maxSize - written, m_piece.size() - m_at);
            std::memcpy(data + written, m_piece.constData() + m_at, std::size_t(take));
            m_crc.update(m_piece.constData() + m_at, std::size_t(take));
            m_at += take;
            written += take;
        }
        return written;
    }
    qint64 writeData(const char*, qint64) override { return -1; }

private:
    bool nextPiece()
    {
        m_at = 0;
        if (!m_headDone) {
            m_piece = m_head;
            m_headDone = true;
        } else if (m_sent < m_nodes) {
            m_piece = m_node;
            ++m_sent;
        } else if (!m_eofDone) {
            m_piece = QByteArray(1, char(0xff));
            m_eofDone = true;
        } else if (!m_crcDone) {
            const std::uint64_t crc = m_crc.value(); // of every byte handed out before it
            m_piece.clear();
            for (int i = 0; i < 8; ++i)
                m_piece += char((crc >> (8 * i)) & 0xff);
            m_crcDone = true;
            return true;
        } else {
            return false;
        }
        return true;
    }

    QByteArray m_head;
    QByteArray m_node;
    QByteArray m_piece;
    qint64 m_at = 0;
    std::uint64_t m_nodes = 0;
    std::uint64_t m_sent = 0;
    bool m_headDone = false;
    bool m_eofDone = false;
    bool m_crcDone = false;
    rdb::Crc64 m_crc;
};

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList arguments = app.arguments();
    const std::uint64_t keys = numberOption(arguments, "--keys", 1'000'000);
    const std::uint64_t listMib = numberOption(arguments, "--list-mib", 1024);
    const bool scanOnly = arguments.contains(QLatin1String("--scan-only"));

    // First, while the process is small: its peak is then the reader's alone (after the stores below, freed memory
    // and an earlier peak would hide any growth).
    if (listMib > 0 && !scanOnly) {
        const long before = selfPeakRssKb();
        HugeListFile huge(listMib);
        rdb::RdbCallbacks callbacks;
        std::uint64_t elements = 0;
        callbacks.key = [&](const rdb::RdbKey& key) { elements = key.elements; };
        QElapsedTimer listClock;
        listClock.start();
        const rdb::RdbSummary summary = rdb::readRdb(huge, 0, callbacks);
        std::printf("One list of %llu MiB (%llu nodes, %llu elements) in %.2f s: peak RSS %+.1f MiB; %s\n",
                    static_cast<unsigned long long>(listMib), static_cast<unsigned long long>(huge.nodes()),
                    static_cast<unsigned long long>(elements), double(listClock.nsecsElapsed()) / 1e9,
                    double(selfPeakRssKb() - before) / 1024.0,
                    summary.complete ? "read to the end" : qPrintable(summary.error->message));
    }

    demo::RedisServerProcess server;
    QString path = optionValue(arguments, "--file");
    if (path.isEmpty()) {
        if (!startDemoServer(server, keys))
            return 1;
        auto connection = redis::Connection::open(server.connectionOptions());
        (*connection)->command({"SAVE"});
        const redis::Result<redis::Reply> dir = (*connection)->command({"CONFIG", "GET", "dir"});
        path = QString::fromUtf8(dir->at(1).bytes().toByteArray()) + QStringLiteral("/dump.rdb");
        std::printf("RDB of %llu demo keys saved by redis-server: ", static_cast<unsigned long long>(keys));
    } else if (!QFileInfo(path).isFile()) {
        std::fprintf(stderr, "bench_rdb: %s is not a file\n", qPrintable(path));
        return 2;
    } else {
        std::printf("RDB file %s: ", qPrintable(path));
    }
    const double fileMb = double(QFile(path).size()) / 1e6;
    std::printf("%.1f MB\n", fileMb);

    double best = 1e9;
    std::uint64_t read = 0;
    for (int run = 0; run < (scanOnly ? 0 : 3); ++run) {
        QFile file(path);
        file.open(QIODevice::ReadOnly);
        QElapsedTimer clock;
        clock.start();
        rdb::RdbCallbacks callbacks;
        read = 0;
        callbacks.key = [&](const rdb::RdbKey&) { ++read; };
        const rdb::RdbSummary summary = rdb::readRdb(file, 0, callbacks);
        const double seconds = double(clock.nsecsElapsed()) / 1e9;
        best = std::min(best, seconds);
        std::printf("  parser alone, run %d: %.3f s, %.0f MB/s, %.2fM keys/s%s\n", run + 1, seconds, fileMb / seconds,
                    double(read) / seconds / 1e6, summary.complete ? "" : " (INCOMPLETE)");
    }
    if (!scanOnly)
        std::printf("Parser: best %.0f MB/s (floor 150), %.2fM keys/s (floor 1.5)\n", fileMb / best,
                    double(read) / best / 1e6);

    // Three scans, each into a store of its own, as the parser's runs: the best is the figure (this machine's other
    // guests come and go). The RSS is the first store's, while it still holds its memory.
    double bestScan = 1e9;
    std::uint64_t stored = 0;
    double rssPerKey = 0;
    for (int run = 0; run < 3; ++run) {
        const long rssBefore = selfRssKb();
        keyspace::Keyspace store(keyspace::Delimiters(':'));
        scan::ScanOptions options;
        options.rdbFile = path;
        QElapsedTimer clock;
        clock.start();
        const scan::DrivenScan scanned = scan::driveScan(options, store);
        const double seconds = double(clock.nsecsElapsed()) / 1e9;
        stored = store.keyCount();
        if (run == 0)
            rssPerKey = double(selfRssKb() - rssBefore) * 1024.0 / double(std::max<std::uint64_t>(1, stored));
        bestScan = std::min(bestScan, seconds);
        std::printf("  as a scan into a store, run %d: %.3f s, %.0f MB/s, %.2fM keys/s%s\n", run + 1, seconds,
                    fileMb / seconds, double(stored) / seconds / 1e6, scanned.summary.complete ? "" : " (INCOMPLETE)");
    }
    std::printf("As a scan into a store: best %.0f MB/s (floor 150), %.2fM keys/s (floor 1.5); %llu keys stored; RSS "
                "+%.0f bytes per key (a live scan: 124)\n",
                fileMb / bestScan, double(stored) / bestScan / 1e6, static_cast<unsigned long long>(stored), rssPerKey);

    if (!scanOnly) {
        // The store alone, for the same keys: read into memory first, then inserted as the ingest does (a bound on
        // what the pipeline can reach, and the figure to profile when it does not).
        QFile file(path);
        file.open(QIODevice::ReadOnly);
        std::vector<scan::KeyBatch> batches(1);
        rdb::RdbCallbacks callbacks;
        callbacks.key = [&](const rdb::RdbKey& key) {
            keyspace::KeyInfo info;
            info.type = key.type;
            info.memoryBytes = key.estimatedMemory;
            info.memoryMeasured = true;
            if (batches.back().size() == 1024)
                batches.emplace_back();
            batches.back().add(key.key, info);
        };
        rdb::readRdb(file, 0, callbacks);
        keyspace::Keyspace alone(keyspace::Delimiters(':'));
        alone.reserve(std::size_t(read));
        scan::Ingest ingest(alone);
        QElapsedTimer storeClock;
        storeClock.start();
        for (const scan::KeyBatch& batch : batches)
            ingest.add(batch);
        const double storeSeconds = double(storeClock.nsecsElapsed()) / 1e9;
        std::printf("The store alone: %.3f s, %.2fM keys/s (%llu nodes)\n", storeSeconds,
                    double(alone.keyCount()) / storeSeconds / 1e6, static_cast<unsigned long long>(alone.nodeCount()));
    }

    return 0;
}
