// keylens-cli diff against a real server: a scan saved as a snapshot, the keyspace changed by plain commands, a
// second scan compared with it. Every Δ is checked against what the test did (keys) and what the server says
// (MEMORY USAGE of each key, summed by the test); bad snapshot files end with exit 2 and write nothing.
#include "CliRunner.h"
#include "PlainClient.h"
#include "TestServer.h"
#include "history/Gzip.h"
#include "history/SnapshotFile.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace keylens;

namespace {

// The memory MEMORY USAGE gives for every key under `prefix`, summed: the truth the diff is checked against. Asked as
// a scan asks it, with the server's default SAMPLES (a big hash's figure is then an estimate, the same one).
qint64 memoryUnder(test::PlainClient& client, const QByteArray& prefix)
{
    const std::vector<QByteArray> keys = client.allKeys(prefix + "*");
    std::vector<std::vector<QByteArray>> commands;
    for (const QByteArray& key : keys)
        commands.push_back({"MEMORY", "USAGE", key});
    qint64 sum = 0;
    for (const long long bytes : client.pipelineIntegers(commands))
        sum += bytes;
    return sum;
}

QJsonObject changeOf(const QJsonObject& diff, const QString& path)
{
    for (const QJsonValue value : diff[QStringLiteral("changes")].toArray()) {
        if (value.toObject()[QStringLiteral("path")].toString() == path)
            return value.toObject();
    }
    return {};
}

QPair<qint64, qint64> pairOf(const QJsonObject& change, const QString& field)
{
    const QJsonArray pair = change[field].toArray();
    return {pair[0].isNull() ? -1 : pair[0].toInteger(), pair[1].isNull() ? -1 : pair[1].toInteger()};
}

} // namespace

class TestDiff : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    QString m_port;
    QTemporaryDir m_dir;
    QString m_before, m_beforeJson, m_after;
    QJsonObject m_diff;
    // The server's own figures, before and after the changes.
    qint64 m_sessionBefore = 0, m_sessionAfter = 0, m_hashBefore = 0, m_hashAfter = 0, m_oldBefore = 0, m_fresh = 0;

    QString file(const QString& name) const { return m_dir.filePath(name); }

