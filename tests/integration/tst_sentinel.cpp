// Redis Sentinel against real processes: a master, its replica and a sentinel (redis-server --sentinel) on loopback.
// redis+sentinel:// URIs find the master through the sentinels; an unknown master name and dead sentinels say so;
// after a failover the test forces, connecting again finds the new master, and a scan that lost its connection to
// the old one finishes on the new one.
#include "PlainClient.h"
#include "ScanHelper.h"
#include "TestServer.h"
#include "redis/Connection.h"

#include <QTest>

#include <thread>

using namespace keylens;
using redis::ErrorKind;

class TestSentinel : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_master;
    demo::RedisServerProcess m_replica;
    demo::RedisServerProcess m_sentinel;
    static constexpr int Keys = 30000;

    QByteArray sentinelUri(const QByteArray& master = "mymaster") const
    {
        return "redis+sentinel://127.0.0.1:" + QByteArray::number(m_sentinel.port()) + "/" + master;
    }
    redis::ConnectionOptions viaSentinel() const
    {
        auto parsed = redis::parseRedisUri(sentinelUri());
        return *parsed;
    }
    // The master the sentinel names now.
    quint16 namedMasterPort()
    {
        auto opened = redis::Connection::open(m_sentinel.connectionOptions());
        if (!opened)
            return 0;
        auto reply = (*opened)->command({"SENTINEL", "get-master-addr-by-name", "mymaster"});
        return reply && reply->isArray() && reply->size() == 2 ? quint16(reply->at(1).bytes().toByteArray().toUInt())
                                                               : 0;
    }

