// A scan that meets a server in trouble, against real redis-servers: its connection killed (CLIENT KILL), the server
// restarted on the same port (a new run_id), a Lua script that keeps it BUSY, a replica cut off from its master
// (MASTERDOWN), a server that never comes back. The scan connects again and resumes from its cursor, starts over
// when the server restarted, and says so; the store ends equal to the server's own count.
#include "PlainClient.h"
#include "ScanHelper.h"
#include "TestServer.h"
#include "scan/Scanner.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <csignal>
#include <thread>

using namespace keylens;

class TestResilience : public QObject
{
    Q_OBJECT

    static scan::ScanOptions slowScan(const demo::RedisServerProcess& server, double keysPerSecond)
    {
        scan::ScanOptions options;
        options.connection = server.connectionOptions();
        options.maxKeysPerSecond = keysPerSecond;
        return options;
    }

    // Blocks until the server has been asked about `keys` keys (it counts the scan's PTTLs), or a minute went by:
    // mid-scan, however late a loaded machine started the scan. (Fixed sleeps could end before it began.)
    static void waitUntilAsked(quint16 port, long long keys)
    {
        test::PlainClient client(port);
        QElapsedTimer clock;
        clock.start();
        while (client.commandCalls("pttl") < keys && clock.elapsed() < 60000)
            QThread::msleep(10);
    }

private Q_SLOTS:
    // CLIENT KILL of the scan's connection mid-scan: it connects again, resumes at its cursor, and stores every key
    // once.
    void connectionKilledMidScan()
    {
        demo::RedisServerProcess server;
        KEYLENS_START_SERVER(server);
        QCOMPARE(test::fillStringKeys(server.port(), 60000, 0, "k:"), std::size_t(0));
        std::thread killer([&] {
            waitUntilAsked(server.port(), 20000); // a third of the keys
            test::PlainClient client(server.port());
            client.command({"CLIENT", "KILL", "TYPE", "normal"}); // SKIPME yes: not this client
        });
        keyspace::Keyspace store;
        const test::ScanResult result = test::scanInto(store, slowScan(server, 30000));
        killer.join();
        QVERIFY2(!result.summary.error, result.summary.error ? qPrintable(result.summary.error->message) : "");
        QVERIFY(result.summary.complete);
        QVERIFY(result.summary.reconnects >= 1);
        QVERIFY(!result.summary.serverRestarted);
        QCOMPARE(store.keyCount(), std::size_t(60000));
        QVERIFY(result.summary.notices.join(u'\n').contains(QStringLiteral("resumed")));
        // Resumed, not started over: far fewer keys seen than two whole passes.
        QVERIFY2(result.summary.keysSeen < 60000 + 30000, qPrintable(QString::number(result.summary.keysSeen)));
    }

    // The server restarts on the same port with other keys (loaded from an RDB file, so they are all there when it
    // answers): a new run_id, so the scan starts over and says so; and since the keys stored before are gone from
    // it, the scan ends partial with the reason.
    void serverRestartedMidScan()
    {
        QTemporaryDir rdb;
        {
            demo::RedisServerProcess seeder;
            KEYLENS_START_SERVER(seeder);
            QCOMPARE(test::fillStringKeys(seeder.port(), 20000, 0, "new:"), std::size_t(0));
            test::PlainClient client(seeder.port());
            QCOMPARE(client.command({"SAVE"}), QByteArray("OK")); // dump.rdb, the default file name
            QVERIFY(
                QFile::copy(seeder.directory() + QStringLiteral("/dump.rdb"), rdb.filePath(QStringLiteral("new.rdb"))));
        }
        demo::RedisServerProcess first;
        KEYLENS_START_SERVER(first);
        QCOMPARE(test::fillStringKeys(first.port(), 40000, 0, "old:"), std::size_t(0));
        const quint16 port = first.port();
        demo::RedisServerProcess second;
        // On this thread, whose event loop runs while scanInto() waits: the server process belongs to it.
        bool restarted = false;
        // Killed once it has been asked about a quarter of the keys (its PTTLs, counted by the server: mid-scan however
        // late a loaded machine started the scan), back 200 ms later.
        test::PlainClient watcher(port);
        QTimer midScan;
        midScan.setInterval(10);
        connect(&midScan, &QTimer::timeout, this, [&] {
            if (watcher.commandCalls("pttl") < 10000)
                return;
            midScan.stop();
            ::kill(pid_t(first.processId()), SIGKILL);
            QTimer::singleShot(200, this, [&] {
                demo::RedisServerProcess::Options options;
                options.port = port;
                options.rdbDirectory = rdb.path();
                options.rdbFilename = QStringLiteral("new.rdb");
                restarted = second.start(options).ok();
            });
        });
        midScan.start();
        keyspace::Keyspace store;
        scan::ScanOptions options = slowScan(first, 20000);
        const test::ScanResult result = test::scanInto(store, options);
        QVERIFY(restarted);
        // The old keys stored before the restart are gone from the server: the scan is not complete, and says why.
        QVERIFY(result.summary.error);
        QVERIFY2(result.summary.error->message.contains(QStringLiteral("restarted with another keyspace")),
                 qPrintable(result.summary.error->message));
        QVERIFY(!result.summary.complete);
        QVERIFY(result.summary.serverRestarted);
        QVERIFY(result.summary.notices.join(u'\n').contains(QStringLiteral("restarted")));
        // Every key of the new server is there; keys of the old one stay, as the notice says (stale until a rescan).
        test::PlainClient client(port);
        const std::vector<QByteArray> keys = client.allKeys();
        QCOMPARE(keys.size(), std::size_t(20000));
        for (const QByteArray& key : keys)
            QVERIFY2(store.find(key) != keyspace::InvalidNode, key.constData());
        // The old server's keys scanned before the restart are still in the store: stale, as the notice says.
        QVERIFY(store.keyCount() > 20000);
    }

