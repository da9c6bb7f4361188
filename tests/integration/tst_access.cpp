// Idle times and cold memory from the scan: what the server says (OBJECT IDLETIME / FREQ, asked by a plain client)
// is what the store and the report say, and the scan itself does not make keys look recently read.
#include "CliRunner.h"
#include "JsonReport.h"
#include "PlainClient.h"
#include "ScanHelper.h"
#include "TestServer.h"
#include "keyspace/AccessFigures.h"
#include "keyspace/Keyspace.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <QThread>

using namespace keylens;
using keyspace::Keyspace;

namespace {

QByteArray key(const char* ns, int i)
{
    return QByteArray(ns) + ':' + QByteArray::number(i);
}

} // namespace

class TestAccess : public QObject
{
    Q_OBJECT

    std::unique_ptr<demo::RedisServerProcess> m_server;

    quint16 startServer(const QByteArray& config = {})
    {
        m_server = test::startServerWith(config);
        return m_server ? m_server->port() : 0;
    }

    scan::ScanOptions scanOptions(std::int64_t coldAfterSeconds = scan::DefaultColdAfterSeconds) const
    {
        scan::ScanOptions options;
        options.connection = m_server->connectionOptions();
        options.coldAfterSeconds = coldAfterSeconds;
        options.measureAccess = true;
        return options;
    }

    // 40 keys in `orders:` and 40 in `sessions:` of different sizes; after 3 s, a GET of every third `orders:` key.
    static std::vector<QByteArray> writeThenReadSome(test::PlainClient& client)
    {
        std::vector<std::vector<QByteArray>> writes;
        for (int i = 0; i < 40; ++i) {
            writes.push_back({"SET", key("orders", i), QByteArray(20 + i * 30, 'o')});
            writes.push_back({"SET", key("sessions", i), QByteArray(10 + i, 's')});
        }
        if (client.pipeline(writes) != 0)
            return {};
        QThread::msleep(3200);
        std::vector<QByteArray> read;
        for (int i = 0; i < 40; i += 3) {
            client.command({"GET", key("orders", i)});
            read.push_back(key("orders", i));
        }
        return read;
    }

private Q_SLOTS:
    void coldSplitIsWhatTheTestDid()
    {
        const quint16 port = startServer();
        QVERIFY(port);
        test::PlainClient client(port);
        const std::vector<QByteArray> read = writeThenReadSome(client);
        QCOMPARE(read.size(), std::size_t(14));

        Keyspace store;
        const test::ScanResult result = test::scanInto(store, scanOptions(2));
        QVERIFY(result.summary.complete);
        QCOMPARE(result.summary.access, scan::AccessQuestion::IdleTime);

        // The truth: what a plain client's OBJECT IDLETIME and MEMORY USAGE say, key by key.
        const std::int64_t now = QDateTime::currentSecsSinceEpoch();
        for (const char* ns : {"orders", "sessions"}) {
            std::uint64_t coldBytes = 0;
            std::uint32_t coldKeys = 0;
            for (int i = 0; i < 40; ++i) {
                const QByteArray k = key(ns, i);
                const long long idle = client.integer({"OBJECT", "IDLETIME", k});
                const bool wasRead = std::find(read.begin(), read.end(), k) != read.end();
                QVERIFY2(wasRead ? idle <= 1 : idle >= 3, k.constData());
                const keyspace::KeyAccess access = store.access(store.find(k));
                QVERIFY(access.hasIdleTime());
                QVERIFY2(std::abs(std::int64_t(access.idleSecondsAt(now)) - idle) <= 1, k.constData());
                if (!wasRead) {
                    ++coldKeys;
                    coldBytes += std::uint64_t(client.integer({"MEMORY", "USAGE", k}));
                }
            }
            const keyspace::NamespaceStats stats = store.stats(store.find(ns));
            QCOMPARE(stats.keysCold, coldKeys);
            QCOMPARE(stats.coldMemoryBytes, coldBytes);
            QCOMPARE(stats.keysIdleUnknown, 0u);
        }
        // `orders:`: 14 of 40 read, so the median key is unread (idle 3 s) and so is the 90th percentile;
        // `sessions:` was never read.
        const keyspace::AccessFigures orders = keyspace::namespaceAccess(store, store.find("orders"), now);
        QVERIFY(orders.idleP50Seconds && *orders.idleP50Seconds >= 3 && *orders.idleP50Seconds <= 5);
        QVERIFY(!orders.frequencyP50);

        // A threshold moved after the scan moves the keys across it: nothing is idle for an hour.
        store.setColdAfter(3600, now);
        QCOMPARE(store.stats(Keyspace::root()).keysCold, 0u);
        QCOMPARE(store.stats(Keyspace::root()).coldMemoryBytes, std::uint64_t(0));
        store.setColdAfter(2, now);
        QCOMPARE(store.stats(Keyspace::root()).keysCold, 66u);
    }

