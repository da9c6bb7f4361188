// A real Redis Cluster on loopback, scanned as one keyspace: merged figures against every node's own answers,
// shards in the JSON, replicas instead of primaries, a shard killed mid-scan, and reads that follow the slot.
#include "CliRunner.h"
#include "ClusterSlots.h"
#include "JsonReport.h"
#include "PlainClient.h"
#include "ScanHelper.h"
#include "demo/RedisCluster.h"
#include "demo/RedisServerProcess.h"
#include "inspect/KeyReader.h"
#include "models/ConsoleSession.h"
#include "redis/ClusterRoutes.h"
#include "redis/ClusterSlot.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <map>
#include <set>

using namespace keylens;
using test::parseJson;

namespace {

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

// Three primaries that judge a silent node failed within a second, holding `keys` small keys.
void startQuickToFail(demo::RedisCluster& cluster, int keys)
{
    demo::RedisCluster::Options options;
    options.nodeTimeoutMs = 1000;
    const redis::Status started = cluster.start(options);
    QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().message));
    std::vector<std::vector<QByteArray>> commands;
    for (int i = 0; i < keys; ++i)
        commands.push_back({"SET", "k:" + QByteArray::number(i), "v"});
    writeRouted(test::slotPorts(cluster.node(0).port()), commands);
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
        m_ports = test::slotPorts(m_cluster.node(0).port());
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

    // MEMORY USAGE's sampling on every shard (scan/MemorySampling.h): the sorted sets of 300 members, in skiplists, are
    // the keys the server samples; the scan counts no other, and --exact-memory gives what SAMPLES 0 says on each node.
    void sampledMemoryOnEveryShard()
    {
        long long skiplists = 0;
        long long whole = 0;
        for (int i = 0; i < 3; ++i) {
            test::PlainClient client(m_cluster.node(std::size_t(i)).port());
            std::vector<std::vector<QByteArray>> questions;
            for (const QByteArray& key : keysOf(m_cluster.node(std::size_t(i)).port())) {
                questions.push_back({"MEMORY", "USAGE", key, "SAMPLES", "0"});
                skiplists += client.command({"OBJECT", "ENCODING", key}) == "skiplist" ? 1 : 0;
            }
            for (long long bytes : client.pipelineIntegers(questions))
                whole += bytes;
        }
        QVERIFY(skiplists > 100);
        const auto scanned = [&](const QStringList& extra) {
            const test::CliRun run =
                test::runCli(QStringList{QStringLiteral("scan"), uri(), QStringLiteral("--format"),
                                         QStringLiteral("json"), QStringLiteral("--depth"), QStringLiteral("0")} +
                             extra);
            return parseJson(run.out).value(QStringLiteral("totals")).toObject();
        };
        const QJsonObject sampled = scanned({});
        const long long counted = sampled.value(QStringLiteral("keys_memory_sampled")).toInteger(-1);
        QVERIFY2(counted > 0 && counted <= skiplists, QByteArray::number(counted).constData());
        const QJsonObject exact = scanned({QStringLiteral("--exact-memory")});
        QCOMPARE(exact.value(QStringLiteral("memory_bytes")).toInteger(), whole);
        QCOMPARE(exact.value(QStringLiteral("keys_memory_sampled")).toInteger(-1), 0);
    }

    void clusterFlagsOnASingleServerSaySo()
    {
        demo::RedisServerProcess single;
        const redis::Status started = single.start();
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().message));
        test::PlainClient(single.port()).command({"SET", "k", "v"});
        for (const QString& flag : {QStringLiteral("-c"), QStringLiteral("--from-replicas")}) {
            const test::CliRun run = test::runCli(
                {QStringLiteral("scan"), single.uri(), flag, QStringLiteral("--format"), QStringLiteral("json")});
            QCOMPARE(run.exitCode, 0);
            const QJsonObject report = parseJson(run.out);
            QCOMPARE(report.value(QStringLiteral("shards")).toArray().size(), 0);
            QCOMPARE(report.value(QStringLiteral("totals")).toObject().value(QStringLiteral("keys")).toInteger(), 1);
            QVERIFY2(QJsonDocument(
                         report.value(QStringLiteral("scan")).toObject().value(QStringLiteral("notices")).toArray())
                         .toJson()
                         .contains(QByteArray("not in cluster mode (" + flag.toUtf8() + ")")),
                     run.out.constData());
        }
    }

    void aUserDeniedClusterScansTheNodeItReached()
    {
        // ACLs are per node: the same user on each, allowed every key and command but CLUSTER.
        const std::vector<QByteArray> user = {"ACL", "SETUSER", "nocluster", "on",      ">pw",
                                              "~*",  "&*",      "+@all",     "-cluster"};
        for (int node = 0; node < 3; ++node)
            test::PlainClient(m_cluster.node(node).port()).command(user);
        const quint16 port = m_cluster.node(2).port();
        const test::CliRun run =
            test::runCli({QStringLiteral("scan"), QStringLiteral("redis://nocluster:pw@127.0.0.1:%1").arg(port),
                          QStringLiteral("--format"), QStringLiteral("json")});
        for (int node = 0; node < 3; ++node)
            test::PlainClient(m_cluster.node(node).port()).command({"ACL", "DELUSER", "nocluster"});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject report = parseJson(run.out);
        // That node's keys, every one of them, and a notice that the others were not scanned.
        const NodeTruth truth = truthOf(port);
        QVERIFY(truth.keys > 1000);
        const QJsonObject totals = report.value(QStringLiteral("totals")).toObject();
        QCOMPARE(totals.value(QStringLiteral("keys")).toInteger(), truth.keys);
        QCOMPARE(totals.value(QStringLiteral("memory_bytes")).toInteger(), truth.memory);
        QCOMPARE(report.value(QStringLiteral("shards")).toArray().size(), 0);
        const QByteArray notices =
            QJsonDocument(report.value(QStringLiteral("scan")).toObject().value(QStringLiteral("notices")).toArray())
                .toJson();
        QVERIFY2(notices.contains("is denied for this user") && notices.contains("only this node's keys were scanned"),
                 notices.constData());
    }

    void maxRateIsForTheWholeCluster()
    {
        // Shared by the shards: three shards at the full rate each would take a third of the time.
        const test::CliRun run =
            test::runCli({QStringLiteral("scan"), uri(), QStringLiteral("--format"), QStringLiteral("json"),
                          QStringLiteral("--max-rate"), QStringLiteral("6000")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject report = parseJson(run.out);
        const double keys = report.value(QStringLiteral("totals")).toObject().value(QStringLiteral("keys")).toDouble();
        const double seconds =
            report.value(QStringLiteral("scan")).toObject().value(QStringLiteral("duration_ms")).toDouble() / 1000.0;
        QVERIFY2(keys / seconds <= 6000 * 1.15, qPrintable(QStringLiteral("%1 keys/s").arg(keys / seconds)));
    }

    void valueReadsGoWhereTheKeyLives()
    {
        redis::ConnectionOptions options = m_cluster.connectionOptions();
        options.cluster = std::make_shared<redis::ClusterRoutes>();
        redis::Result<std::unique_ptr<redis::Connection>> opened = redis::Connection::open(options);
        QVERIFY(opened);
        redis::Connection& connection = **opened;
        for (std::size_t node = 0; node < m_cluster.size(); ++node) {
            const quint16 port = m_cluster.node(node).port();
            // A hash of this node's: its overview and its first page, against the node's own answers.
            QByteArray key;
            for (const QByteArray& candidate : keysOf(port)) {
                if (candidate.startsWith("{cart:") && candidate.endsWith(":items")) {
                    key = candidate;
                    break;
                }
            }
            QVERIFY(!key.isEmpty());
            redis::Result<inspect::KeyOverview> overview = inspect::readKeyOverview(connection, key);
            QVERIFY2(overview, overview ? "" : qPrintable(overview.error().message));
            QVERIFY(overview->exists);
            QCOMPARE(overview->type, keyspace::KeyType::Hash);
            QCOMPARE(connection.options().port, port); // read on the node that serves it
            test::PlainClient truth(port);
            QCOMPARE(qlonglong(*overview->memoryBytes), truth.integer({"MEMORY", "USAGE", key}));
            redis::Result<inspect::ValuePage> page =
                inspect::readValuePage(connection, key, keyspace::KeyType::Hash, {}, {}, 100);
            QVERIFY(page);
            QCOMPARE(qsizetype(page->rows.size()), qsizetype(truth.integer({"HLEN", key})));
        }
    }

    void theConsoleFollowsMovedToTheKeysNode()
    {
        // One key on each shard, each read through a console connected to node 0, as redis-cli -c would: it hops
        // to the key's node when the key is elsewhere, and stays there.
        models::ConsoleSession console;
        redis::ConnectionOptions options = m_cluster.connectionOptions();
        options.port = m_cluster.node(0).port();
        options.cluster = std::make_shared<redis::ClusterRoutes>();
        console.setConnection(options);
        std::optional<models::ConsoleSession::Result> last;
        connect(&console, &models::ConsoleSession::replied, this,
                [&](const models::ConsoleSession::Result& result) { last = result; });
        quint16 current = m_cluster.node(0).port();
        std::set<quint16> shardsRead;
        for (int i = 0; shardsRead.size() < 3; ++i) {
            const QByteArray key = "user:" + QByteArray::number(i);
            const quint16 port = m_ports[redis::clusterSlot(key)];
            if (port == current && !shardsRead.empty())
                continue; // a key of the node the console is on: no hop to see
            shardsRead.insert(port);
            last.reset();
            console.run({"GET", key});
            QTRY_VERIFY_WITH_TIMEOUT(last.has_value(), 10000);
            QCOMPARE(last->reply.kind, models::ReplyNode::Kind::String);
            QCOMPARE(last->reply.bytes, test::PlainClient(port).command({"GET", key}));
            QCOMPARE(last->redirects.size(), port == current ? 0 : 1);
            if (port != current)
                QVERIFY2(last->redirects.front().contains(QStringLiteral(":%1").arg(port)),
                         qPrintable(last->redirects.front()));
            current = port;
        }
        QCOMPARE(shardsRead.size(), std::size_t(3));
    }

    void readsFollowAskAndMovedWhileASlotMigrates()
    {
        redis::ConnectionOptions options = m_cluster.connectionOptions();
        options.cluster = std::make_shared<redis::ClusterRoutes>();
        redis::Result<std::unique_ptr<redis::Connection>> opened = redis::Connection::open(options);
        QVERIFY(opened);
        redis::Connection& connection = **opened;

        const QByteArray key = "user:4242";
        const int slot = redis::clusterSlot(key);
        const quint16 from = m_ports[std::size_t(slot)];
        quint16 to = 0;
        for (std::size_t node = 0; node < m_cluster.size() && !to; ++node)
            to = m_cluster.node(node).port() != from ? m_cluster.node(node).port() : 0;
        test::PlainClient source(from), target(to);
        const QByteArray value = source.command({"GET", key});
        QVERIFY(!value.isEmpty());
        QVERIFY(inspect::readKeyOverview(connection, key)); // the routes now know the slot is `from`'s
        QCOMPARE(connection.options().port, from);

        // Half-way: the slot is migrating and the key has moved, so `from` answers ASK.
        const QByteArray fromId = source.command({"CLUSTER", "MYID"});
        const QByteArray toId = target.command({"CLUSTER", "MYID"});
        QCOMPARE(target.command({"CLUSTER", "SETSLOT", QByteArray::number(slot), "IMPORTING", fromId}),
                 QByteArray("OK"));
        QCOMPARE(source.command({"CLUSTER", "SETSLOT", QByteArray::number(slot), "MIGRATING", toId}), QByteArray("OK"));
        QCOMPARE(source.command({"MIGRATE", "127.0.0.1", QByteArray::number(to), key, "0", "5000"}), QByteArray("OK"));
        QVERIFY(source.command({"GET", key}).startsWith("ASK "));
        redis::Result<inspect::KeyOverview> asked = inspect::readKeyOverview(connection, key);
        QVERIFY2(asked, asked ? "" : qPrintable(asked.error().message));
        QVERIFY(asked->exists);
        QCOMPARE(asked->valuePrefix, value);
        QCOMPARE(connection.options().port, to);

        // Done: every key of the slot moved, and the slot is `to`'s. The routes still say `from`: MOVED.
        for (const QByteArray& rest : source.elements({"CLUSTER", "GETKEYSINSLOT", QByteArray::number(slot), "1000"}))
            QCOMPARE(source.command({"MIGRATE", "127.0.0.1", QByteArray::number(to), rest, "0", "5000"}),
                     QByteArray("OK"));
        for (std::size_t node = 0; node < m_cluster.size(); ++node)
            test::PlainClient(m_cluster.node(node).port())
                .command({"CLUSTER", "SETSLOT", QByteArray::number(slot), "NODE", toId});
        QVERIFY(inspect::readKeyOverview(connection, QByteArray("session:1"))); // somewhere else first
        QVERIFY(source.command({"GET", key}).startsWith("MOVED "));
        redis::Result<inspect::KeyOverview> moved = inspect::readKeyOverview(connection, key);
        QVERIFY(moved);
        QCOMPARE(moved->valuePrefix, value);
        QCOMPARE(connection.options().port, to);
        QCOMPARE(options.cluster->ownerOf(slot)->second, to); // learned for every connection sharing the routes
        m_ports[std::size_t(slot)] = to;
    }

    void bulkDeleteAndRestoreAcrossShards()
    {
        long long sessions = 0;
        for (std::size_t node = 0; node < m_cluster.size(); ++node) {
            for (const QByteArray& key : keysOf(m_cluster.node(node).port()))
                sessions += key.startsWith("session:") ? 1 : 0;
        }
        QVERIFY(sessions > 3000);
        QTemporaryDir dir;
        const QString backup = dir.filePath(QStringLiteral("sessions.klb"));
        test::CliRun run =
            test::runCli({QStringLiteral("delete"), uri(), QStringLiteral("--match"), QStringLiteral("session:*"),
                          QStringLiteral("--yes"), QStringLiteral("--backup"), backup, QStringLiteral("--speed"),
                          QStringLiteral("full")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        for (std::size_t node = 0; node < m_cluster.size(); ++node) {
            for (const QByteArray& key : keysOf(m_cluster.node(node).port()))
                QVERIFY2(!key.startsWith("session:"), key.constData());
        }
        run = test::runCli({QStringLiteral("restore"), backup, uri()});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        long long back = 0;
        for (std::size_t node = 0; node < m_cluster.size(); ++node) {
            test::PlainClient client(m_cluster.node(node).port());
            for (const QByteArray& key : keysOf(m_cluster.node(node).port())) {
                if (!key.startsWith("session:"))
                    continue;
                ++back;
                QVERIFY(client.integer({"PTTL", key}) > 0); // with its TTL
            }
        }
        QCOMPARE(back, sessions);
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

    void aFailoverMidScanIsReportedAndNothingCountedTwice()
    {
        demo::RedisCluster cluster;
        demo::RedisCluster::Options options;
        options.replicasPerPrimary = 1;
        const redis::Status started = cluster.start(options);
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().message));
        const std::vector<quint16> ports = test::slotPorts(cluster.node(0).port());
        constexpr int Keys = 30000;
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 0; i < Keys; ++i)
            commands.push_back({"SET", "k:" + QByteArray::number(i), QByteArray(i % 40, 'v')}); // embstr on every node
        writeRouted(ports, commands);
        // The primary of slot 0 and its replica, which has every write.
        const quint16 primary = ports.front();
        quint16 replica = 0;
        for (std::size_t i = 0; i < cluster.size(); ++i) {
            const std::vector<QByteArray> role = test::PlainClient(cluster.node(i).port()).elements({"ROLE"});
            if (role.front() == "slave" && role.at(2).toUShort() == primary)
                replica = cluster.node(i).port();
        }
        QVERIFY(replica != 0);
        QCOMPARE(test::PlainClient(primary).integer({"WAIT", "1", "5000"}), 1LL);

        QProcess process;
        // About 4 s (--max-rate is shared by the shards): the failover lands mid-scan.
        test::startCli(process, {QStringLiteral("scan"), cluster.uri(), QStringLiteral("--format"),
                                 QStringLiteral("json"), QStringLiteral("--max-rate"), QStringLiteral("7500")});
        // Mid-scan: the primary was asked about some of its keys, far from all of them.
        QTRY_VERIFY_WITH_TIMEOUT(test::PlainClient(primary).commandCalls("pttl") >= 500, 20000);
        // A coordinated failover: the replica takes the slots over, the primary becomes its replica.
        QCOMPARE(test::PlainClient(replica).command({"CLUSTER", "FAILOVER"}), QByteArray("OK"));
        QTRY_COMPARE_WITH_TIMEOUT(test::PlainClient(replica).elements({"ROLE"}).front(), QByteArray("master"), 10000);
        const test::CliRun run = test::finishCli(process);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject report = parseJson(run.out);
        // Every key once, with the memory a plain client measures on each primary now.
        const std::vector<quint16> now = test::slotPorts(replica);
        QCOMPARE(now.front(), replica);
        long long memory = 0;
        for (quint16 port : std::set<quint16>(now.begin(), now.end()))
            memory += truthOf(port).memory;
        const QJsonObject totals = report.value(QStringLiteral("totals")).toObject();
        QCOMPARE(totals.value(QStringLiteral("keys")).toInteger(), Keys);
        QCOMPARE(totals.value(QStringLiteral("memory_bytes")).toInteger(), memory);
        const QByteArray notices =
            QJsonDocument(report.value(QStringLiteral("scan")).toObject().value(QStringLiteral("notices")).toArray())
                .toJson();
        QVERIFY2(notices.contains("slots changed shard during the scan"), notices.constData());
    }

    void aShardKilledMidScanIsReportedAndTheRestScanned()
    {
        demo::RedisCluster cluster;
        demo::RedisCluster::Options options;
        options.nodeTimeoutMs = 60000; // the others keep serving while the dead node is not yet judged failed
        const redis::Status started = cluster.start(options);
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().message));
        const std::vector<quint16> ports = test::slotPorts(cluster.node(0).port());
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 0; i < 30000; ++i)
            commands.push_back({"SET", "k:" + QByteArray::number(i), "v"});
        writeRouted(ports, commands);

        QProcess process;
        // About 4 s per shard at 2,500 keys/s each (--max-rate is shared by the shards): the kill lands mid-scan.
        test::startCli(process, {QStringLiteral("scan"), cluster.uri(), QStringLiteral("--format"),
                                 QStringLiteral("json"), QStringLiteral("--max-rate"), QStringLiteral("7500"),
                                 QStringLiteral("--reconnect"), QStringLiteral("1")});
        const quint16 killedPort = cluster.node(1).port();
        QTRY_VERIFY_WITH_TIMEOUT(test::PlainClient(killedPort).commandCalls("pttl") >= 500, 20000);
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

    // A primary stopped mid-scan (SIGSTOP: it still accepts connections, answers nothing) on a cluster that does not
    // judge it failed for a minute: its shard is given up on within a minute of its last byte with the default
    // --command-timeout and --reconnect, the timeout said on stderr at once, the others scanned, the report partial.
    // (A cluster scan was still running, silent, at 185 s.)
    void aHungShardIsGivenUpOnWithinAMinute()
    {
        demo::RedisCluster cluster;
        demo::RedisCluster::Options options;
        options.nodeTimeoutMs = 120000; // no failover while the test runs: the node is only silent
        const redis::Status started = cluster.start(options);
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().message));
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 0; i < 30000; ++i)
            commands.push_back({"SET", "k:" + QByteArray::number(i), "v"});
        writeRouted(test::slotPorts(cluster.node(0).port()), commands);

        const quint16 stoppedPort = cluster.node(1).port();
        test::PlainClient stoppedAdmin(stoppedPort);
        QVERIFY(stoppedAdmin.isConnected());
        QProcess process;
        test::startCli(process, {QStringLiteral("scan"), cluster.uri(), QStringLiteral("--format"),
                                 QStringLiteral("json"), QStringLiteral("--max-rate"), QStringLiteral("3000")});
        // Stopped once the scan has asked the node about some keys, and long before it could have asked about all.
        QTRY_VERIFY_WITH_TIMEOUT(stoppedAdmin.commandCalls("pttl") >= 500, 20000);
        const qint64 pid = cluster.node(1).processId();
        QCOMPARE(::kill(pid_t(pid), SIGSTOP), 0);
        QElapsedTimer stopped;
        stopped.start();
        QByteArray err;
        QTRY_VERIFY_WITH_TIMEOUT((err += process.readAllStandardError()).contains("timed out"), 45000);
        QCOMPARE(process.state(), QProcess::Running);
        const bool finished = process.waitForFinished(70000);
        const qint64 took = stopped.elapsed();
        ::kill(pid_t(pid), SIGCONT);
        QVERIFY2(finished, "the scan never ended");
        err += process.readAllStandardError();
        QVERIFY2(took < 60000, qPrintable(QStringLiteral("%1 ms after the node stopped").arg(took)));
        QCOMPARE(process.exitCode(), 1);
        QVERIFY2(err.contains(QByteArray::number(stoppedPort)) && err.contains("answered nothing for"),
                 err.constData());
        const QJsonObject report = parseJson(process.readAllStandardOutput());
        QCOMPARE(report.value(QStringLiteral("scan")).toObject().value(QStringLiteral("complete")).toBool(true), false);
        for (const QJsonValue& value : report.value(QStringLiteral("shards")).toArray()) {
            const QJsonObject shard = value.toObject();
            const quint16 port = quint16(shard.value(QStringLiteral("address")).toString().section(u':', -1).toUInt());
            if (port == stoppedPort) {
                QCOMPARE(shard.value(QStringLiteral("complete")).toBool(true), false);
            } else {
                QCOMPARE(shard.value(QStringLiteral("complete")).toBool(), true);
                QCOMPARE(shard.value(QStringLiteral("keys")).toInteger(), test::PlainClient(port).integer({"DBSIZE"}));
            }
        }
    }

    // A primary killed mid-scan on a cluster that then marks itself failed: the others answer every question about a
    // key CLUSTERDOWN. The scan spends its reconnect budget (--reconnect 2) and ends, partial, exit 1, naming the
    // failed slots; it does not retry without end.
    void aClusterThatFailsMidScanEndsTheScan()
    {
        demo::RedisCluster cluster;
        startQuickToFail(cluster, 60000);

        QProcess process;
        QElapsedTimer clock;
        clock.start();
        // 20 s at 3,000 keys/s: the cluster fails long before the scan could end by itself.
        test::startCli(process, {QStringLiteral("scan"), cluster.uri(), QStringLiteral("--format"),
                                 QStringLiteral("json"), QStringLiteral("--max-rate"), QStringLiteral("3000"),
                                 QStringLiteral("--reconnect"), QStringLiteral("2"), QStringLiteral("-t"),
                                 QStringLiteral("2"), QStringLiteral("--command-timeout"), QStringLiteral("5")});
        QTRY_VERIFY_WITH_TIMEOUT(test::PlainClient(cluster.node(1).port()).commandCalls("pttl") >= 500, 20000);
        QCOMPARE(::kill(pid_t(cluster.node(1).processId()), SIGKILL), 0);
        QTRY_VERIFY_WITH_TIMEOUT(
            test::PlainClient(cluster.node(0).port()).command({"CLUSTER", "INFO"}).contains("cluster_state:fail"),
            15000);
        const test::CliRun run = test::finishCli(process, 90000);
        QVERIFY2(process.state() == QProcess::NotRunning, "the scan never ended");
        QVERIFY2(clock.elapsed() < 60000, QByteArray::number(clock.elapsed()).constData());
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("slots"), run.err.constData());
        const QJsonObject report = parseJson(run.out);
        QCOMPARE(report.value(QStringLiteral("scan")).toObject().value(QStringLiteral("complete")).toBool(), false);
        QVERIFY(report.value(QStringLiteral("totals")).toObject().value(QStringLiteral("keys")).toInteger() < 60000);
    }

    // Started while the cluster is marked failed: every shard ends after its budget, nothing loops, exit 1.
    void aScanOfAFailedClusterEnds()
    {
        demo::RedisCluster cluster;
        startQuickToFail(cluster, 3000);
        QCOMPARE(::kill(pid_t(cluster.node(2).processId()), SIGKILL), 0);
        QTRY_VERIFY_WITH_TIMEOUT(
            test::PlainClient(cluster.node(0).port()).command({"CLUSTER", "INFO"}).contains("cluster_state:fail"),
            15000);
        QElapsedTimer clock;
        clock.start();
        const test::CliRun run =
            // Short timeouts: a port of the dead node taken meanwhile by another test's silent server must not hold
            // the scan for the default command timeout on every attempt.
            test::runCli({QStringLiteral("scan"), cluster.uri(), QStringLiteral("--reconnect"), QStringLiteral("2"),
                          QStringLiteral("-t"), QStringLiteral("2"), QStringLiteral("--command-timeout"),
                          QStringLiteral("5"), QStringLiteral("--format"), QStringLiteral("json")},
                         QProcessEnvironment::systemEnvironment(), 90000);
        QVERIFY2(clock.elapsed() < 60000,
                 QByteArray(QByteArray::number(clock.elapsed()) + " ms: " + run.err + run.out.left(2000)).constData());
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("CLUSTERDOWN") || run.err.contains("could not be scanned"), run.err.constData());
        QVERIFY2(run.err.contains("slots"), run.err.constData());
    }

    // A dead node's port taken by another server (a busy test machine, a restarted box): the shard must not scan
    // that server's keys as its own, for as long as it has them; it ends with the reason, the others finish.
    void aNodesPortTakenByAnotherServerIsNotScanned()
    {
        demo::RedisCluster cluster;
        startQuickToFail(cluster, 3000);
        const quint16 port = cluster.node(2).port();
        QCOMPARE(::kill(pid_t(cluster.node(2).processId()), SIGKILL), 0);
        QTRY_VERIFY_WITH_TIMEOUT(
            test::PlainClient(cluster.node(0).port()).command({"CLUSTER", "INFO"}).contains("cluster_state:fail"),
            15000);
        demo::RedisServerProcess stranger;
        demo::RedisServerProcess::Options strangerOptions;
        strangerOptions.port = port;
        QTRY_VERIFY_WITH_TIMEOUT(stranger.start(strangerOptions).ok(),
                                 10000); // the port is free once the node is reaped
        test::PlainClient(port).command({"DEBUG", "POPULATE", "200000", "stranger"});
        QElapsedTimer clock;
        clock.start();
        const test::CliRun run = test::runCli(
            {QStringLiteral("scan"), cluster.uri(), QStringLiteral("--reconnect"), QStringLiteral("2"),
             QStringLiteral("--max-rate"), QStringLiteral("5000"), QStringLiteral("--format"), QStringLiteral("json")},
            QProcessEnvironment::systemEnvironment(), 90000);
        // 200,000 keys at 5,000 keys/s would be 40 s: the stranger's keys are not read at all.
        QVERIFY2(clock.elapsed() < 20000,
                 QByteArray(QByteArray::number(clock.elapsed()) + " ms: " + run.err.right(3000)).constData());
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("another server now answers at"), run.err.constData());
        const QJsonObject report = parseJson(run.out);
        QVERIFY(!run.out.contains("stranger"));
        QVERIFY(report.value(QStringLiteral("totals")).toObject().value(QStringLiteral("keys")).toInteger() < 3000);
    }
};

QTEST_GUILESS_MAIN(TestCluster)
#include "tst_cluster.moc"
