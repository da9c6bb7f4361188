// keylens-cli watch and profile against a private server: the counts per pattern equal what a plain client did,
// a server without notifications is told and offered them (and given its setting back), a password never shows.
#include "CliRunner.h"
#include "JsonReport.h"
#include "PlainClient.h"
#include "TestServer.h"
#include "live/KeyEvents.h"
#include "live/KeyPattern.h"
#include "live/MonitorLine.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QTest>
#include <QThread>

#include <csignal>

using namespace keylens;

class TestLive : public QObject
{
    Q_OBJECT

    std::unique_ptr<demo::RedisServerProcess> m_server;

    quint16 startServer(const QByteArray& config = {})
    {
        m_server = test::startServerWith(config);
        return m_server ? m_server->port() : 0;
    }
    QString uri() const { return QStringLiteral("redis://127.0.0.1:%1").arg(m_server->port()); }

    // Waits until `count` pattern subscriptions exist (the watch subscribed), up to 10 s.
    static bool waitForSubscribers(test::PlainClient& client, long long count)
    {
        for (int i = 0; i < 200; ++i) {
            if (client.integer({"PUBSUB", "NUMPAT"}) >= count)
                return true;
            QThread::msleep(50);
        }
        return false;
    }

    // The sums over every interval of a `watch --format json` output, by pattern and field.
    static std::map<QString, std::map<QString, long long>> sums(const QByteArray& out, int* intervals)
    {
        std::map<QString, std::map<QString, long long>> total;
        *intervals = 0;
        for (const QByteArray& line : out.split('\n')) {
            if (line.trimmed().isEmpty())
                continue;
            const QJsonObject interval = test::parseJson(line);
            if (interval[QLatin1String("interval_s")].toInt() != 1)
                return {};
            ++*intervals;
            for (const QJsonValue entry : interval[QLatin1String("patterns")].toArray()) {
                const QJsonObject pattern = entry.toObject();
                for (const char* field : {"writes", "deletes", "expired", "evicted"})
                    total[pattern[QLatin1String("pattern")].toString()][QLatin1String(field)] +=
                        pattern[QLatin1String(field)].toInteger();
            }
        }
        return total;
    }

private Q_SLOTS:
    void patternsAndEventsOfOneKey()
    {
        const keyspace::Delimiters colon(':');
        QCOMPARE(live::patternOfKey("user:1042:profile", colon), QByteArray("user:<int>:profile"));
        QCOMPARE(live::patternOfKey("session:3f2b1c9e-8a7d-4e6f-9b0a-1c2d3e4f5a6b", colon),
                 QByteArray("session:<uuid>"));
        QCOMPARE(live::patternOfKey("plain", colon), QByteArray("plain"));
        // IPv6 addresses that ':' split fold whole, as the scan's patterns keep them.
        QCOMPARE(live::patternOfKey("login_fail_ip:2001:db8:85a3::8a2e:370:7334", colon),
                 QByteArray("login_fail_ip:<ip>"));
        QCOMPARE(live::patternOfKey("LIMITER/fe80::1c2:53:fe53:56/search/30/1/hour", colon),
                 live::patternOfKey("LIMITER/10.0.3.8/search/10/1/hour", colon));
        QCOMPARE(live::patternOfKey("ts:2026:11:03", colon), QByteArray("ts:<int>:<int>:<int>"));
        QCOMPARE(live::keyEventOf("hset"), live::KeyEvent::Write);
        QCOMPARE(live::keyEventOf("rename_from"), live::KeyEvent::Delete);
        QCOMPARE(live::keyEventOf("expired"), live::KeyEvent::Expired);
        QCOMPARE(live::keyEventOf("evicted"), live::KeyEvent::Evicted);
        QVERIFY(!live::keyEventOf("new"));
        QCOMPARE(live::eventNameOf("__keyevent@3__:lpush"), QByteArrayView("lpush"));
        // MONITOR's quoting: \" inside a quoted argument, \xHH for a byte that is not printable, \\ for \.
        const auto line = live::parseMonitorLine("1733469000.123456 [0 127.0.0.1:5000] \"SET\" \"a\\\"b\" "
                                                 "\"x\\x00y\\\\\"");
        QVERIFY(line);
        QCOMPARE(line->arguments.size(), std::size_t(3));
        QCOMPARE(line->arguments[1], QByteArray("a\"b"));
        QCOMPARE(line->arguments[2], QByteArray("x\0y\\", 4));
        QVERIFY(!live::parseMonitorLine("OK"));
    }

