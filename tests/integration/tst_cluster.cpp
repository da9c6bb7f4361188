// A real Redis Cluster on loopback, scanned as one keyspace: merged figures against every node's own answers,
// shards in the JSON, replicas instead of primaries, a shard killed mid-scan, and reads that follow the slot.
#include "CliRunner.h"
#include "PlainClient.h"
#include "ScanHelper.h"
#include "demo/RedisCluster.h"
#include "redis/ClusterSlot.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

#include <csignal>
#include <map>

using namespace keylens;

namespace {

// Which port serves each slot, from CLUSTER SLOTS as a plain client reads it (flattened: start, end, ip, port, id
// per range when the cluster has no replicas).
std::vector<quint16> slotPorts(quint16 anyPort)
{
    test::PlainClient client(anyPort);
    const std::vector<QByteArray> flat = client.elements({"CLUSTER", "SLOTS"});
    std::vector<quint16> ports(redis::ClusterSlots, 0);
    for (std::size_t i = 0; i + 4 < flat.size(); i += 5) {
        for (int slot = flat[i].toInt(); slot <= flat[i + 1].toInt(); ++slot)
            ports[std::size_t(slot)] = quint16(flat[i + 3].toUInt());
    }
    return ports;
}

// The keys a node holds, by a plain SCAN.
std::vector<QByteArray> keysOf(quint16 port)
{
    test::PlainClient client(port);
    std::vector<QByteArray> keys;
    QByteArray cursor = "0";
    do {
        std::vector<QByteArray> reply = client.elements({"SCAN", cursor, "COUNT", "1000"});
        cursor = reply.front();
        keys.insert(keys.end(), reply.begin() + 1, reply.end());
    } while (cursor != "0");
    return keys;
}

struct NodeTruth
{
    long long keys = 0;
    long long memory = 0;
    QString slots; // "0-5460"
};

NodeTruth truthOf(quint16 port)
{
    NodeTruth truth;
    test::PlainClient client(port);
    truth.keys = client.integer({"DBSIZE"});
    std::vector<std::vector<QByteArray>> questions;
    for (const QByteArray& key : keysOf(port))
        questions.push_back({"MEMORY", "USAGE", key});
    for (long long bytes : client.pipelineIntegers(questions))
        truth.memory += bytes;
    return truth;
}

// Writes `commands` (each about the key in its second argument) to the node serving that key's slot.
void writeRouted(const std::vector<quint16>& ports, const std::vector<std::vector<QByteArray>>& commands)
{
    std::map<quint16, std::vector<std::vector<QByteArray>>> byPort;
    for (const auto& command : commands)
        byPort[ports[redis::clusterSlot(command[1])]].push_back(command);
    for (auto& [port, batch] : byPort) {
        test::PlainClient client(port);
        QCOMPARE(client.pipeline(batch), std::size_t(0));
    }
}

// A keyspace spread over all slots: plain keys, hash-tagged groups, binary names, every type, some TTLs.
std::vector<std::vector<QByteArray>> messyKeyspace(int users)
{
    std::vector<std::vector<QByteArray>> commands;
    QRandomGenerator random(7);
    for (int i = 0; i < users; ++i) {
        const QByteArray id = QByteArray::number(i);
        commands.push_back({"SET", "user:" + id, QByteArray(int(random.bounded(10, 200)), 'u')});
        if (i % 3 == 0)
            commands.push_back({"SET", "session:" + id, "s", "EX", "3600"});
        if (i % 10 == 0) {
            commands.push_back({"HSET", "{cart:" + id + "}:items", "sku", id, "qty", "2"});
            commands.push_back({"SET", "{cart:" + id + "}:total", id});
        }
        if (i % 50 == 0)
            commands.push_back({"RPUSH", "queue:jobs:" + id, "a", "b", "c"});
        if (i % 97 == 0) {
            std::vector<QByteArray> zadd = {"ZADD", "leaderboard:" + id};
            for (int m = 0; m < 300; ++m) {
                zadd.push_back(QByteArray::number(m));
                zadd.push_back("member" + QByteArray::number(m));
            }
            commands.push_back(zadd);
        }
        if (i % 200 == 0)
            commands.push_back({"SADD", QByteArray("bin:\xff\x00", 6) + id, "x"});
    }
    return commands;
}

QJsonObject parseJson(const QByteArray& bytes)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning() << error.errorString() << bytes.left(300);
    return document.object();
}

} // namespace

class TestCluster : public QObject
{
    Q_OBJECT

    demo::RedisCluster m_cluster;
    std::vector<quint16> m_ports; // by slot

