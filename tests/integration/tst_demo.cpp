// The demo keyspace is realistic and messy as promised, and `keylens-cli demo` cleans up after itself.
#include "CliRunner.h"
#include "PlainClient.h"
#include "TestServer.h"
#include "demo/DemoKeyspace.h"
#include "redis/Connection.h"

#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <set>

using namespace keylens;

class TestDemo : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void seedsExactlyTheKeysAskedFor()
    {
        demo::RedisServerProcess server;
        KEYLENS_START_SERVER(server);
        auto connection = redis::Connection::open(server.connectionOptions());
        QVERIFY(connection.ok());
        demo::DemoOptions options;
        options.keys = 6000;
        const redis::Status seeded = demo::seedDemoKeyspace(**connection, options);
        QVERIFY2(seeded.ok(), seeded.ok() ? "" : qPrintable(seeded.error().message));

        test::PlainClient client(server.port());
        QCOMPARE(client.integer({"DBSIZE"}), 6000);
        const auto facts = client.inspectAll();
        std::set<QByteArray> types;
        int withTtl = 0, expiringSoon = 0, cacheWithoutTtl = 0, bigKeys = 0, mixedCase = 0, binary = 0,
            otherDelimiter = 0;
        for (const auto& [key, fact] : facts) {
            types.insert(fact.type);
            withTtl += fact.pttl >= 0;
            expiringSoon += fact.pttl >= 0 && fact.pttl < 60'000;
            cacheWithoutTtl += key.startsWith("cache:") && fact.pttl < 0;
            mixedCase += key != key.toLower();
            binary += key.contains('\xff') || key.contains('\xc3');
            otherDelimiter += !key.contains(':') && key.contains('_');
            if (fact.type == "string")
                bigKeys += client.integer({"STRLEN", key}) > 10 * 1024;
            else if (fact.type == "hash")
                bigKeys += client.integer({"HLEN", key}) > 5000;
            else if (fact.type == "list")
                bigKeys += client.integer({"LLEN", key}) > 5000;
            else if (fact.type == "zset")
                bigKeys += client.integer({"ZCARD", key}) > 5000;
            else if (fact.type == "set")
                bigKeys += client.integer({"SCARD", key}) > 5000;
        }
        QCOMPARE(types, (std::set<QByteArray>{"string", "hash", "list", "set", "zset", "stream"}));
        QVERIFY(withTtl > 600);
        QVERIFY(withTtl < 5000); // plenty of keys without TTL, too
        QVERIFY(expiringSoon > 0);
        QVERIFY(cacheWithoutTtl > 20);
        QVERIFY(bigKeys >= 5);
        QVERIFY(mixedCase > 20);
        QVERIFY(binary >= 2);
        QVERIFY(otherDelimiter > 20);
        QVERIFY(facts.count("key1") && facts.count("tmp"));
        bool sixteenKilobyteName = false;
        for (const auto& [key, fact] : facts)
            sixteenKilobyteName |= key.size() >= 16 * 1024;
        QVERIFY(sixteenKilobyteName);
    }

    void demoCommandStopsItsServer()
    {
        const auto run = test::runCli({QStringLiteral("demo"), QStringLiteral("--keys"), QStringLiteral("2000"),
                                       QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("\"keys\": 2000"));
        const QRegularExpressionMatch uri =
            QRegularExpression(QStringLiteral("127\\.0\\.0\\.1:(\\d+)")).match(QString::fromUtf8(run.err));
        QVERIFY(uri.hasMatch());
        redis::ConnectionOptions options;
        options.port = static_cast<quint16>(uri.captured(1).toUInt());
        auto gone = redis::Connection::open(options);
        QVERIFY(!gone.ok());
        QCOMPARE(gone.error().kind, redis::ErrorKind::Refused);
    }

    // The kept server inherits none of our output: piped into another program, the pipe ends when keylens-cli does
    // (it used to stay open as long as the server ran, and `demo --keep | tail` never ended).
    void demoKeepLeavesItRunning()
    {
        QProcess shell;
        shell.start(QStringLiteral("sh"),
                    {QStringLiteral("-c"), QStringLiteral("\"$0\" demo --keys 500 --keep 2>&1 | cat"),
                     QStringLiteral(KEYLENS_CLI_PATH)});
        QVERIFY(shell.waitForFinished(60000));
        QCOMPARE(shell.exitCode(), 0);
        const QRegularExpressionMatch uri =
            QRegularExpression(QStringLiteral("keeps running at redis://127\\.0\\.0\\.1:(\\d+)"))
                .match(QString::fromUtf8(shell.readAllStandardOutput()));
        QVERIFY(uri.hasMatch());
        test::PlainClient client(static_cast<quint16>(uri.captured(1).toUInt()));
        QVERIFY(client.isConnected());
        QCOMPARE(client.integer({"DBSIZE"}), 500);
        client.command({"SHUTDOWN", "NOSAVE"});
    }

    // Ctrl-C during the scan and during the seeding: either way the private server goes away.
    void interruptStopsTheServer_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("while scanning") << QStringList{QStringLiteral("--keys"),     QStringLiteral("20000"),
                                                       QStringLiteral("--max-rate"), QStringLiteral("2000"),
                                                       QStringLiteral("--count"),    QStringLiteral("100")}
                                        << 130;
        QTest::newRow("while seeding") << QStringList{QStringLiteral("--keys"), QStringLiteral("5000000")} << 130;
    }
    void interruptStopsTheServer()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QProcess process;
        test::startCli(process, QStringList{QStringLiteral("demo")} + arguments);
        QByteArray err;
        const QRegularExpression announced(QStringLiteral("127\\.0\\.0\\.1:(\\d+)"));
        QTRY_VERIFY_WITH_TIMEOUT(
            (err += process.readAllStandardError(), announced.match(QString::fromUtf8(err)).hasMatch()), 20000);
        if (arguments.contains(QStringLiteral("--max-rate"))) // wait until the scan runs
            QTRY_VERIFY_WITH_TIMEOUT((err += process.readAllStandardError(), err.contains("scanning")), 20000);
        else
            QTest::qWait(500);
        ::kill(static_cast<pid_t>(process.processId()), SIGINT);
        const auto run = test::finishCli(process);
        QCOMPARE(run.exitCode, exitCode);
        err += run.err;
        // The temporary directory the server ran in is gone too.
        const QRegularExpressionMatch directory =
            QRegularExpression(QStringLiteral("directory (\\S+)\\)")).match(QString::fromUtf8(err));
        QVERIFY(directory.hasMatch());
        QVERIFY(!QFileInfo::exists(directory.captured(1)));
        redis::ConnectionOptions options;
        options.port = static_cast<quint16>(announced.match(QString::fromUtf8(err)).captured(1).toUInt());
        options.connectTimeoutMs = 500;
        // The server may need a moment to notice its parent is gone.
        QTRY_VERIFY_WITH_TIMEOUT(!redis::Connection::open(options).ok(), 5000);
    }

    void withoutRedisServerSaysWhatToInstall()
    {
        QTemporaryDir emptyPath;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("PATH"), emptyPath.path());
        const auto run = test::runCli({QStringLiteral("demo")}, environment);
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.out.isEmpty());
        QVERIFY(run.err.contains("redis-server was not found"));
        QVERIFY(run.err.contains("apt-get install redis-server"));
    }
};

QTEST_GUILESS_MAIN(TestDemo)
#include "tst_demo.moc"
