// The client's CPU per key, without a server in the measurement: the demo keyspace (1M keys by default) is read once
// (SCAN and PTTL), then ingested into a fresh store again and again, alone and with the lint's per-key work (each new
// segment classified, the key-level rules, the findings recorded), interleaved; the median of --runs of each.
//
// bench_lint times the whole commands against a server that shares the machine's two cores, where a run's wall time
// swings by a quarter with what the machine does; this isolates what the lint adds per key, to tell a change to it
// apart from that noise. It has no floor of its own: bench_lint's is the one that counts.
//
//   build/bin/bench_key_checks [--keys N] [--runs R]
#include "BenchOptions.h"
#include "DemoServer.h"
#include "Median.h"
#include "keyspace/Keyspace.h"
#include "lint/Linter.h"
#include "lint/ProfileFile.h"
#include "lint/SegmentShapes.h"
#include "redis/Connection.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace keylens;

namespace {

struct ReadKey
{
    QByteArray key;
    keyspace::KeyInfo info;
};

// Every key of the server with its expiry, in SCAN's order (the order a scan ingests them in).
std::vector<ReadKey> readKeys(quint16 port)
{
    redis::ConnectionOptions options;
    options.port = port;
    auto opened = redis::Connection::open(options);
    if (!opened) {
        std::fprintf(stderr, "cannot connect to the demo server\n");
        return {};
    }
    redis::Connection& connection = **opened;
    const std::int64_t nowMs = QDateTime::currentMSecsSinceEpoch();
    std::vector<ReadKey> keys;
    QByteArray cursor = "0";
    do {
        const auto reply = connection.command({"SCAN", cursor, "COUNT", "1000"});
        if (!reply || !reply->isArray() || reply->size() != 2)
            return {};
        cursor = reply->at(0).bytes().toByteArray();
        const redis::ReplyView batch = reply->at(1);
        const std::size_t first = keys.size();
        for (std::size_t i = 0; i < batch.size(); ++i) {
            keys.push_back({batch.at(i).bytes().toByteArray(), {}});
            connection.append({"PTTL", keys.back().key});
        }
        for (std::size_t i = first; i < keys.size(); ++i) {
            const auto ttl = connection.read();
            if (ttl && ttl->isInteger() && ttl->integer() >= 0)
                keys[i].info.expiresAtMs = nowMs + ttl->integer();
            keys[i].info.type = keyspace::KeyType::String; // the key rules do not read the type
        }
    } while (cursor != "0");
    return keys;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList arguments = QCoreApplication::arguments();
    const std::uint64_t keyCount = std::max<std::uint64_t>(1000, numberOption(arguments, "--keys", 1'000'000));
    const int runs = int(std::max<std::uint64_t>(1, numberOption(arguments, "--runs", 5)));

    demo::RedisServerProcess server;
    if (!startDemoServer(server, keyCount))
        return 1;
    const std::vector<ReadKey> keys = readKeys(server.port());
    server.stop();
    if (keys.empty())
        return 1;
    QString problem;
    const std::optional<lint::Profile> profile = lint::loadProfile(QStringLiteral("default"), &problem);
    if (!profile) {
        std::fprintf(stderr, "%s\n", qPrintable(problem));
        return 1;
    }

    // One ingest of every key into a fresh store, with the lint's per-key work or without: its CPU time in ns per key.
    const auto ingest = [&](bool linting) {
        keyspace::Keyspace store(profile->delimiters);
        store.reserve(keys.size()); // as a scan does, from DBSIZE
        lint::Linter linter(*profile, 20);
        lint::SegmentShapes shapes;
        QElapsedTimer timer;
        timer.start();
        for (const ReadKey& read : keys) {
            keyspace::NodeId node = keyspace::InvalidNode;
            store.insert(read.key, read.info, &node);
            if (linting && node != keyspace::InvalidNode) {
                shapes.catchUp(store);
                linter.keyAdded(store, node, read.key, read.info, &shapes);
            }
        }
        return double(timer.nsecsElapsed()) / double(keys.size());
    };
    std::vector<double> alone, linted;
    for (int run = 0; run < runs; ++run) {
        alone.push_back(ingest(false));
        linted.push_back(ingest(true));
    }
    const double aloneNs = median(alone), lintedNs = median(linted);
    std::printf("%zu keys of the demo mix, ingested %d times each way (median):\n", keys.size(), runs);
    std::printf("  the store alone         %7.0f ns per key\n", aloneNs);
    std::printf("  with the key checks     %7.0f ns per key  (+%.0f ns, +%.0f%%)\n", lintedNs, lintedNs - aloneNs,
                (lintedNs / aloneNs - 1.0) * 100.0);
    return 0;
}
