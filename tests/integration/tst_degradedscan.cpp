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

    static void fill(quint16 port)
    {
        test::PlainClient client(port);
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

    // A server with `config`, filled with 3000 keys (1000 secret:*, 2000 allowed:*), scanned as `user`.
    test::ScanResult scanServerWith(const QByteArray& config, const QByteArray& user = {},
                                    const QByteArray& password = {})
    {
        m_server = std::make_unique<demo::RedisServerProcess>();
        m_store = std::make_unique<keyspace::Keyspace>();
        demo::RedisServerProcess::Options options;
        options.configText = config;
        const redis::Status started = m_server->start(options);
        if (!started) {
            QTest::qFail(qPrintable(started.error().message), __FILE__, __LINE__);
            return {};
        }
        fill(m_server->port());
        scan::ScanOptions scan;
        scan.connection = m_server->connectionOptions();
        if (!user.isEmpty()) {
            scan.connection.user = user;
            scan.connection.password = password;
            scan.connection.hasPassword = true;
        }
        return test::scanInto(*m_store, scan);
    }

    std::unique_ptr<demo::RedisServerProcess> m_server;
    std::unique_ptr<keyspace::Keyspace> m_store;

private Q_SLOTS:
    void aclDeniesMemory()
    {
        const auto result = scanServerWith("user limited on >pw ~* &* +@all -memory\n", "limited", "pw");
        QVERIFY(result.summary.complete);
        QVERIFY(!result.summary.error);
        QVERIFY(!result.summary.memoryMeasured);
        QVERIFY(mentions(result.summary, QStringLiteral("NOPERM")));
        QVERIFY(mentions(result.summary, QStringLiteral("MEMORY USAGE")));
        QCOMPARE(m_store->keyCount(), 3000u);
        // Not measured is not zero: every key is counted as unmeasured.
        QCOMPARE(m_store->stats(keyspace::Keyspace::root()).keysMemoryUnmeasured, 3000u);
        QCOMPARE(m_store->stats(keyspace::Keyspace::root()).memoryBytes, 0u);
    }

    void memoryRenamedAway()
    {
        const auto result = scanServerWith("rename-command MEMORY \"\"\n");
        QVERIFY(result.summary.complete);
        QVERIFY(!result.summary.memoryMeasured);
        QVERIFY(mentions(result.summary, QStringLiteral("does not offer MEMORY USAGE")));
        QCOMPARE(m_store->keyCount(), 3000u);
    }

    void scanRenamedAwayIsAClearError()
    {
        const auto result = scanServerWith("rename-command SCAN \"\"\n");
        QVERIFY(result.finished);
        QVERIFY(!result.summary.complete);
        QVERIFY(result.summary.error);
        QCOMPARE(result.summary.error->kind, redis::ErrorKind::UnknownCommand);
        QVERIFY(result.summary.error->message.contains(QStringLiteral("SCAN")));
    }

    void aclKeyPatternsLeaveKeysUninspected()
    {
        const auto result = scanServerWith("user partial on >pw ~allowed:* &* +@all -dbsize -info\n", "partial", "pw");
        QVERIFY(result.summary.complete);
        // SCAN lists every key; TYPE and PTTL are denied for the 1000 secret:* keys.
        QCOMPARE(m_store->keyCount(), 3000u);
        QCOMPARE(result.summary.keysNotInspected, 1000u);
        QCOMPARE(m_store->stats(m_store->find("secret")).types[std::size_t(keyspace::KeyType::Unknown)], 1000u);
        QCOMPARE(m_store->stats(m_store->find("allowed")).types[std::size_t(keyspace::KeyType::String)], 2000u);
        QVERIFY(mentions(result.summary, QStringLiteral("TYPE is denied")));
        // MEMORY is allowed for the keys the user may see: measured there, counted as unmeasured elsewhere.
        QVERIFY(result.summary.memoryMeasured);
        QVERIFY(m_store->stats(m_store->find("allowed")).memoryBytes > 0);
        QCOMPARE(m_store->stats(m_store->find("allowed")).keysMemoryUnmeasured, 0u);
        QCOMPARE(m_store->stats(m_store->find("secret")).keysMemoryUnmeasured, 1000u);
        QVERIFY(mentions(result.summary, QStringLiteral("memory of 1,000 keys could not be measured")));
        // DBSIZE and INFO were denied too: missing, with a notice, not zero.
        QVERIFY(!result.summary.server.dbsize);
        QVERIFY(result.summary.server.redisVersion.isEmpty());
        QVERIFY(mentions(result.summary, QStringLiteral("DBSIZE")));
    }
};

QTEST_GUILESS_MAIN(TestDegradedScan)
#include "tst_degradedscan.moc"
