// The scan's numbers against the server's own answers, key by key, on a 100k-key keyspace with every
// type, TTLs, binary names, keys that are namespaces too, empty segments and a 16 KB key name.
#include "PlainClient.h"
#include "ScanHelper.h"
#include "TestServer.h"
#include "keyspace/Keyspace.h"

#include <QDateTime>
#include <QTest>

#include <atomic>
#include <map>
#include <thread>

using namespace keylens;

class TestScanAccuracy : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    QByteArray m_hugeKey;

    void seed()
    {
        test::PlainClient client(m_server.port());
        QVERIFY(client.isConnected());
        std::vector<std::vector<QByteArray>> commands;
        const auto flush = [&] {
            QCOMPARE(client.pipeline(commands), std::size_t(0));
            commands.clear();
        };
        const auto add = [&](std::vector<QByteArray> command) {
            commands.push_back(std::move(command));
            if (commands.size() >= 5000)
                flush();
        };
        for (int i = 0; i < 40000; ++i)
            add({"HSET", "user:" + QByteArray::number(i) + ":profile", "name", "n" + QByteArray::number(i), "age",
                 QByteArray::number(i % 90)});
        for (int i = 0; i < 20000; ++i)
            add({"SET", "session:" + QByteArray::number(i), QByteArray(20 + i % 50, 's'), "EX",
                 QByteArray::number(3600 + i % 600)});
        for (int i = 0; i < 15000; ++i) {
            if (i % 2)
                add({"SET", "cache:q:" + QByteArray::number(i), QByteArray(i % 300, 'c'), "PX",
                     QByteArray::number(900000 + i)});
            else
                add({"SET", "cache:q:" + QByteArray::number(i), QByteArray(i % 300, 'c')});
        }
        for (int i = 0; i < 10000; ++i)
            add({"RPUSH", "queue:jobs:" + QByteArray::number(i), "a", "b", QByteArray::number(i)});
        for (int i = 0; i < 8000; ++i)
            add({"SADD", "tag:" + QByteArray::number(i % 100) + ":" + QByteArray::number(i), "x", "y"});
        for (int i = 0; i < 5000; ++i)
            add({"ZADD", "rank:" + QByteArray::number(i), "1", "a", "2", "b"});
        for (int i = 0; i < 500; ++i)
            add({"XADD", "events:" + QByteArray::number(i), "*", "k", "v"});
        for (int i = 0; i < 2000; ++i) {
            QByteArray key("bin\xff:", 5);
            key.append(char(i % 256)).append('\0').append(':').append(QByteArray::number(i));
            add({"SET", key, "binary"});
        }
        for (int i = 0; i < 500; ++i)
            add({"SET", "loose" + QByteArray::number(i), "v"});
        for (int i = 0; i < 200; ++i) {
            add({"SET", ":lead:" + QByteArray::number(i), "v"});
            add({"SET", "trail:" + QByteArray::number(i) + ":", "v"});
            add({"SET", "user:" + QByteArray::number(i), "also a namespace"});
        }
        add({"SET", "", "the empty key"});
        add({"HSET", "bighash", "f", QByteArray(50000, 'h')});
        m_hugeKey = "huge:";
        for (int i = 0; i < 16 * 1024; ++i)
            m_hugeKey.append(char(i % 256));
        add({"SET", m_hugeKey, "a 16 KB name"});
        flush();
    }

