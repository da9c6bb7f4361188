// MEMORY USAGE's default sampling (scan/MemorySampling.h): a scan counts the keys whose figure the server scaled up
// from 5 elements, as the server's own encodings and lengths say it did (asked by a plain client: OBJECT ENCODING,
// HLEN/SCARD/ZCARD, DEBUG OBJECT's quicklist nodes, XINFO STREAM's listpack nodes); --exact-memory gives what
// SAMPLES 0 says; neither touches a key.
#include "CliRunner.h"
#include "JsonReport.h"
#include "PlainClient.h"
#include "TestServer.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>
#include <QThread>

#include <map>

using namespace keylens;
using test::parseJson;

namespace {

// What MEMORY USAGE walks of a list or a stream: its quicklist's nodes (DEBUG OBJECT), its listpack nodes (XINFO
// STREAM's radix-tree-keys). 1 for a list in one listpack (Redis 7.2+).
long long nodesOf(test::PlainClient& client, const QByteArray& key, const QByteArray& type)
{
    if (type == "list") {
        const QByteArray debug = client.command({"DEBUG", "OBJECT", key});
        const qsizetype at = debug.indexOf("ql_nodes:");
        return at < 0 ? 1 : debug.mid(at + 9).split(' ').front().toLongLong();
    }
    const std::vector<QByteArray> info = client.elements({"XINFO", "STREAM", key});
    for (std::size_t i = 0; i + 1 < info.size(); ++i) {
        if (info[i] == "radix-tree-keys")
            return info[i + 1].toLongLong();
    }
    return -1;
}

// Whether the server scaled the key's default figure up from 5 elements: a collection in a hash table or skiplist of
// more than 5 elements, or of more than 5 quicklist or stream nodes (Redis 7.0 object.c, objectComputeSize).
bool serverSamples(test::PlainClient& client, const QByteArray& key)
{
    const QByteArray type = client.command({"TYPE", key});
    const QByteArray encoding = client.command({"OBJECT", "ENCODING", key});
    if (type == "hash")
        return encoding == "hashtable" && client.integer({"HLEN", key}) > 5;
    if (type == "set")
        return encoding == "hashtable" && client.integer({"SCARD", key}) > 5;
    if (type == "zset")
        return encoding == "skiplist" && client.integer({"ZCARD", key}) > 5;
    if (type == "list" || type == "stream")
        return nodesOf(client, key, type) > 5;
    return false;
}

QByteArray text(QRandomGenerator& random, int from, int to)
{
    return QByteArray(int(random.bounded(from, to + 1)), 'a' + char(random.bounded(26)));
}

QByteArray key(const char* name, int i)
{
    return QByteArray(name) + ':' + QByteArray::number(i);
}

// Per namespace (the first segment): keys, and the sums a plain client finds.
struct Truth
{
    long long sampled = 0;      // keys the server sampled
    long long sampledRight = 0; // of those, the keys whose default figure is what SAMPLES 0 says all the same
    long long sampledBytes = 0; // the default figures of the others
    long long counted() const { return sampled - sampledRight; }
    long long memory = 0;    // every key's default figure
    long long whole = 0;     // every key's SAMPLES 0 figure
    long long corrected = 0; // keys whose SAMPLES 0 figure differs from the default one
    long long checkable = 0; // collections of at least 256 bytes: those a scan asks again
};

} // namespace

class TestMemorySampling : public QObject
{
    Q_OBJECT

    std::unique_ptr<demo::RedisServerProcess> m_server;
    std::vector<QByteArray> m_keys;
    std::map<QString, Truth> m_truth;
    Truth m_total;

    QString uri() const { return m_server->uri(); }