    void twoScansDoNotResetIdleTimes()
    {
        const quint16 port = startServer();
        QVERIFY(port);
        test::PlainClient client(port);
        QCOMPARE(test::fillStringKeys(port, 500, 100, "idle:"), std::size_t(0));
        QThread::msleep(2100);
        Keyspace first;
        QVERIFY(test::scanInto(first, scanOptions()).summary.complete);
        QThread::msleep(2100);
        Keyspace second;
        QVERIFY(test::scanInto(second, scanOptions()).summary.complete);
        // Had the first scan touched a key, its last access would have moved to the first scan's time.
        const std::int64_t now = QDateTime::currentSecsSinceEpoch();
        for (const QByteArray& k : client.allKeys()) {
            const keyspace::KeyAccess a = first.access(first.find(k));
            const keyspace::KeyAccess b = second.access(second.find(k));
            QVERIFY(a.hasIdleTime() && b.hasIdleTime());
            QVERIFY2(std::abs(a.lastAccessSeconds() - b.lastAccessSeconds()) <= 1, k.constData());
            QVERIFY(b.idleSecondsAt(now) >= 4);
            QVERIFY(client.integer({"OBJECT", "IDLETIME", k}) >= 4);
        }
    }

    // Measuring does not change what is measured: a lint that measures idle times and reads big keys' lengths, then a
    // scan, still find the biggest collections as idle as a plain OBJECT IDLETIME says they were before either ran
    // (a length command is a read, which resets the LRU clock, unless the server has CLIENT NO-TOUCH).
    void lintAndScanLeaveBigKeysIdle()
    {
        const quint16 port = startServer();
        QVERIFY(port);
        test::PlainClient client(port);
        std::vector<std::vector<QByteArray>> writes;
        const std::vector<QByteArray> big{"stats:hits", "geo:points", "leaderboard", "queue:jobs", "blob:report"};
        for (int i = 0; i < 6000; ++i) {
            const QByteArray n = QByteArray::number(i);
            writes.push_back({"HSET", "stats:hits", "field" + n, n});
            writes.push_back({"SADD", "geo:points", "member" + n});
            writes.push_back({"ZADD", "leaderboard", n, "player" + n});
            writes.push_back({"RPUSH", "queue:jobs", "job" + n});
        }
        writes.push_back({"SET", "blob:report", QByteArray(64 * 1024, 'r')});
        QCOMPARE(client.pipeline(writes), std::size_t(0));
        QCOMPARE(test::fillStringKeys(port, 200, 50, "small:"), std::size_t(0));
        constexpr long long Idle = 8;
        // Waits for the server's own clock: every big key idle for 8 s.
        QTRY_VERIFY_WITH_TIMEOUT(std::all_of(big.begin(), big.end(),
                                             [&](const QByteArray& k) {
                                                 return client.integer({"OBJECT", "IDLETIME", k}) >= Idle;
                                             }),
                                 30000);
        const bool noTouch = client.command({"CLIENT", "NO-TOUCH", "OFF"}) == "OK"; // Redis 7.2+ has the mode

        const test::CliRun linted = test::runCli({QStringLiteral("lint"), m_server->uri(), QStringLiteral("--access"),
                                                  QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(linted.exitCode == 0 || linted.exitCode == 1, linted.err.constData());
        const QJsonObject lint = test::parseJson(linted.out);
        const QString notices = QString::fromUtf8(QJsonDocument(lint[QLatin1String("notices")].toArray()).toJson());
        if (noTouch) // read untouched: the big keys are judged
            QCOMPARE(lint[QLatin1String("summary")]
                         .toObject()[QLatin1String("by_rule")]
                         .toObject()[QLatin1String("big-collection")]
                         .toInt(),
                     4);
        else // not read, and said so
            QVERIFY2(notices.contains(QLatin1String("would reset the idle time this scan measured")),
                     qPrintable(notices));

        const test::CliRun scanned = test::runCli({QStringLiteral("scan"), m_server->uri(), QStringLiteral("--access"),
                                                   QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(scanned.exitCode, 0);
        const QJsonObject totals = test::parseJson(scanned.out)[QLatin1String("totals")].toObject();
        QVERIFY2(totals[QLatin1String("idle_p50_s")].toInt() >= Idle, scanned.out.constData());
        for (const QByteArray& k : big)
            QVERIFY2(client.integer({"OBJECT", "IDLETIME", k}) >= Idle, k.constData());

        // Without idle times measured, the lint reads the lengths (touching them where the server cannot help it).
        const test::CliRun plain =
            test::runCli({QStringLiteral("lint"), m_server->uri(), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(test::parseJson(plain.out)[QLatin1String("summary")]
                     .toObject()[QLatin1String("by_rule")]
                     .toObject()[QLatin1String("big-collection")]
                     .toInt(),
                 4);
    }

    void lfuServerAnswersFrequency()
    {
        const quint16 port = startServer("maxmemory-policy allkeys-lfu\n");
        QVERIFY(port);
        test::PlainClient client(port);
        QCOMPARE(test::fillStringKeys(port, 200, 0, "hot:"), std::size_t(0));
        for (int round = 0; round < 50; ++round)
            client.command({"GET", "hot:7"});
        Keyspace store;
        const test::ScanResult result = test::scanInto(store, scanOptions());
        QVERIFY(result.summary.complete);
        QCOMPARE(result.summary.access, scan::AccessQuestion::Frequency);
        for (const QByteArray& k : client.allKeys()) {
            const keyspace::KeyAccess access = store.access(store.find(k));
            QVERIFY(access.hasFrequency());
            QVERIFY(!access.hasIdleTime());
            QCOMPARE(access.frequencyCounter(), int(client.integer({"OBJECT", "FREQ", k})));
        }
        QVERIFY(store.access(store.find("hot:7")).frequencyCounter() >
                store.access(store.find("hot:8")).frequencyCounter());
        // No idle time, so nothing is cold: not measured, never 0 idle.
        const keyspace::NamespaceStats totals = store.stats(Keyspace::root());
        QCOMPARE(totals.keysIdleUnknown, 200u);
        QVERIFY(!totals.idleMeasured());
    }

    void deniedObjectIsNotMeasured_data()
    {
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<QByteArray>("user");
        QTest::newRow("acl") << QByteArray("user limited on >pw ~* &* +@all -object\n") << QByteArray("limited");
        QTest::newRow("renamed") << QByteArray("rename-command OBJECT \"\"\n") << QByteArray();
    }

    void deniedObjectIsNotMeasured()
    {
        QFETCH(QByteArray, config);
        QFETCH(QByteArray, user);
        const quint16 port = startServer(config);
        QVERIFY(port);
        QCOMPARE(test::fillStringKeys(port, 300, 0, "k:"), std::size_t(0));
        scan::ScanOptions options = scanOptions();
        if (!user.isEmpty()) {
            options.connection.user = user;
            options.connection.password = "pw";
            options.connection.hasPassword = true;
        }
        Keyspace store;
        const test::ScanResult result = test::scanInto(store, options);
        QVERIFY(result.summary.complete);
        QCOMPARE(result.summary.access, scan::AccessQuestion::None);
        QCOMPARE(store.keyCount(), std::uint64_t(300));
        const bool said = std::any_of(result.summary.notices.begin(), result.summary.notices.end(),
                                      [](const QString& n) { return n.contains(QLatin1String("OBJECT IDLETIME")); });
        QVERIFY2(said, qPrintable(result.summary.notices.join(QLatin1Char('\n'))));
        const keyspace::NamespaceStats totals = store.stats(Keyspace::root());
        QCOMPARE(totals.keysIdleUnknown, 300u);
        QCOMPARE(totals.keysCold, 0u);
        QVERIFY(!totals.idleMeasured());
        // The other questions were still asked.
        QCOMPARE(totals.keysMemoryUnmeasured, 0u);
    }

    void reportCarriesTheFigures()
    {
        const quint16 port = startServer();
        QVERIFY(port);
        test::PlainClient client(port);
        QCOMPARE(writeThenReadSome(client).size(), std::size_t(14));
        const QString uri = QStringLiteral("redis://127.0.0.1:%1").arg(port);
        const test::CliRun run =
            test::runCli({QStringLiteral("scan"), uri, QStringLiteral("--format"), QStringLiteral("json"),
                          QStringLiteral("--cold-after"), QStringLiteral("2s"), QStringLiteral("--patterns"),
                          QStringLiteral("--access")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject json = test::parseJson(run.out);
        QCOMPARE(json[QLatin1String("scan")][QLatin1String("cold_after_s")].toInt(), 2);
        QCOMPARE(json[QLatin1String("scan")][QLatin1String("access")].toString(), QStringLiteral("idletime"));
        const QJsonObject totals = json[QLatin1String("totals")].toObject();
        QCOMPARE(totals[QLatin1String("keys_idle_unknown")].toInt(), 0);
        QVERIFY(totals[QLatin1String("idle_p50_s")].toInt() >= 3);
        long long coldBytes = 0;
        for (int i = 0; i < 40; ++i) {
            if (i % 3 != 0)
                coldBytes += client.integer({"MEMORY", "USAGE", key("orders", i)});
            coldBytes += client.integer({"MEMORY", "USAGE", key("sessions", i)});
        }
        QCOMPARE(totals[QLatin1String("cold_memory_bytes")].toInteger(), coldBytes);
        bool sawOrders = false;
        for (const QJsonValue entry : json[QLatin1String("namespaces")].toArray()) {
            const QJsonObject ns = entry.toObject();
            if (ns[QLatin1String("path")].toString() != QLatin1String("orders:"))
                continue;
            sawOrders = true;
            QVERIFY(ns[QLatin1String("idle_p90_s")].toInt() >= 3);
            QCOMPARE(ns[QLatin1String("keys_idle_unknown")].toInt(), 0);
        }
        QVERIFY(sawOrders);
        bool sawPattern = false;
        for (const QJsonValue entry : json[QLatin1String("patterns")].toArray()) {
            const QJsonObject pattern = entry.toObject();
            if (pattern[QLatin1String("pattern")].toString() == QLatin1String("sessions:<int>")) {
                sawPattern = true;
                QCOMPARE(pattern[QLatin1String("keys_cold")].toInt(), 40);
            }
        }
        QVERIFY(sawPattern);

        // Left out: null, not 0.
        const test::CliRun without = test::runCli({QStringLiteral("scan"), uri, QStringLiteral("--format"),
                                                   QStringLiteral("json"), QStringLiteral("--no-access")});
        QCOMPARE(without.exitCode, 0);
        const QJsonObject none = test::parseJson(without.out)[QLatin1String("totals")].toObject();
        QVERIFY(none[QLatin1String("idle_p50_s")].isNull());
        QVERIFY(none[QLatin1String("cold_memory_bytes")].isNull());
        QVERIFY(none[QLatin1String("keys_cold")].isNull()); // unknown, not 0
        QCOMPARE(none[QLatin1String("keys_idle_unknown")].toInt(), 80);
        QVERIFY(test::parseJson(without.out)[QLatin1String("scan")][QLatin1String("access")].isNull());

        const test::CliRun bad =
            test::runCli({QStringLiteral("scan"), uri, QStringLiteral("--cold-after"), QStringLiteral("soon")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains("--cold-after"));
    }
};

QTEST_GUILESS_MAIN(TestAccess)
#include "tst_access.moc"