    QString uri() const { return m_cluster.uri(); }

private Q_SLOTS:
    void initTestCase()
    {
        const redis::Status started = m_cluster.start();
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().message));
        m_ports = slotPorts(m_cluster.node(0).port());
        writeRouted(m_ports, messyKeyspace(12000));
    }
    void cleanupTestCase() { m_cluster.stop(); }

    void mergedFiguresEqualEveryNodesOwn()
    {
        // Through the second node: any node leads to the whole cluster.
        const test::CliRun run = test::runCli(
            {QStringLiteral("scan"), m_cluster.node(1).uri(), QStringLiteral("--format"), QStringLiteral("json"),
             QStringLiteral("--depth"), QStringLiteral("1"), QStringLiteral("--top"), QStringLiteral("5")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject report = parseJson(run.out);
        const QJsonArray shards = report.value(QStringLiteral("shards")).toArray();
        QCOMPARE(shards.size(), 3);
        long long keys = 0, memory = 0;
        QSet<int> portsSeen;
        for (const QJsonValue& value : shards) {
            const QJsonObject shard = value.toObject();
            const quint16 port = quint16(shard.value(QStringLiteral("address")).toString().section(u':', -1).toUInt());
            portsSeen.insert(port);
            const NodeTruth truth = truthOf(port);
            QVERIFY(truth.keys > 1000); // every shard holds a share
            QCOMPARE(shard.value(QStringLiteral("keys")).toInteger(), truth.keys);
            QCOMPARE(shard.value(QStringLiteral("memory_bytes")).toInteger(), truth.memory);
            QCOMPARE(shard.value(QStringLiteral("complete")).toBool(), true);
            // The slots it says it serves are the ones CLUSTER SLOTS gives that port.
            int first = -1, last = -1;
            for (int slot = 0; slot < int(redis::ClusterSlots); ++slot) {
                if (m_ports[std::size_t(slot)] == port) {
                    first = first < 0 ? slot : first;
                    last = slot;
                }
            }
            QCOMPARE(shard.value(QStringLiteral("slots")).toString(), QStringLiteral("%1-%2").arg(first).arg(last));
            keys += truth.keys;
            memory += truth.memory;
        }
        QCOMPARE(portsSeen.size(), 3);
        const QJsonObject totals = report.value(QStringLiteral("totals")).toObject();
        QCOMPARE(totals.value(QStringLiteral("keys")).toInteger(), keys);
        QCOMPARE(totals.value(QStringLiteral("memory_bytes")).toInteger(), memory);
        QCOMPARE(report.value(QStringLiteral("server")).toObject().value(QStringLiteral("dbsize")).toInteger(), keys);
        // The biggest keys carry their slot, as the server computes it.
        test::PlainClient client(m_cluster.node(0).port());
        const QJsonArray top = report.value(QStringLiteral("top_keys")).toArray();
        QCOMPARE(top.size(), 5);
        for (const QJsonValue& value : top) {
            const QJsonObject key = value.toObject();
            const QByteArray name = key.value(QStringLiteral("key")).toString().toUtf8();
            QCOMPARE(key.value(QStringLiteral("slot")).toInteger(), client.integer({"CLUSTER", "KEYSLOT", name}));
        }
    }

    void hashTaggedAndBinaryKeysAreAllThere()
    {
        keyspace::Keyspace store(':');
        scan::ScanOptions options;
        options.connection = m_cluster.connectionOptions();
        const test::ScanResult result = test::scanInto(store, options);
        QVERIFY(result.finished);
        QVERIFY(result.summary.complete);
        QCOMPARE(result.summary.shards.size(), std::size_t(3));
        QCOMPARE(result.duplicates, std::uint64_t(0));
        std::uint64_t perShard = 0;
        for (const scan::ShardScan& shard : result.summary.shards)
            perShard += shard.keys;
        QCOMPARE(perShard, store.keyCount());
        for (int i = 0; i < 12000; i += 10) {
            const QByteArray tag = "{cart:" + QByteArray::number(i) + "}";
            QVERIFY2(store.find(QByteArray(tag + ":items")) != keyspace::InvalidNode, tag.constData());
            QVERIFY(store.find(QByteArray(tag + ":total")) != keyspace::InvalidNode);
        }
        for (int i = 0; i < 12000; i += 200)
            QVERIFY(store.find(QByteArray(QByteArray("bin:\xff\x00", 6) + QByteArray::number(i))) !=
                    keyspace::InvalidNode);
    }

    void lintReportsTheShards()
    {
        const test::CliRun run =
            test::runCli({QStringLiteral("lint"), uri(), QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(run.exitCode == 0 || run.exitCode == 1, run.err.constData());
        const QJsonObject report = parseJson(run.out);
        long long keys = 0;
        for (int i = 0; i < 3; ++i)
            keys += test::PlainClient(m_cluster.node(std::size_t(i)).port()).integer({"DBSIZE"});
        QCOMPARE(report.value(QStringLiteral("keys_scanned")).toInteger(), keys);
        QCOMPARE(report.value(QStringLiteral("shards")).toArray().size(), 3);
    }

    void replicasInsteadOfPrimaries()
    {
        demo::RedisCluster cluster;
        demo::RedisCluster::Options options;
        options.replicasPerPrimary = 1;
        const redis::Status started = cluster.start(options);
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().message));
        std::vector<quint16> primaries;
        for (std::size_t i = 0; i < cluster.size(); ++i) {
            test::PlainClient client(cluster.node(i).port());
            if (client.elements({"ROLE"}).front() == "master")
                primaries.push_back(cluster.node(i).port());
        }
        QCOMPARE(primaries.size(), std::size_t(3));
        // Written through redis-cli's own cluster mode, which follows MOVED by itself.
        QProcess cli;
        cli.start(QStringLiteral("redis-cli"),
                  {QStringLiteral("-c"), QStringLiteral("-p"), QString::number(primaries.front())});
        QVERIFY(cli.waitForStarted());
        for (int i = 0; i < 3000; ++i)
            cli.write("SET item:" + QByteArray::number(i) + " v\n");
        cli.closeWriteChannel();
        QVERIFY(cli.waitForFinished(60000));
        long long total = 0;
        for (quint16 port : primaries) {
            test::PlainClient client(port);
            total += client.integer({"DBSIZE"});
            QCOMPARE(client.integer({"WAIT", "1", "5000"}), 1LL); // its replica has every write
            client.command({"CONFIG", "RESETSTAT"});
        }
        QCOMPARE(total, 3000LL);

        const test::CliRun run = test::runCli({QStringLiteral("scan"), cluster.uri(), QStringLiteral("--from-replicas"),
                                               QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject report = parseJson(run.out);
        QCOMPARE(report.value(QStringLiteral("totals")).toObject().value(QStringLiteral("keys")).toInteger(), 3000LL);
        const QJsonArray shards = report.value(QStringLiteral("shards")).toArray();
        QCOMPARE(shards.size(), 3);
        for (const QJsonValue& value : shards) {
            const QJsonObject shard = value.toObject();
            QVERIFY(shard.value(QStringLiteral("replica")).toBool());
            const quint16 port = quint16(shard.value(QStringLiteral("address")).toString().section(u':', -1).toUInt());
            QCOMPARE(test::PlainClient(port).elements({"ROLE"}).front(), QByteArray("slave"));
        }
        // The primaries were not asked about a single key.
        for (quint16 port : primaries) {
            test::PlainClient client(port);
            QCOMPARE(client.commandCalls("scan"), 0LL);
            QCOMPARE(client.commandCalls("type"), 0LL);
            QCOMPARE(client.commandCalls("memory|usage"), 0LL);
        }
    }

    void aShardKilledMidScanIsReportedAndTheRestScanned()
    {
        demo::RedisCluster cluster;
        demo::RedisCluster::Options options;
        options.nodeTimeoutMs = 60000; // the others keep serving while the dead node is not yet judged failed
        const redis::Status started = cluster.start(options);
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().message));
        const std::vector<quint16> ports = slotPorts(cluster.node(0).port());
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 0; i < 30000; ++i)
            commands.push_back({"SET", "k:" + QByteArray::number(i), "v"});
        writeRouted(ports, commands);

        QProcess process;
        // About 4 s per shard at 2,500 keys/s each: the kill lands mid-scan.
        test::startCli(process, {QStringLiteral("scan"), cluster.uri(), QStringLiteral("--format"),
                                 QStringLiteral("json"), QStringLiteral("--max-rate"), QStringLiteral("2500"),
                                 QStringLiteral("--reconnect"), QStringLiteral("1")});
        QTest::qWait(1500);
        const quint16 killedPort = cluster.node(1).port();
        QCOMPARE(::kill(pid_t(cluster.node(1).processId()), SIGKILL), 0);
        const test::CliRun run = test::finishCli(process);
        QCOMPARE(run.exitCode, 1); // a partial report
        QVERIFY2(run.err.contains(QByteArray::number(killedPort)), run.err.constData());
        const QJsonObject report = parseJson(run.out);
        QCOMPARE(report.value(QStringLiteral("scan")).toObject().value(QStringLiteral("complete")).toBool(), false);
        int failed = 0;
        for (const QJsonValue& value : report.value(QStringLiteral("shards")).toArray()) {
            const QJsonObject shard = value.toObject();
            const quint16 port = quint16(shard.value(QStringLiteral("address")).toString().section(u':', -1).toUInt());
            if (port == killedPort) {
                ++failed;
                QVERIFY(!shard.value(QStringLiteral("error")).isNull());
                QCOMPARE(shard.value(QStringLiteral("complete")).toBool(), false);
                QVERIFY(shard.value(QStringLiteral("keys")).toInteger() < 10000);
            } else {
                QVERIFY(shard.value(QStringLiteral("error")).isNull());
                QCOMPARE(shard.value(QStringLiteral("complete")).toBool(), true);
                QCOMPARE(shard.value(QStringLiteral("keys")).toInteger(), test::PlainClient(port).integer({"DBSIZE"}));
            }
        }
        QCOMPARE(failed, 1);
    }
};

QTEST_GUILESS_MAIN(TestCluster)
#include "tst_cluster.moc"