    // Big collections of every type whose elements differ in size (so that 5 of them say little of the rest), the
    // edges of the server's 5 samples, compact collections and strings.
    void plant(test::PlainClient& client)
    {
        QRandomGenerator random(61);
        std::vector<std::vector<QByteArray>> commands;
        const auto add = [&](const QByteArray& name, std::vector<QByteArray> command) {
            m_keys.push_back(name);
            commands.push_back(std::move(command));
        };
        for (int k = 0; k < 3; ++k) {
            std::vector<QByteArray> hset = {"HSET", key("big:hash", k)}, sadd = {"SADD", key("big:set", k)},
                                    zadd = {"ZADD", key("big:zset", k)}, rpush = {"RPUSH", key("big:list", k)};
            for (int i = 0; i < 2000; ++i) {
                hset.insert(hset.end(), {"f" + QByteArray::number(i), text(random, 1, 300)});
                sadd.push_back(QByteArray::number(i) + text(random, 1, 100));
                zadd.insert(zadd.end(), {QByteArray::number(i), QByteArray::number(i) + text(random, 1, 100)});
                rpush.push_back(text(random, 1, 200));
            }
            for (auto* command : {&hset, &sadd, &zadd, &rpush})
                add((*command)[1], *command);
        }
        // A stream's nodes fill to 4 KB alike, whatever their entries: its first nodes hold small entries, the rest
        // big ones. (Explicit ids: the time in `*` ids would change the nodes' sizes from one run to the next.)
        for (int i = 0; i < 1200; ++i)
            commands.push_back({"XADD", "big:stream", QByteArray::number(i + 1) + "-0", "v",
                                i < 600 ? text(random, 1, 20) : text(random, 100, 400)});
        m_keys.push_back("big:stream");
        // 6 elements in a hash table are sampled, 5 are not; a set of strings is in a hash table from its first member.
        std::vector<QByteArray> hash6 = {"HSET", "edge:hash6"}, hash5 = {"HSET", "edge:hash5"};
        for (int i = 1; i <= 6; ++i) {
            hash6.insert(hash6.end(), {"f" + QByteArray::number(i), QByteArray(i * 100, 'h')});
            if (i <= 5)
                hash5.insert(hash5.end(), {"f" + QByteArray::number(i), QByteArray(i * 100, 'h')});
        }
        add("edge:hash6", hash6);
        add("edge:hash5", hash5);
        add("edge:set6", {"SADD", "edge:set6", "a", "bb", QByteArray(30, 'c'), QByteArray(60, 'd'), QByteArray(90, 'e'),
                          QByteArray(200, 'f')});
        add("edge:set3", {"SADD", "edge:set3", "a", "bb", QByteArray(40, 'c')});
        add("edge:list", {"RPUSH", "edge:list", "one", "two", "three"});
        // Sampled, and rightly so: members of one size make 5 of them the image of the 2,000.
        std::vector<QByteArray> uniform = {"SADD", "uniform:set"};
        for (int i = 0; i < 2000; ++i)
            uniform.push_back(QByteArray::number(100000 + i));
        add("uniform:set", uniform);
        for (int k = 0; k < 100; ++k) {
            add(key("small:hash", k), {"HSET", key("small:hash", k), "a", text(random, 1, 30), "b", "2", "c", "3"});
            add(key("small:zset", k), {"ZADD", key("small:zset", k), "1", "x", "2", text(random, 1, 30)});
            add(key("small:ints", k), {"SADD", key("small:ints", k), "1", "2", "3", "4", "5", "6", "7"});
        }
        for (int k = 0; k < 300; ++k)
            add(key("str", k), {"SET", key("str", k), text(random, 1, k % 50 == 0 ? 20000 : 300)});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
    }