private Q_SLOTS:
    void initTestCase()
    {
        KEYLENS_START_SERVER(m_server);
        m_port = QString::number(m_server.port());
        test::PlainClient client(m_server.port());
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 0; i < 2000; ++i)
            commands.push_back({"SET", "session:" + QByteArray::number(i), QByteArray(40 + i % 30, 's'), "EX", "3600"});
        for (int i = 0; i < 500; ++i)
            commands.push_back({"SET", "old:" + QByteArray::number(i), QByteArray(100, 'o')});
        for (int i = 0; i < 1000; ++i)
            commands.push_back({"HSET", "user:" + QByteArray::number(i) + ":profile", "name", "n"});
        for (int i = 0; i < 10; ++i)
            commands.push_back({"HSET", "big:hash", "field" + QByteArray::number(i), QByteArray(20, 'v')});
        commands.push_back({"HSET", "big:other", "a", "b"});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
        m_sessionBefore = memoryUnder(client, "session:");
        m_hashBefore = memoryUnder(client, "big:");
        m_oldBefore = memoryUnder(client, "old:");

        m_before = file(QStringLiteral("before.kls"));
        m_beforeJson = file(QStringLiteral("before.json"));
        const auto scan = test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), m_port,
                                        QStringLiteral("--snapshot"), m_before, QStringLiteral("--format"),
                                        QStringLiteral("json"), QStringLiteral("--output"), m_beforeJson});
        QCOMPARE(scan.exitCode, 0);
        QVERIFY(QFile::exists(m_before));

        // The changes: 10,000 keys more in one namespace, one namespace deleted, one hash grown, one namespace new.
        commands.clear();
        for (int i = 0; i < 10000; ++i)
            commands.push_back({"SET", "session:more" + QByteArray::number(i), QByteArray(50, 'm'), "EX", "3600"});
        for (int i = 0; i < 500; ++i)
            commands.push_back({"DEL", "old:" + QByteArray::number(i)});
        for (int i = 10; i < 2000; ++i)
            commands.push_back({"HSET", "big:hash", "field" + QByteArray::number(i), QByteArray(20, 'v')});
        for (int i = 0; i < 10; ++i)
            commands.push_back({"SET", "fresh:" + QByteArray::number(i), "f"});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
        m_sessionAfter = memoryUnder(client, "session:");
        m_hashAfter = memoryUnder(client, "big:");
        m_fresh = memoryUnder(client, "fresh:");

        m_after = file(QStringLiteral("after.kls"));
        const auto diff =
            test::runCli({QStringLiteral("diff"), m_before, QStringLiteral("-p"), m_port, QStringLiteral("--format"),
                          QStringLiteral("json"), QStringLiteral("--snapshot"), m_after});
        QCOMPARE(diff.exitCode, 0);
        QJsonParseError error;
        m_diff = QJsonDocument::fromJson(diff.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QVERIFY(QFile::exists(m_after));
    }

    void eachNamespaceChangedAsTheTestDid()
    {
        const QJsonObject session = changeOf(m_diff, QStringLiteral("session:"));
        QCOMPARE(session[QStringLiteral("status")].toString(), QStringLiteral("grown"));
        QCOMPARE(pairOf(session, QStringLiteral("keys")), qMakePair(qint64(2000), qint64(12000)));
        QCOMPARE(pairOf(session, QStringLiteral("memory_bytes")), qMakePair(m_sessionBefore, m_sessionAfter));

        const QJsonObject old = changeOf(m_diff, QStringLiteral("old:"));
        QCOMPARE(old[QStringLiteral("status")].toString(), QStringLiteral("gone"));
        QCOMPARE(pairOf(old, QStringLiteral("keys")), qMakePair(qint64(500), qint64(-1)));
        QCOMPARE(pairOf(old, QStringLiteral("memory_bytes")), qMakePair(m_oldBefore, qint64(-1)));

        const QJsonObject big = changeOf(m_diff, QStringLiteral("big:"));
        QCOMPARE(big[QStringLiteral("status")].toString(), QStringLiteral("grown"));
        QCOMPARE(pairOf(big, QStringLiteral("keys")), qMakePair(qint64(2), qint64(2)));
        QCOMPARE(big[QStringLiteral("memory_delta_bytes")].toInteger(), m_hashAfter - m_hashBefore);

        const QJsonObject fresh = changeOf(m_diff, QStringLiteral("fresh:"));
        QCOMPARE(fresh[QStringLiteral("status")].toString(), QStringLiteral("new"));
        QCOMPARE(pairOf(fresh, QStringLiteral("keys")), qMakePair(qint64(-1), qint64(10)));
        QCOMPARE(pairOf(fresh, QStringLiteral("memory_bytes")), qMakePair(qint64(-1), m_fresh));

        const QJsonObject user = changeOf(m_diff, QStringLiteral("user:"));
        QCOMPARE(user[QStringLiteral("status")].toString(), QStringLiteral("same"));
        QCOMPARE(m_diff[QStringLiteral("caveats")].toArray().size(), 0);
    }

    void biggestChangeComesFirst()
    {
        const QJsonArray changes = m_diff[QStringLiteral("changes")].toArray();
        QVERIFY(changes.size() >= 5);
        qint64 previous = std::numeric_limits<qint64>::max();
        for (const QJsonValue value : changes) {
            const qint64 size = std::abs(value.toObject()[QStringLiteral("memory_delta_bytes")].toInteger());
            QVERIFY(size <= previous);
            previous = size;
        }
    }

    void twoFilesCompareAsTheScanDid()
    {
        const auto files = test::runCli(
            {QStringLiteral("diff"), m_before, m_after, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(files.exitCode, 0);
        const QJsonObject diff = QJsonDocument::fromJson(files.out).object();
        QCOMPARE(diff[QStringLiteral("changes")], m_diff[QStringLiteral("changes")]);
        // A JSON report is read as the earlier side too: the same namespaces, the same figures.
        const auto fromJson = test::runCli(
            {QStringLiteral("diff"), m_beforeJson, m_after, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(fromJson.exitCode, 0);
        const QJsonObject jsonDiff = QJsonDocument::fromJson(fromJson.out).object();
        for (const QString& path : {QStringLiteral("session:"), QStringLiteral("old:"), QStringLiteral("big:")})
            QCOMPARE(changeOf(jsonDiff, path)[QStringLiteral("memory_bytes")],
                     changeOf(m_diff, path)[QStringLiteral("memory_bytes")]);
        // The text says the same in words.
        const auto text = test::runCli({QStringLiteral("diff"), m_before, m_after});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("session:"));
        QVERIFY(text.out.contains("+10,000"));
        QVERIFY(text.out.contains("gone"));
    }

    void theGrowthGateFailsOnlyPastItsThresholds()
    {
        const QJsonObject session = changeOf(m_diff, QStringLiteral("session:"));
        const double growth = session[QStringLiteral("memory_growth_percent")].toDouble();
        const qint64 delta = session[QStringLiteral("memory_delta_bytes")].toInteger();
        const qint64 bigDelta =
            changeOf(m_diff, QStringLiteral("big:"))[QStringLiteral("memory_delta_bytes")].toInteger();
        const qint64 largest = std::max({delta, bigDelta, m_fresh});
        const auto gate = [&](const QString& threshold) {
            return test::runCli(
                       {QStringLiteral("diff"), m_before, m_after, QStringLiteral("--fail-on-growth"), threshold})
                .exitCode;
        };
        QCOMPARE(gate(QStringLiteral("%1:%2").arg(growth - 1).arg(delta - 1)), 1);
        // Above every namespace's growth in bytes: nothing passes, whatever the percentage.
        QCOMPARE(gate(QStringLiteral("0:%1").arg(largest)), 0);
        const auto json =
            test::runCli({QStringLiteral("diff"), m_before, m_after, QStringLiteral("--format"), QStringLiteral("json"),
                          QStringLiteral("--fail-on-growth"), QStringLiteral("%1:%2").arg(growth - 1).arg(delta - 1)});
        QCOMPARE(json.exitCode, 1);
        const QJsonArray exceeded = QJsonDocument::fromJson(json.out)
                                        .object()[QStringLiteral("growth_gate")]
                                        .toObject()[QStringLiteral("exceeded")]
                                        .toArray();
        QVERIFY(exceeded.contains(QStringLiteral("session:")));
        QCOMPARE(gate(QStringLiteral("plenty")), 2);
    }

    void badSnapshotsEndWithExitTwoAndWriteNothing_data()
    {
        QFile good(m_before);
        QVERIFY(good.open(QIODevice::ReadOnly));
        const QByteArray bytes = good.readAll();
        QTest::addColumn<QByteArray>("contents");
        QTest::addColumn<QString>("says");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("empty");
        QTest::newRow("truncated") << bytes.first(bytes.size() / 2) << QStringLiteral("damaged");
        QByteArray flipped = bytes;
        flipped[bytes.size() / 2] = char(flipped[bytes.size() / 2] ^ 0xff);
        QTest::newRow("damaged") << flipped << QStringLiteral("damaged");
        QTest::newRow("not a snapshot") << QByteArray("PK\x03\x04 a zip file") << QStringLiteral("neither");
        QTest::newRow("other json") << QByteArray("{\"a\": 1}") << QStringLiteral("not a keylens-cli scan report");
    }
    void badSnapshotsEndWithExitTwoAndWriteNothing()
    {
        QFETCH(QByteArray, contents);
        QFETCH(QString, says);
        const QString bad = file(QStringLiteral("bad.kls"));
        QFile out(bad);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(contents);
        out.close();
        const QString output = file(QStringLiteral("never-written.txt"));
        for (const QStringList& order : {QStringList{bad, m_after}, QStringList{m_before, bad}}) {
            const auto run = test::runCli(QStringList{QStringLiteral("diff")} + order +
                                          QStringList{QStringLiteral("--output"), output});
            QCOMPARE(run.exitCode, 2);
            QVERIFY2(run.err.contains(says.toUtf8()), run.err.constData());
            QVERIFY(run.err.contains(bad.toUtf8()));
            QVERIFY(!QFile::exists(output));
        }
    }

    void aFutureVersionIsNamed()
    {
        // The snapshot with the next format version, as a newer Keylens would write it: refused by name.
        QFile good(m_before);
        QVERIFY(good.open(QIODevice::ReadOnly));
        QString error;
        QByteArray contents = *history::gunzipBytes(good.readAll(), 1 << 26, &error);
        contents[int(qstrlen("KEYLENS-SNAPSHOT\n"))] = char(history::SnapshotFormatVersion + 1);
        const QString future = file(QStringLiteral("future.kls"));
        QFile out(future);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(history::gzipBytes(contents));
        out.close();
        const auto run = test::runCli({QStringLiteral("diff"), future, m_after});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("newer Keylens"), run.err.constData());
    }

    // A user denied MEMORY USAGE scans with 0 bytes everywhere: no namespace "shrinks" for that, the header says why
    // memory is not compared, and a growth gate that cannot look fails rather than passes.
    void aScanWithoutMemoryIsJudgedByKeys()
    {
        test::PlainClient client(m_server.port());
        client.command({"ACL", "SETUSER", "nomemory", "on", ">pw", "~*", "+@all", "-memory"});
        const QString uri = QStringLiteral("redis://nomemory:pw@127.0.0.1:%1").arg(m_port);
        const auto run = test::runCli({QStringLiteral("diff"), m_before, uri, QStringLiteral("--format"),
                                       QStringLiteral("json"), QStringLiteral("--no-auth-warning")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject diff = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(diff[QStringLiteral("memory_compared")].toBool(true), false);
        QVERIFY(diff[QStringLiteral("caveats")].toArray().last().toString().contains(QStringLiteral("MEMORY USAGE")));
        QCOMPARE(changeOf(diff, QStringLiteral("session:"))[QStringLiteral("status")].toString(),
                 QStringLiteral("grown"));
        QCOMPARE(changeOf(diff, QStringLiteral("user:"))[QStringLiteral("status")].toString(), QStringLiteral("same"));
        const auto gate = test::runCli({QStringLiteral("diff"), m_before, uri, QStringLiteral("--fail-on-growth"),
                                        QStringLiteral("1000"), QStringLiteral("--no-auth-warning")});
        QCOMPARE(gate.exitCode, 1);
        QVERIFY2(gate.err.contains("cannot be checked"), gate.err.constData());
    }

    void aSecondServerIsSaidSo()
    {
        demo::RedisServerProcess other;
        KEYLENS_START_SERVER(other);
        test::PlainClient client(other.port());
        QCOMPARE(client.pipeline({{"SET", "session:1", "x"}}), std::size_t(0));
        const auto run =
            test::runCli({QStringLiteral("diff"), m_before, QStringLiteral("-p"), QString::number(other.port()),
                          QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(run.exitCode, 0);
        const QJsonArray caveats = QJsonDocument::fromJson(run.out).object()[QStringLiteral("caveats")].toArray();
        QVERIFY(!caveats.isEmpty());
        QVERIFY(caveats[0].toString().contains(QStringLiteral("different servers")));
    }
};

QTEST_GUILESS_MAIN(TestDiff)
#include "tst_diff.moc"