private Q_SLOTS:
    void initTestCase()
    {
        KEYLENS_START_SERVER(m_server);
        seed();
    }

    // At both speeds: the gentle scan's rounds of 32 keys and one request in flight find the same keys and facts.
    void scanMatchesTheServerKeyByKey_data()
    {
        QTest::addColumn<bool>("gentle");
        QTest::newRow("full") << false;
        QTest::newRow("gentle") << true;
    }
    void scanMatchesTheServerKeyByKey()
    {
        QFETCH(bool, gentle);
        test::PlainClient truthClient(m_server.port());
        const long long dbsize = truthClient.integer({"DBSIZE"});
        QVERIFY(dbsize >= 100000);

        keyspace::Keyspace store;
        scan::ScanOptions options;
        options.connection = m_server.connectionOptions();
        options.speed = gentle ? scan::ScanSpeed::Gentle : scan::ScanSpeed::Full;
        const test::ScanResult result = test::scanInto(store, options);
        QVERIFY(result.finished);
        QCOMPARE(result.summary.speed, options.speed);
        // SCAN COUNT 100 gently, 1000 at full speed: the number of SCAN calls tells the rounds apart.
        if (gentle)
            QVERIFY2(result.summary.scanCalls > std::uint64_t(dbsize) / 200,
                     qPrintable(QString::number(result.summary.scanCalls)));
        else
            QVERIFY(result.summary.scanCalls < std::uint64_t(dbsize) / 500);
        QVERIFY2(!result.summary.error, result.summary.error ? qPrintable(result.summary.error->message) : "");
        QVERIFY(result.summary.complete);
        QVERIFY(result.summary.memoryMeasured);
        QCOMPARE(result.summary.vanished, 0u);
        QCOMPARE(result.summary.server.dbsize.value_or(-1), dbsize);
        QVERIFY(!result.summary.server.redisVersion.isEmpty());
        QCOMPARE(std::int64_t(store.keyCount()), dbsize);

        const std::int64_t now = QDateTime::currentMSecsSinceEpoch();
        const auto truth = truthClient.inspectAll();
        QCOMPARE(std::int64_t(truth.size()), dbsize);

        // Every key, byte for byte, with the server's type, TTL and memory.
        std::map<QByteArray, std::pair<std::uint64_t, std::uint64_t>> firstLevel, secondLevel; // keys, memory
        for (const auto& [key, facts] : truth) {
            const keyspace::NodeId node = store.find(key);
            QVERIFY2(node != keyspace::InvalidNode && store.isKey(node), key.left(40).toHex().constData());
            QCOMPARE(store.path(node), key);
            const keyspace::KeyInfo info = store.keyInfo(node);
            QCOMPARE(keyspace::keyTypeName(info.type).toByteArray(), facts.type);
            QCOMPARE(std::int64_t(info.memoryBytes), std::int64_t(facts.memory));
            QCOMPARE(info.expiresAtMs != keyspace::NoExpiry, facts.pttl >= 0);
            if (facts.pttl >= 0)
                QVERIFY(std::abs(info.expiresAtMs - (now + facts.pttl)) < 60'000);

            // Namespaces computed the plain way: every prefix up to a ':' (first and second level).
            const qsizetype first = key.indexOf(':');
            if (first >= 0) {
                auto& bucket = firstLevel[key.left(first)];
                ++bucket.first;
                bucket.second += std::uint64_t(facts.memory);
                const qsizetype second = key.indexOf(':', first + 1);
                if (second >= 0) {
                    auto& inner = secondLevel[key.left(second)];
                    ++inner.first;
                    inner.second += std::uint64_t(facts.memory);
                }
            }
        }
        QVERIFY(firstLevel.size() > 8);
        QVERIFY(secondLevel.size() > 1000);
        for (const auto* level : {&firstLevel, &secondLevel}) {
            for (const auto& [path, expected] : *level) {
                const keyspace::NodeId node = store.find(path);
                QVERIFY(node != keyspace::InvalidNode);
                QCOMPARE(std::uint64_t(store.stats(node).keys), expected.first);
                QCOMPARE(store.stats(node).memoryBytes, expected.second);
            }
        }
        // The namespace `user:` is what SCAN MATCH user:* returns, by the server's own count.
        QCOMPARE(std::uint64_t(store.stats(store.find("user")).keys),
                 std::uint64_t(truthClient.allKeys("user:*").size()));
        QVERIFY(store.isKey(store.find(m_hugeKey)));
        QCOMPARE(store.path(store.find(m_hugeKey)).size(), m_hugeKey.size());
    }

    // A gentle scan watches its round trips: while another client keeps the server busy (a Lua loop of about half a
    // second, three times), its rounds take far longer than before, it backs off, and it still finds every key.
    void gentleScanBacksOffWhileTheServerIsBusy()
    {
        test::PlainClient truthClient(m_server.port());
        const long long dbsize = truthClient.integer({"DBSIZE"});
        std::atomic<bool> scanning{true};
        std::thread busy([&] {
            test::PlainClient client(m_server.port());
            QTest::qSleep(300);
            for (int i = 0; i < 3 && scanning; ++i) {
                client.command({"EVAL", "local i = 0 while i < 10000000 do i = i + 1 end return i", "0"});
                QTest::qSleep(100);
            }
        });
        keyspace::Keyspace store;
        scan::ScanOptions options;
        options.connection = m_server.connectionOptions();
        options.speed = scan::ScanSpeed::Gentle;
        options.maxKeysPerSecond = 20000; // still scanning when the loops run
        const test::ScanResult result = test::scanInto(store, options);
        scanning = false;
        busy.join();
        QVERIFY(result.summary.complete);
        QVERIFY2(result.summary.backoffs > 0, "the latency guard never backed off");
        QCOMPARE(std::int64_t(store.keyCount()), dbsize);
    }

    void matchAndTypeFilters()
    {
        keyspace::Keyspace store;
        scan::ScanOptions options;
        options.connection = m_server.connectionOptions();
        options.match = "tag:1*";
        options.type = "set";
        const test::ScanResult result = test::scanInto(store, options);
        QVERIFY(result.summary.complete);
        test::PlainClient truthClient(m_server.port());
        QCOMPARE(std::size_t(store.keyCount()), truthClient.allKeys("tag:1*").size());
        QCOMPARE(store.stats(keyspace::Keyspace::root()).types[std::size_t(keyspace::KeyType::Set)],
                 std::uint32_t(store.keyCount()));
    }

    void withoutMemory()
    {
        keyspace::Keyspace store;
        scan::ScanOptions options;
        options.connection = m_server.connectionOptions();
        options.measureMemory = false;
        options.match = "rank:*";
        const test::ScanResult result = test::scanInto(store, options);
        QVERIFY(result.summary.complete);
        QVERIFY(!result.summary.memoryMeasured);
        QCOMPARE(store.stats(keyspace::Keyspace::root()).memoryBytes, 0u);
        QCOMPARE(store.stats(keyspace::Keyspace::root()).keysMemoryUnmeasured, std::uint32_t(store.keyCount()));
        QCOMPARE(store.keyCount(), 5000u);
    }

    void otherDatabase()
    {
        test::PlainClient client(m_server.port());
        QCOMPARE(client.command({"SELECT", "3"}), QByteArray("OK"));
        QCOMPARE(client.command({"SET", "only:in:three", "1"}), QByteArray("OK"));
        keyspace::Keyspace store;
        scan::ScanOptions options;
        options.connection = m_server.connectionOptions();
        options.connection.db = 3;
        const test::ScanResult result = test::scanInto(store, options);
        QVERIFY(result.summary.complete);
        QCOMPARE(store.keyCount(), 1u);
        QCOMPARE(result.summary.server.db, 3);
    }
};

QTEST_GUILESS_MAIN(TestScanAccuracy)
#include "tst_scanaccuracy.moc"