    void watchCountsWhatAClientDid()
    {
        QVERIFY(startServer("notify-keyspace-events KEA\n"));
        test::PlainClient client(m_server->port());
        QProcess watch;
        // Runs until every event was counted (it ends on SIGINT below), however slow the machine.
        test::startCli(watch, {QStringLiteral("watch"), uri(), QStringLiteral("--seconds"), QStringLiteral("120"),
                               QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY(waitForSubscribers(client, 1));
        // Two patterns at known rates over about two seconds, then deletes and expiries.
        for (int round = 0; round < 20; ++round) {
            std::vector<std::vector<QByteArray>> writes;
            for (int i = 0; i < 10; ++i)
                writes.push_back({"SET", "order:" + QByteArray::number(round * 10 + i), "x"});
            for (int i = 0; i < 5; ++i)
                writes.push_back({"HSET", "user:" + QByteArray::number(round * 5 + i) + ":profile", "f", "v"});
            QCOMPARE(client.pipeline(writes), std::size_t(0));
            QThread::msleep(100);
        }
        for (int i = 0; i < 30; ++i)
            client.command({"DEL", "order:" + QByteArray::number(i)});
        for (int i = 30; i < 45; ++i)
            client.command({"PEXPIRE", "order:" + QByteArray::number(i), "50"});
        QThread::msleep(600);
        for (int i = 30; i < 45; ++i) // an expired key's next touch expires it, if the cycle has not yet
            client.command({"EXISTS", "order:" + QByteArray::number(i)});
        // Whole intervals only: a line still being written would not parse.
        QByteArray out;
        int intervals = 0;
        std::map<QString, std::map<QString, long long>> total;
        const auto counted = [&] {
            out += watch.readAllStandardOutput();
            total = sums(out.left(out.lastIndexOf('\n') + 1), &intervals);
            return total[QStringLiteral("order:<int>")][QStringLiteral("expired")] >= 15 &&
                   total[QStringLiteral("order:<int>")][QStringLiteral("deletes")] >= 30;
        };
        QTRY_VERIFY_WITH_TIMEOUT(counted(), 60000);
        QVERIFY(intervals >= 2);
        ::kill(pid_t(watch.processId()), SIGINT);
        QVERIFY(watch.waitForFinished(10000));
        QCOMPARE(watch.exitCode(), 130);
        QCOMPARE(total.at(QStringLiteral("order:<int>")).at(QStringLiteral("writes")), 200 + 15); // SET, PEXPIRE
        QCOMPARE(total.at(QStringLiteral("order:<int>")).at(QStringLiteral("deletes")), 30);
        QCOMPARE(total.at(QStringLiteral("order:<int>")).at(QStringLiteral("expired")), 15);
        QCOMPARE(total.at(QStringLiteral("user:<int>:profile")).at(QStringLiteral("writes")), 100);
        QCOMPARE(client.integer({"DBSIZE"}), 200 - 45 + 100);
    }

    void serverWithoutNotificationsIsToldAndGivenItsSettingBack()
    {
        QVERIFY(startServer());
        test::PlainClient client(m_server->port());
        QCOMPARE(client.elements({"CONFIG", "GET", "notify-keyspace-events"}).back(), QByteArray());
        const test::CliRun refused =
            test::runCli({QStringLiteral("watch"), uri(), QStringLiteral("--seconds"), QStringLiteral("1")});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY(refused.err.contains("--enable-notifications"));
        QVERIFY(refused.err.contains("notify-keyspace-events"));
        const test::CliRun readOnly =
            test::runCli({QStringLiteral("watch"), uri(), QStringLiteral("--seconds"), QStringLiteral("1"),
                          QStringLiteral("--enable-notifications"), QStringLiteral("--read-only")});
        QCOMPARE(readOnly.exitCode, 1);
        QCOMPARE(client.commandCalls("config|set"), 0LL); // the gate kept it from the server

        QProcess watch;
        test::startCli(watch,
                       {QStringLiteral("watch"), uri(), QStringLiteral("--seconds"), QStringLiteral("2"),
                        QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--enable-notifications")});
        QVERIFY(waitForSubscribers(client, 1));
        QVERIFY(client.elements({"CONFIG", "GET", "notify-keyspace-events"}).back().contains('E'));
        client.command({"SET", "k:1", "v"});
        const test::CliRun run = test::finishCli(watch);
        QCOMPARE(run.exitCode, 0);
        int intervals = 0;
        QCOMPARE(sums(run.out, &intervals).at(QStringLiteral("k:<int>")).at(QStringLiteral("writes")), 1);
        QCOMPARE(client.elements({"CONFIG", "GET", "notify-keyspace-events"}).back(), QByteArray());
    }

    // The server restarts under a watch: the subscription's end is blamed on the restart (not on the pub/sub output
    // buffer, as it was), and nothing is "put back" on a server that has its own settings again.
    void watchSaysTheServerRestarted()
    {
        QVERIFY(startServer());
        const quint16 port = m_server->port();
        test::PlainClient client(port);
        QProcess watch;
        test::startCli(watch, {QStringLiteral("watch"), uri(), QStringLiteral("--enable-notifications")});
        QVERIFY(waitForSubscribers(client, 1));
        ::kill(pid_t(m_server->processId()), SIGKILL);
        QTRY_VERIFY_WITH_TIMEOUT(m_server->processId() == 0, 10000); // gone, its port free
        demo::RedisServerProcess again;
        demo::RedisServerProcess::Options options;
        options.port = port;
        QVERIFY(again.start(options).ok());
        const test::CliRun run = test::finishCli(watch);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("The server restarted meanwhile"), run.err.constData());
        QVERIFY2(!run.err.contains("client-output-buffer-limit") && !run.err.contains("by hand"), run.err.constData());
        // The subscription's socket is read on the thread that made it: no warning from Qt when it is lost.
        QVERIFY2(!run.err.contains("QSocketNotifier"), run.err.constData());
    }

    // Whatever ends it (a terminal closing, SIGQUIT, its reader gone), watch gives the server its setting back.
    void watchEndedBySignalGivesTheSettingBack_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGHUP") << int(SIGHUP);
        QTest::newRow("SIGQUIT") << int(SIGQUIT);
        QTest::newRow("SIGPIPE") << int(SIGPIPE);
        QTest::newRow("SIGTERM") << int(SIGTERM);
    }
    void watchEndedBySignalGivesTheSettingBack()
    {
        QFETCH(int, signal);
        QVERIFY(startServer());
        test::PlainClient client(m_server->port());
        QProcess watch;
        test::startCli(watch, {QStringLiteral("watch"), uri(), QStringLiteral("--enable-notifications")});
        QVERIFY(waitForSubscribers(client, 1));
        QVERIFY(client.elements({"CONFIG", "GET", "notify-keyspace-events"}).back().contains('E'));
        QCOMPARE(::kill(pid_t(watch.processId()), signal), 0);
        const test::CliRun run = test::finishCli(watch);
        QCOMPARE(watch.exitStatus(), QProcess::NormalExit); // not killed by it
        QCOMPARE(client.elements({"CONFIG", "GET", "notify-keyspace-events"}).back(), QByteArray());
        QVERIFY2(run.exitCode == 128 + signal, run.err.constData()); // as a shell says of a process it ended
    }

    // The server goes away during a profile: said once, plainly, with no Qt warning about a socket used from another
    // thread (the MONITOR connection lived on two threads).
    void profileOfAServerThatDiesSaysSoPlainly()
    {
        QVERIFY(startServer());
        test::PlainClient client(m_server->port());
        QProcess profile;
        test::startCli(profile, {QStringLiteral("profile"), uri(), QStringLiteral("--seconds"), QStringLiteral("30")});
        QTRY_VERIFY_WITH_TIMEOUT(client.command({"CLIENT", "LIST"}).contains("cmd=monitor"), 10000);
        ::kill(pid_t(m_server->processId()), SIGKILL);
        const test::CliRun run = test::finishCli(profile);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("the MONITOR connection ended early"), run.err.constData());
        QVERIFY2(!run.err.contains("QSocketNotifier"), run.err.constData());
        // The report says how long the sample really ran, and that it was cut short: it said "MONITOR sample of
        // 30.0 s" after a server that went away in the first seconds.
        const QRegularExpressionMatch said =
            QRegularExpression(QStringLiteral("^MONITOR sample of ([0-9.]+) s \\(of the 30 s asked: the MONITOR "
                                              "connection ended, "))
                .match(QString::fromUtf8(run.out));
        QVERIFY2(said.hasMatch(), run.out.constData());
        QVERIFY2(said.captured(1).toDouble() < 25.0, run.out.constData());
    }

    void profileCountsWhatAClientSentAndHidesThePassword()
    {
        QVERIFY(startServer("user default on >canary-pw-8c1f ~* &* +@all\n"));
        test::PlainClient client(m_server->port(), {}, "canary-pw-8c1f");
        QVERIFY(client.isConnected());
        QProcess profile;
        test::startCli(profile,
                       {QStringLiteral("profile"), uri(), QStringLiteral("-a"), QStringLiteral("canary-pw-8c1f"),
                        QStringLiteral("--no-auth-warning"), QStringLiteral("--seconds"), QStringLiteral("3"),
                        QStringLiteral("--format"), QStringLiteral("json")});
        // MONITOR is on once a monitor client is listed.
        for (int i = 0; i < 100; ++i) {
            if (client.command({"CLIENT", "LIST"}).contains("cmd=monitor"))
                break;
            QThread::msleep(50);
        }
        for (int i = 0; i < 40; ++i)
            client.command({"GET", "user:" + QByteArray::number(i) + ":profile"});
        for (int i = 0; i < 25; ++i)
            client.command({"SET", "cart:" + QByteArray::number(i), "secret-value-77"});
        client.command({"AUTH", "canary-pw-8c1f"});
        const test::CliRun run = test::finishCli(profile);
        QCOMPARE(run.exitCode, 0);
        QVERIFY(!run.out.contains("canary-pw-8c1f"));
        QVERIFY(!run.err.contains("canary-pw-8c1f"));
        QVERIFY(!run.out.contains("secret-value-77")); // values are data: never printed
        const QJsonObject report = test::parseJson(run.out);
        std::map<QString, QJsonObject> byPattern;
        for (const QJsonValue entry : report[QLatin1String("patterns")].toArray())
            byPattern[entry.toObject()[QLatin1String("pattern")].toString()] = entry.toObject();
        const QJsonObject users = byPattern[QStringLiteral("user:<int>:profile")];
        QVERIFY2(users[QLatin1String("calls")].toInt() == 40, run.out.constData());
        QCOMPARE(users[QLatin1String("reads")].toInt(), 40);
        QCOMPARE(users[QLatin1String("commands")].toArray().first().toObject()[QLatin1String("command")].toString(),
                 QStringLiteral("get"));
        const QJsonObject carts = byPattern[QStringLiteral("cart:<int>")];
        QCOMPARE(carts[QLatin1String("calls")].toInt(), 25);
        QCOMPARE(carts[QLatin1String("writes")].toInt(), 25);
        QVERIFY(report[QLatin1String("ops_per_sec_during")].toDouble() > 0);

        const test::CliRun tooLong =
            test::runCli({QStringLiteral("profile"), uri(), QStringLiteral("--seconds"), QStringLiteral("61")});
        QCOMPARE(tooLong.exitCode, 2);
    }

    // A user denied MONITOR: the refusal, and no word of a sample under way. Standard output that cannot be written
    // (a full disk): watch and profile say so and fail, rather than run on with nowhere to write.
    void refusedOrUnwritable()
    {
        QVERIFY(startServer("user nomonitor on >pw ~* &* +@all -monitor\n"));
        const test::CliRun denied =
            test::runCli({QStringLiteral("profile"), uri(), QStringLiteral("--user"), QStringLiteral("nomonitor"),
                          QStringLiteral("-a"), QStringLiteral("pw"), QStringLiteral("--no-auth-warning"),
                          QStringLiteral("--seconds"), QStringLiteral("1")});
        QCOMPARE(denied.exitCode, 1);
        QVERIFY2(denied.err.contains("NOPERM") || denied.err.contains("permission"), denied.err.constData());
        QVERIFY2(!denied.err.contains("MONITOR for"), denied.err.constData());
        QVERIFY(denied.out.isEmpty());

        for (const QStringList& command :
             {QStringList{QStringLiteral("profile"), uri(), QStringLiteral("--seconds"), QStringLiteral("1")},
              QStringList{QStringLiteral("watch"), uri(), QStringLiteral("--seconds"), QStringLiteral("2"),
                          QStringLiteral("--enable-notifications"), QStringLiteral("--format"),
                          QStringLiteral("json")}}) {
            QProcess process;
            process.setStandardOutputFile(QStringLiteral("/dev/full"));
            test::startCli(process, command);
            const test::CliRun run = test::finishCli(process);
            QCOMPARE(run.exitCode, 1);
            QVERIFY2(run.err.contains("to standard output: No space left on device"), run.err.constData());
        }
        // The watch put the setting back on its way out.
        test::PlainClient client(m_server->port());
        QCOMPARE(client.elements({"CONFIG", "GET", "notify-keyspace-events"}).back(), QByteArray());
    }
};

QTEST_GUILESS_MAIN(TestLive)
#include "tst_live.moc"