    // Asked after the keys were planted and before any scan: the plain client's lengths touch the keys.
    void learnTruth(test::PlainClient& client)
    {
        std::vector<std::vector<QByteArray>> defaults, whole;
        for (const QByteArray& name : m_keys) {
            defaults.push_back({"MEMORY", "USAGE", name});
            whole.push_back({"MEMORY", "USAGE", name, "SAMPLES", "0"});
        }
        const std::vector<long long> byDefault = client.pipelineIntegers(defaults);
        const std::vector<long long> byWhole = client.pipelineIntegers(whole);
        for (std::size_t i = 0; i < m_keys.size(); ++i) {
            Truth& ns = m_truth[QString::fromUtf8(m_keys[i].left(m_keys[i].indexOf(':')))];
            for (Truth* truth : {&ns, &m_total}) {
                truth->memory += byDefault[i];
                truth->whole += byWhole[i];
                truth->corrected += byWhole[i] != byDefault[i] ? 1 : 0;
                truth->checkable += !m_keys[i].startsWith("str:") && byDefault[i] >= 256 ? 1 : 0;
                if (serverSamples(client, m_keys[i])) {
                    ++truth->sampled;
                    truth->sampledRight += byWhole[i] == byDefault[i] ? 1 : 0;
                    truth->sampledBytes += byWhole[i] == byDefault[i] ? 0 : byDefault[i];
                }
            }
        }
    }

    QJsonObject scanJson(const QStringList& extra, const QString& command = QStringLiteral("scan"))
    {
        QStringList arguments = {command, uri(), QStringLiteral("--format"), QStringLiteral("json")};
        if (command == QLatin1String("scan"))
            arguments << QStringLiteral("--depth") << QStringLiteral("1");
        const test::CliRun run = test::runCli(arguments + extra);
        if (run.exitCode != 0)
            qWarning() << run.exitCode << run.err;
        return parseJson(run.out);
    }

    static std::map<QString, QJsonObject> namespaces(const QJsonObject& report)
    {
        std::map<QString, QJsonObject> out;
        for (const QJsonValue& value : report.value(QStringLiteral("namespaces")).toArray())
            out[value.toObject().value(QStringLiteral("name")).toString()] = value.toObject();
        return out;
    }

    static long long field(const QJsonObject& object, const char* name)
    {
        return object.value(QLatin1String(name)).toInteger(-1);
    }

private Q_SLOTS:
    void initTestCase()
    {
        // DEBUG OBJECT tells a list's quicklist nodes: the truth of whether MEMORY USAGE sampled it.
        m_server = test::startServerWith("enable-debug-command local\n");
        QVERIFY(m_server);
        test::PlainClient client(m_server->port());
        plant(client);
        learnTruth(client);
        // Every big key is sampled (by type: 3 hashes, sets, sorted sets and lists, 1 stream), and 2 edge keys, all of
        // them wrongly (their elements differ in size); the uniform set rightly.
        QCOMPARE(m_truth[QStringLiteral("big")].sampled, 13);
        QCOMPARE(m_truth[QStringLiteral("edge")].sampled, 2);
        QCOMPARE(m_truth[QStringLiteral("uniform")].sampled, 1);
        QCOMPARE(m_total.sampled, 16);
        QCOMPARE(m_truth[QStringLiteral("big")].sampledRight + m_truth[QStringLiteral("edge")].sampledRight, 0);
        QCOMPARE(m_truth[QStringLiteral("uniform")].sampledRight, 1);
    }
    void cleanupTestCase() { m_server.reset(); }

