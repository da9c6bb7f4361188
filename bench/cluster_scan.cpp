// A cluster scan against a single server holding the same keys: loads N keys (strings, hashes and lists under a few
// namespaces) into one private redis-server and into a private three-primary cluster, times `keylens-cli scan
// --format json` on each in the same run, and prints the rates and the speedup. A cluster scan runs one scan per
// shard at once, so it can use as many cores as there are shards: on a machine with fewer cores than shards (plus
// the client's), the speedup is bounded by the cores.
//
//   build/bin/bench_cluster_scan [--keys N] [--runs N]
#include "BenchOptions.h"
#include "ProcessStats.h"
#include "demo/RedisCluster.h"
#include "demo/RedisServerProcess.h"
#include "redis/ClusterSlot.h"
#include "redis/ClusterTopology.h"
#include "redis/Connection.h"

#include <QCoreApplication>
#include <QThread>

#include <cstdio>
#include <map>

using namespace keylens;

namespace {

std::vector<QByteArray> writeCommand(std::uint64_t i)
{
    const QByteArray id = QByteArray::number(qulonglong(i));
    switch (i % 4) {
    case 0:
        return {"HSET", "user:" + id + ":profile", "name", "n" + id, "email", id + "@example.com"};
    case 1:
        return {"SET", "session:" + id, QByteArray(60, 's')};
    case 2:
        return {"RPUSH", "queue:jobs:" + id, "a", "b"};
    default:
        return {"SET", "cache:page:" + id, QByteArray(200, 'c')};
    }
}

// Writes keys [0, count) through `connectionFor(key)`, pipelined per connection in chunks.
template<typename ConnectionFor> bool seed(std::uint64_t count, ConnectionFor&& connectionFor)
{
    std::map<redis::Connection*, std::size_t> pending;
    const auto drain = [&](redis::Connection* connection) {
        for (; pending[connection] > 0; --pending[connection]) {
            redis::Result<redis::Reply> reply = connection->read();
            if (!reply || reply->isError())
                return false;
        }
        return true;
    };
    for (std::uint64_t i = 0; i < count; ++i) {
        const std::vector<QByteArray> command = writeCommand(i);
        redis::Connection* connection = connectionFor(command[1]);
        connection->append(command);
        if (++pending[connection] >= 5000 && !drain(connection))
            return false;
    }
    for (auto& [connection, waiting] : pending) {
        if (!drain(connection))
            return false;
    }
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList arguments = app.arguments();
    const std::uint64_t keys = numberOption(arguments, "--keys", 1'000'000);
    const int runs = int(std::max<std::uint64_t>(1, numberOption(arguments, "--runs", 2)));

    demo::RedisServerProcess single;
    demo::RedisCluster cluster;
    if (!single.start() || !cluster.start()) {
        std::fprintf(stderr, "could not start the servers\n");
        return 1;
    }
    redis::ConnectionOptions singleOptions = single.connectionOptions();
    singleOptions.commandTimeoutMs = 120000;
    auto singleConnection = redis::Connection::open(singleOptions);
    if (!singleConnection || !seed(keys, [&](const QByteArray&) { return singleConnection->get(); })) {
        std::fprintf(stderr, "seeding the single server failed\n");
        return 1;
    }
    // The cluster: one connection per primary, each key to the primary serving its slot.
    auto seedConnection = redis::Connection::open(cluster.connectionOptions());
    redis::Result<redis::ClusterTopology> topology = redis::discoverCluster(**seedConnection);
    if (!topology) {
        std::fprintf(stderr, "%s\n", qPrintable(topology.error().message));
        return 1;
    }
    std::vector<std::unique_ptr<redis::Connection>> primaries;
    for (const redis::ClusterShard& shard : topology->shards) {
        redis::ConnectionOptions options = redis::nodeOptions(cluster.connectionOptions(), shard.primary);
        options.commandTimeoutMs = 120000;
        primaries.push_back(std::move(*redis::Connection::open(options)));
    }
    if (!seed(keys, [&](const QByteArray& key) {
            return primaries[std::size_t(topology->shardOfSlot(redis::clusterSlot(key)))].get();
        })) {
        std::fprintf(stderr, "seeding the cluster failed\n");
        return 1;
    }
    std::printf("%llu keys on one redis-server and on a %zu-primary cluster, loopback, %d cores\n",
                static_cast<unsigned long long>(keys), primaries.size(), QThread::idealThreadCount());

    double singleBest = 1e9, clusterBest = 1e9;
    for (int run = 0; run < runs; ++run) {
        const ProcessRun one =
            runMeasured(QStringLiteral(KEYLENS_CLI_PATH),
                        {QStringLiteral("scan"), single.uri(), QStringLiteral("--format"), QStringLiteral("json")});
        const ProcessRun many =
            runMeasured(QStringLiteral(KEYLENS_CLI_PATH),
                        {QStringLiteral("scan"), cluster.uri(), QStringLiteral("--format"), QStringLiteral("json")});
        std::printf("  run %d: single server %.2f s (exit %d), cluster %.2f s (exit %d)\n", run + 1, one.seconds,
                    one.exitCode, many.seconds, many.exitCode);
        singleBest = std::min(singleBest, one.seconds);
        clusterBest = std::min(clusterBest, many.seconds);
    }
    std::printf("\nsingle server: %.2f s, %.0f keys/s\ncluster:       %.2f s, %.0f keys/s\nspeedup:       %.2fx "
                "with %zu shards on %d cores\n",
                singleBest, double(keys) / singleBest, clusterBest, double(keys) / clusterBest,
                singleBest / clusterBest, primaries.size(), QThread::idealThreadCount());
    return 0;
}
