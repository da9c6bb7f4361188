// Servers that deny or lack commands: the scan goes on where it can and says what it could not do.
#include "PlainClient.h"
#include "ScanHelper.h"
#include "TestServer.h"
#include "keyspace/Keyspace.h"

#include <QTest>

using namespace keylens;

class TestDegradedScan : public QObject
{
    Q_OBJECT

    static void fill(quint16 port, const QByteArray& password = {})
    {
        test::PlainClient client(port, {}, password);
        QVERIFY(client.isConnected());
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 0; i < 3000; ++i)
            commands.push_back({"SET", (i % 3 ? "allowed:" : "secret:") + QByteArray::number(i), "v"});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
    }

    static bool mentions(const scan::ScanSummary& summary, const QString& text)
    {
        for (const QString& notice : summary.notices) {
            if (notice.contains(text))
                return true;
        }
        return false;
    }

private Q_SLOTS:
    void aclDeniesMemory()
    {
        demo::RedisServerProcess server;
        demo::RedisServerProcess::Options options;
        options.configText = "user limited on >pw ~* &* +@all -memory\n";
        KEYLENS_START_SERVER(server, options);
        fill(server.port());

        keyspace::Keyspace store;
        scan::ScanOptions scan;
        scan.connection = server.connectionOptions();
        scan.connection.user = "limited";
        scan.connection.password = "pw";
        scan.connection.hasPassword = true;
        const auto result = test::scanInto(store, scan);
        QVERIFY(result.summary.complete);
        QVERIFY(!result.summary.error);
        QVERIFY(!result.summary.memoryMeasured);
        QVERIFY(mentions(result.summary, QStringLiteral("NOPERM")));
        QVERIFY(mentions(result.summary, QStringLiteral("MEMORY USAGE")));
        QCOMPARE(store.keyCount(), 3000u);
        // Not measured is not zero: every key is counted as unmeasured.
        QCOMPARE(store.stats(keyspace::Keyspace::root()).keysMemoryUnmeasured, 3000u);
        QCOMPARE(store.stats(keyspace::Keyspace::root()).memoryBytes, 0u);
    }

    void memoryRenamedAway()
    {
        demo::RedisServerProcess server;
        demo::RedisServerProcess::Options options;
        options.configText = "rename-command MEMORY \"\"\n";
        KEYLENS_START_SERVER(server, options);
        fill(server.port());

        keyspace::Keyspace store;
        scan::ScanOptions scan;
        scan.connection = server.connectionOptions();
        const auto result = test::scanInto(store, scan);
        QVERIFY(result.summary.complete);
        QVERIFY(!result.summary.memoryMeasured);
        QVERIFY(mentions(result.summary, QStringLiteral("does not offer MEMORY USAGE")));
        QCOMPARE(store.keyCount(), 3000u);
    }

    void scanRenamedAwayIsAClearError()
    {
        demo::RedisServerProcess server;
        demo::RedisServerProcess::Options options;
        options.configText = "rename-command SCAN \"\"\n";
        KEYLENS_START_SERVER(server, options);
        fill(server.port());

        keyspace::Keyspace store;
        scan::ScanOptions scan;
        scan.connection = server.connectionOptions();
        const auto result = test::scanInto(store, scan);
        QVERIFY(result.finished);
        QVERIFY(!result.summary.complete);
        QVERIFY(result.summary.error);
        QCOMPARE(result.summary.error->kind, redis::ErrorKind::UnknownCommand);
        QVERIFY(result.summary.error->message.contains(QStringLiteral("SCAN")));
    }

    void aclKeyPatternsLeaveKeysUninspected()
    {
        demo::RedisServerProcess server;
        demo::RedisServerProcess::Options options;
        options.configText = "user partial on >pw ~allowed:* &* +@all -dbsize -info\n";
        KEYLENS_START_SERVER(server, options);
        fill(server.port());

        keyspace::Keyspace store;
        scan::ScanOptions scan;
        scan.connection = server.connectionOptions();
        scan.connection.user = "partial";
        scan.connection.password = "pw";
        scan.connection.hasPassword = true;
        const auto result = test::scanInto(store, scan);
        QVERIFY(result.summary.complete);
        // SCAN lists every key; TYPE and PTTL are denied for the 1000 secret:* keys.
        QCOMPARE(store.keyCount(), 3000u);
        QCOMPARE(result.summary.keysNotInspected, 1000u);
        QCOMPARE(store.stats(store.find("secret")).types[std::size_t(keyspace::KeyType::Unknown)], 1000u);
        QCOMPARE(store.stats(store.find("allowed")).types[std::size_t(keyspace::KeyType::String)], 2000u);
        QVERIFY(mentions(result.summary, QStringLiteral("TYPE is denied")));
        // DBSIZE and INFO were denied too: missing, with a notice, not zero.
        QVERIFY(!result.summary.server.dbsize);
        QVERIFY(result.summary.server.redisVersion.isEmpty());
        QVERIFY(mentions(result.summary, QStringLiteral("DBSIZE")));
    }
};

QTEST_GUILESS_MAIN(TestDegradedScan)
#include "tst_degradedscan.moc"