    void theScanCountsTheKeysTheServerSampled()
    {
        test::PlainClient client(m_server->port());
        client.command({"CONFIG", "RESETSTAT"});
        const QJsonObject report = scanJson({});
        // One MEMORY USAGE a key, the probe, and one more for every collection whose figure could be sampled.
        const long long checked = field(report.value(QStringLiteral("scan")).toObject(), "keys_memory_checked");
        QCOMPARE(checked, m_total.checkable);
        QCOMPARE(client.commandCalls("memory|usage"), qint64(m_keys.size()) + 1 + checked);
        const QJsonObject totals = report.value(QStringLiteral("totals")).toObject();
        QCOMPARE(field(totals, "keys"), qint64(m_keys.size()));
        QCOMPARE(field(totals, "keys_memory_sampled"), m_total.counted());
        QCOMPARE(field(totals, "memory_sampled_bytes"), m_total.sampledBytes);
        QCOMPARE(field(totals, "memory_bytes"), m_total.memory); // the figures themselves are the server's default
        const std::map<QString, QJsonObject> listed = namespaces(report);
        QCOMPARE(listed.size(), m_truth.size());
        for (const auto& [name, truth] : m_truth) {
            const QJsonObject& entry = listed.at(name);
            QVERIFY2(field(entry, "keys_memory_sampled") == truth.counted(), qPrintable(name));
            QVERIFY2(field(entry, "memory_sampled_bytes") == truth.sampledBytes, qPrintable(name));
        }
        // Sampled, but 64 elements say what 5 did (and SAMPLES 0 too): not counted, its figure needs no correcting.
        QCOMPARE(field(listed.at(QStringLiteral("uniform")), "keys_memory_sampled"), 0);
        const QJsonObject scan = report.value(QStringLiteral("scan")).toObject();
        QCOMPARE(scan.value(QStringLiteral("exact_memory")).toBool(true), false);
        QCOMPARE(field(scan, "keys_memory_sampling_unknown"), 0);

        const test::CliRun textRun = test::runCli({QStringLiteral("scan"), uri()});
        QCOMPARE(textRun.exitCode, 0);
        QVERIFY2(textRun.out.contains("Memory of 15 keys (") &&
                     textRun.out.contains("sampled by the server (MEMORY USAGE scales 5 elements up); --exact-memory "
                                          "to measure them whole"),
                 textRun.out.constData());

        const QJsonObject lint = scanJson({}, QStringLiteral("lint"));
        QCOMPARE(field(lint.value(QStringLiteral("scan")).toObject(), "keys_memory_sampled"), m_total.counted());
    }

    void exactMemoryMeasuresWhatSamplesZeroSays()
    {
        const QJsonObject report = scanJson({QStringLiteral("--exact-memory")});
        const QJsonObject totals = report.value(QStringLiteral("totals")).toObject();
        QCOMPARE(field(totals, "memory_bytes"), m_total.whole);
        QCOMPARE(field(totals, "keys_memory_sampled"), 0);
        const std::map<QString, QJsonObject> listed = namespaces(report);
        for (const auto& [name, truth] : m_truth) {
            QVERIFY2(field(listed.at(name), "memory_bytes") == truth.whole, qPrintable(name));
            QVERIFY2(field(listed.at(name), "keys_memory_sampled") == 0, qPrintable(name));
        }
        const QJsonObject scan = report.value(QStringLiteral("scan")).toObject();
        QCOMPARE(scan.value(QStringLiteral("exact_memory")).toBool(), true);
        QCOMPARE(field(scan, "exact_memory_cap"), 100000);
        QCOMPARE(field(scan, "keys_memory_corrected"), m_total.corrected);
        QCOMPARE(field(scan, "memory_corrected_bytes"), m_total.whole - m_total.memory);
        QVERIFY(m_total.whole != m_total.memory); // the planted keys are ones sampling gets wrong

        const test::CliRun textRun = test::runCli({QStringLiteral("scan"), uri(), QStringLiteral("--exact-memory")});
        QCOMPARE(textRun.exitCode, 0);
        QVERIFY2(textRun.out.contains("collections measured whole (--exact-memory)"), textRun.out.constData());
        QVERIFY2(!textRun.out.contains("sampled by the server"), textRun.out.constData());

        const QJsonObject lint = scanJson({QStringLiteral("--exact-memory")}, QStringLiteral("lint"));
        QCOMPARE(field(lint.value(QStringLiteral("scan")).toObject(), "keys_memory_sampled"), 0);
        QCOMPARE(lint.value(QStringLiteral("scan")).toObject().value(QStringLiteral("exact_memory")).toBool(), true);
    }