    // A script keeps the server BUSY for about 1.5 s: the scan waits, connects again and finishes.
    void busyServerMidScan()
    {
        demo::RedisServerProcess server;
        demo::RedisServerProcess::Options serverOptions;
        serverOptions.configText = "busy-reply-threshold 100\n";
        KEYLENS_START_SERVER(server, serverOptions);
        QCOMPARE(test::fillStringKeys(server.port(), 40000, 0, "k:"), std::size_t(0));
        std::thread busy([&] {
            waitUntilAsked(server.port(), 10000); // a quarter of the keys
            test::PlainClient client(server.port());
            client.command({"EVAL", "local i = 0 while i < 100000000 do i = i + 1 end return i", "0"});
        });
        keyspace::Keyspace store;
        const test::ScanResult result = test::scanInto(store, slowScan(server, 20000));
        busy.join();
        QVERIFY2(!result.summary.error, result.summary.error ? qPrintable(result.summary.error->message) : "");
        QVERIFY(result.summary.complete);
        QVERIFY(result.summary.reconnects >= 1);
        QCOMPARE(store.keyCount(), std::size_t(40000));
    }

    // A server that does not come back: the scan gives up after its attempts, keeps what it stored, and says why.
    void serverGoneForGood()
    {
        demo::RedisServerProcess server;
        KEYLENS_START_SERVER(server);
        QCOMPARE(test::fillStringKeys(server.port(), 40000, 0, "k:"), std::size_t(0));
        std::thread killer([&] {
            waitUntilAsked(server.port(), 10000); // a quarter of the keys
            ::kill(pid_t(server.processId()), SIGKILL);
        });
        keyspace::Keyspace store;
        scan::ScanOptions options = slowScan(server, 20000);
        options.reconnectAttempts = 2;
        const test::ScanResult result = test::scanInto(store, options);
        killer.join();
        QVERIFY(!result.summary.complete);
        QVERIFY(result.summary.error);
        QVERIFY2(result.summary.error->message.contains(QStringLiteral("gave up after 2 attempts")),
                 qPrintable(result.summary.error->message));
        QVERIFY(store.keyCount() > 0 && store.keyCount() < 40000);
    }

    // A replica cut off from its master with replica-serve-stale-data no answers MASTERDOWN: a clear failure, after
    // the attempts, that names it.
    void replicaWithoutItsMaster()
    {
        demo::RedisServerProcess replica;
        demo::RedisServerProcess::Options options;
        options.configText =
            "replicaof 127.0.0.1 " + QByteArray::number(test::freeLoopbackPort()) + "\nreplica-serve-stale-data no\n";
        KEYLENS_START_SERVER(replica, options);
        keyspace::Keyspace store;
        scan::ScanOptions scanOptions = slowScan(replica, 0);
        scanOptions.reconnectAttempts = 1;
        const test::ScanResult result = test::scanInto(store, scanOptions);
        QVERIFY(result.summary.error);
        QCOMPARE(result.summary.error->kind, redis::ErrorKind::Busy);
        QVERIFY2(result.summary.error->message.contains(QStringLiteral("MASTERDOWN")),
                 qPrintable(result.summary.error->message));
    }
};

QTEST_GUILESS_MAIN(TestResilience)
#include "tst_resilience.moc"