private Q_SLOTS:
    void initTestCase()
    {
        KEYLENS_START_SERVER(m_master);
        QCOMPARE(test::fillStringKeys(m_master.port(), Keys), std::size_t(0));
        demo::RedisServerProcess::Options replica;
        replica.configText = "replicaof 127.0.0.1 " + QByteArray::number(m_master.port()) + "\n";
        KEYLENS_START_SERVER(m_replica, replica);
        test::PlainClient replicaClient(m_replica.port());
        QTRY_VERIFY_WITH_TIMEOUT(replicaClient.command({"INFO", "replication"}).contains("master_link_status:up"),
                                 10000);
        QTRY_COMPARE_WITH_TIMEOUT(replicaClient.integer({"DBSIZE"}), (long long)Keys, 10000);
        demo::RedisServerProcess::Options sentinel;
        sentinel.configText = "sentinel monitor mymaster 127.0.0.1 " + QByteArray::number(m_master.port()) +
                              " 1\nsentinel down-after-milliseconds mymaster 1000\n"
                              "sentinel failover-timeout mymaster 10000\n"
                              // Known from the start, rather than from the master's INFO ten seconds later.
                              "sentinel known-replica mymaster 127.0.0.1 " +
                              QByteArray::number(m_replica.port()) + "\n";
        sentinel.extraArguments << QStringLiteral("--sentinel");
        KEYLENS_START_SERVER(m_sentinel, sentinel);
    }

    void parsesTheUri()
    {
        auto parsed =
            redis::parseRedisUri("redis+sentinel://u:p%40ss@10.0.0.1,10.0.0.2:26380,[::1]:26381/my%20master/3");
        QVERIFY2(parsed, parsed ? "" : qPrintable(parsed.error().message));
        QCOMPARE(parsed->sentinel.masterName, QByteArray("my master"));
        QCOMPARE(parsed->sentinel.sentinels.size(), std::size_t(3));
        QCOMPARE(parsed->sentinel.sentinels[0], std::pair(QStringLiteral("10.0.0.1"), quint16(26379)));
        QCOMPARE(parsed->sentinel.sentinels[1], std::pair(QStringLiteral("10.0.0.2"), quint16(26380)));
        QCOMPARE(parsed->sentinel.sentinels[2], std::pair(QStringLiteral("::1"), quint16(26381)));
        QCOMPARE(parsed->db, 3);
        QCOMPARE(parsed->user, QByteArray("u"));
        QCOMPARE(parsed->password, QByteArray("p@ss"));
        QCOMPARE(parsed->uriWithoutPassword(),
                 QStringLiteral("redis+sentinel://u@10.0.0.1:26379,10.0.0.2:26380,[::1]:26381/my%20master/3"));
        QVERIFY(!redis::parseRedisUri("redis+sentinel://10.0.0.1/"));
        QVERIFY(!redis::parseRedisUri("redis+sentinel://10.0.0.1:0/m"));
    }

    void findsTheMaster()
    {
        auto opened = redis::Connection::open(viaSentinel());
        QVERIFY2(opened, opened ? "" : qPrintable(opened.error().message));
        QCOMPARE((*opened)->options().port, m_master.port());
        auto dbsize = (*opened)->command({"DBSIZE"});
        QCOMPARE(dbsize->integer(), (long long)Keys);
    }

    void unknownMasterAndDeadSentinelsSaySo()
    {
        auto unknown = redis::Connection::open(*redis::parseRedisUri(sentinelUri("nosuch")));
        QVERIFY(!unknown);
        QCOMPARE(unknown.error().kind, ErrorKind::HostNotFound);
        QVERIFY2(unknown.error().message.contains(QStringLiteral("knows no master named 'nosuch'")),
                 qPrintable(unknown.error().message));

        const QByteArray dead = QByteArray::number(test::freeLoopbackPort());
        // A dead sentinel first: the next one answers.
        const QByteArray deadFirst =
            "redis+sentinel://127.0.0.1:" + dead + ",127.0.0.1:" + QByteArray::number(m_sentinel.port()) + "/mymaster";
        auto second = redis::Connection::open(*redis::parseRedisUri(deadFirst));
        QVERIFY2(second, second ? "" : qPrintable(second.error().message));
        // None answers: refused, naming the master and the sentinel.
        const QByteArray deadOnly = "redis+sentinel://127.0.0.1:" + dead + "/mymaster";
        auto none = redis::Connection::open(*redis::parseRedisUri(deadOnly));
        QVERIFY(!none);
        QCOMPARE(none.error().kind, ErrorKind::Refused);
        QVERIFY2(none.error().message.contains(QStringLiteral("master 'mymaster' via sentinel 127.0.0.1:") +
                                               QString::fromLatin1(dead)),
                 qPrintable(none.error().message));
    }

    // A failover mid-scan: the sentinel promotes the replica, the old master's clients are cut, and the scan connects
    // again through the sentinel to the new master (a new run_id: it starts over there) and finishes with every key.
    // A new connection afterwards goes to the new master too.
    void followsAFailover()
    {
        const quint16 oldMaster = m_master.port();
        std::atomic<bool> failedOver{false};
        std::thread failover([&] {
            QTest::qSleep(700);
            test::PlainClient sentinel(m_sentinel.port());
            for (int i = 0; i < 100 && sentinel.command({"SENTINEL", "FAILOVER", "mymaster"}) != "OK"; ++i)
                QTest::qSleep(100); // NOGOODSLAVE until the sentinel has seen the replica
            for (int i = 0; i < 200 && namedMasterPort() == oldMaster; ++i)
                QTest::qSleep(50);
            failedOver = namedMasterPort() == m_replica.port();
            // Cut the scan's connection to the old master, and only that one: the sentinel's own links must stay, or
            // it cannot finish reconfiguring.
            test::PlainClient old(oldMaster);
            for (const QByteArray& client : old.command({"CLIENT", "LIST"}).split('\n')) {
                if (client.contains(" name=keylens "))
                    old.command({"CLIENT", "KILL", "ID", client.mid(3, client.indexOf(' ') - 3)});
            }
        });
        keyspace::Keyspace store;
        scan::ScanOptions options;
        options.connection = viaSentinel();
        options.maxKeysPerSecond = 4000; // still scanning the old master when the failover is over
        const test::ScanResult result = test::scanInto(store, options);
        failover.join();
        QVERIFY(failedOver);
        QVERIFY2(!result.summary.error, result.summary.error ? qPrintable(result.summary.error->message) : "");
        QVERIFY(result.summary.complete);
        QVERIFY(result.summary.reconnects >= 1);
        QVERIFY(result.summary.serverRestarted); // another server: its cursors mean nothing there
        QCOMPARE(store.keyCount(), std::size_t(Keys));

        auto opened = redis::Connection::open(viaSentinel());
        QVERIFY2(opened, opened ? "" : qPrintable(opened.error().message));
        QCOMPARE((*opened)->options().port, m_replica.port());
        auto role = (*opened)->command({"ROLE"});
        QCOMPARE(role->at(0).bytes(), QByteArrayView("master"));
    }
};

QTEST_GUILESS_MAIN(TestSentinel)
#include "tst_sentinel.moc"