    // One key counts as one: "Memory of 1 key", "1 collection" (it said "1 keys", "1 collections").
    void oneKeyIsOneKey()
    {
        const test::CliRun sampled =
            test::runCli({QStringLiteral("scan"), uri(), QStringLiteral("--match"), QStringLiteral("edge:hash6")});
        QCOMPARE(sampled.exitCode, 0);
        QVERIFY2(sampled.out.contains("Scanned 1 key in ") && sampled.out.contains("Memory of 1 key ("),
                 sampled.out.constData());
        const test::CliRun whole = test::runCli({QStringLiteral("scan"), uri(), QStringLiteral("--match"),
                                                 QStringLiteral("edge:hash6"), QStringLiteral("--exact-memory")});
        QCOMPARE(whole.exitCode, 0);
        QVERIFY2(whole.out.contains("Memory of 1 collection measured whole"), whole.out.constData());
    }

    // --exact-memory with --sample is honoured (README, "Memory the server sampled"): the sampled keys' collections
    // are measured whole, and the estimate is made from those figures.
    void exactMemoryOnASampleMeasuresTheSampledKeysWhole()
    {
        const QJsonObject report = scanJson(
            {QStringLiteral("--exact-memory"), QStringLiteral("--sample"), QString::number(m_keys.size() / 2)});
        const QJsonObject scan = report.value(QStringLiteral("scan")).toObject();
        QVERIFY(scan.value(QStringLiteral("sample_probability")).toDouble() > 0);
        QCOMPARE(scan.value(QStringLiteral("exact_memory")).toBool(), true);
        QVERIFY(field(scan, "keys_memory_corrected") > 0);
        QCOMPARE(field(report.value(QStringLiteral("totals")).toObject(), "keys_memory_sampled"), 0);
    }

    // Under a cap of 1,000 elements the big keys (2,000 elements; the list and the stream, whose nodes SAMPLES 0 walks,
    // take far more bytes than 1,000 nodes could hold in so few) keep their sampled figure and are counted; the edge
    // keys, of 6 elements, are measured whole.
    void aCapLeavesBiggerCollectionsSampled()
    {
        const QJsonObject report =
            scanJson({QStringLiteral("--exact-memory"), QStringLiteral("--exact-memory-cap"), QStringLiteral("1000")});
        QCOMPARE(field(report.value(QStringLiteral("scan")).toObject(), "exact_memory_cap"), 1000);
        const std::map<QString, QJsonObject> listed = namespaces(report);
        const Truth& big = m_truth.at(QStringLiteral("big"));
        QCOMPARE(field(listed.at(QStringLiteral("big")), "keys_memory_sampled"), big.counted());
        QCOMPARE(field(listed.at(QStringLiteral("big")), "memory_sampled_bytes"), big.sampledBytes);
        QCOMPARE(field(listed.at(QStringLiteral("big")), "memory_bytes"), big.memory);
        const Truth& edge = m_truth.at(QStringLiteral("edge"));
        QCOMPARE(field(listed.at(QStringLiteral("edge")), "keys_memory_sampled"), 0);
        QCOMPARE(field(listed.at(QStringLiteral("edge")), "memory_bytes"), edge.whole);
        QVERIFY(edge.whole != edge.memory);

        const test::CliRun textRun = test::runCli({QStringLiteral("scan"), uri(), QStringLiteral("--exact-memory"),
                                                   QStringLiteral("--exact-memory-cap"), QStringLiteral("1000")});
        QVERIFY2(textRun.out.contains("Memory of 13 keys (") &&
                     textRun.out.contains("above --exact-memory-cap (1,000 elements)"),
                 textRun.out.constData());
    }

    // What --exact-memory cannot honour is refused (exit 2), never ignored: an RDB file's memory is modelled from its
    // encodings, and --no-memory asks for no memory at all.
    void refusedWhereItCannotApply_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("named");
        QTest::newRow("scan --rdb") << QStringList{QStringLiteral("scan"), QStringLiteral("--rdb"),
                                                   QStringLiteral("RDB"), QStringLiteral("--exact-memory")}
                                    << QByteArray("--exact-memory does not apply to an RDB file");
        QTest::newRow("lint --rdb") << QStringList{QStringLiteral("lint"), QStringLiteral("--rdb"),
                                                   QStringLiteral("RDB"), QStringLiteral("--exact-memory")}
                                    << QByteArray("--exact-memory does not apply to an RDB file");
        QTest::newRow("--no-memory") << QStringList{QStringLiteral("scan"), QStringLiteral("URI"),
                                                    QStringLiteral("--no-memory"), QStringLiteral("--exact-memory")}
                                     << QByteArray("contradict");
        QTest::newRow("a cap alone") << QStringList{QStringLiteral("scan"), QStringLiteral("URI"),
                                                    QStringLiteral("--exact-memory-cap"), QStringLiteral("10")}
                                     << QByteArray("--exact-memory-cap needs --exact-memory");
        QTest::newRow("a cap of 0") << QStringList{QStringLiteral("scan"), QStringLiteral("URI"),
                                                   QStringLiteral("--exact-memory"),
                                                   QStringLiteral("--exact-memory-cap"), QStringLiteral("0")}
                                    << QByteArray("at least 1");
    }
    void refusedWhereItCannotApply()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, named);
        // A file that is there, saved by the server: the refusal is the option's, not a missing file's.
        test::PlainClient client(m_server->port());
        QCOMPARE(client.command({"SAVE"}), QByteArray("OK"));
        const QString file =
            m_server->directory() + u'/' + QString::fromUtf8(client.elements({"CONFIG", "GET", "dbfilename"}).back());
        QVERIFY(QFileInfo::exists(file));
        arguments.replaceInStrings(QStringLiteral("RDB"), file);
        arguments.replaceInStrings(QStringLiteral("URI"), uri());
        const test::CliRun run = test::runCli(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(named), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }

    // On a server of its own, whose keys no plain client's length reads: idle times survive the scans that ask about
    // sampling, with and without --exact-memory (MEMORY USAGE never touches a key; HLEN, SCARD or XINFO would have made
    // every big key idle for 0 s).
    void idleTimesSurviveTheScans()
    {
        const std::unique_ptr<demo::RedisServerProcess> server = test::startServerWith();
        QVERIFY(server);
        test::PlainClient client(server->port());
        std::vector<std::vector<QByteArray>> commands;
        std::vector<QByteArray> keys;
        QRandomGenerator random(7);
        for (int k = 0; k < 5; ++k) {
            std::vector<QByteArray> hset = {"HSET", key("h", k)}, zadd = {"ZADD", key("z", k)},
                                    rpush = {"RPUSH", key("l", k)};
            for (int i = 0; i < 1000; ++i) {
                hset.insert(hset.end(), {QByteArray::number(i), text(random, 1, 200)});
                zadd.insert(zadd.end(), {QByteArray::number(i), text(random, 1, 100) + QByteArray::number(i)});
                rpush.push_back(text(random, 1, 300));
            }
            for (auto* command : {&hset, &zadd, &rpush}) {
                keys.push_back((*command)[1]);
                commands.push_back(*command);
            }
        }
        QCOMPARE(client.pipeline(commands), std::size_t(0));
        QThread::msleep(3200);
        const QString uri = server->uri();
        const QJsonObject plain = parseJson(
            test::runCli({QStringLiteral("scan"), uri, QStringLiteral("--format"), QStringLiteral("json")}).out);
        const QJsonObject exact = parseJson(test::runCli({QStringLiteral("scan"), uri, QStringLiteral("--exact-memory"),
                                                          QStringLiteral("--format"), QStringLiteral("json")})
                                                .out);
        // The scans did ask: the first found sampled keys, the second measured them whole.
        QVERIFY(plain.value(QStringLiteral("totals")).toObject().value(QStringLiteral("keys_memory_sampled")).toInt() >
                0);
        QVERIFY(exact.value(QStringLiteral("scan")).toObject().value(QStringLiteral("keys_memory_corrected")).toInt() >
                0);
        for (const QByteArray& name : keys) {
            const long long idle = client.integer({"OBJECT", "IDLETIME", name});
            QVERIFY2(idle >= 3, QByteArray(name + " idle " + QByteArray::number(idle)).constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestMemorySampling)
#include "tst_memorysampling.moc"
