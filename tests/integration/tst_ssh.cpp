// SSH tunnels against a real sshd on loopback (skipped, saying why, when none can be started): a scan through the
// tunnel with an identity file and with the agent, known_hosts respected (unknown and changed host keys refused), a
// refused key, an SSH server that cannot reach Redis, the tunnel shared by connections and ended by the last one,
// ended by Keylens dying, and its death reported. The Redis password never reaches ssh's arguments.
#include "CliRunner.h"
#include "PlainClient.h"
#include "ProcessFiles.h"
#include "ScanHelper.h"
#include "TestServer.h"
#include "TestSshServer.h"
#include "redis/Connection.h"
#include "redis/SshTunnel.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <csignal>
#include <unistd.h>

using namespace keylens;
using redis::ErrorKind;

namespace {

const QByteArray Password = "canary-ssh-7c1e";

// The ssh processes forwarding to 127.0.0.1:port, found by their command lines.
QList<qint64> tunnelsTo(quint16 port)
{
    QList<qint64> pids;
    const QByteArray forward = ":127.0.0.1:" + QByteArray::number(port);
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (!numeric)
            continue;
        const QList<QByteArray> arguments = test::processCommandLine(pid).split('\0');
        if (!arguments.isEmpty() && arguments[0] == "ssh" &&
            std::any_of(arguments.begin(), arguments.end(), [&](const QByteArray& a) { return a.endsWith(forward); }))
            pids << pid;
    }
    return pids;
}

bool processGone(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    return !status.open(QIODevice::ReadOnly) || status.readAll().contains("State:\tZ");
}

} // namespace

class TestSsh : public QObject
{
    Q_OBJECT

    test::TestSshServer m_sshd;
    demo::RedisServerProcess m_redis;
    static constexpr int Keys = 3000;

    redis::ConnectionOptions throughTunnel() const
    {
        redis::ConnectionOptions options;
        options.host = QStringLiteral("127.0.0.1");
        options.port = m_redis.port();
        options.password = Password;
        options.hasPassword = true;
        options.ssh = m_sshd.options();
        return options;
    }
    QStringList cliTunnelArguments() const
    {
        const redis::SshOptions ssh = m_sshd.options();
        return {QStringLiteral("-p"),
                QString::number(m_redis.port()),
                QStringLiteral("--ssh"),
                QStringLiteral("%1@127.0.0.1:%2").arg(ssh.user).arg(ssh.port),
                QStringLiteral("--ssh-identity"),
                ssh.identityFile,
                QStringLiteral("--ssh-known-hosts"),
                ssh.knownHostsFile};
    }
    // The connections named keylens that the server sees now.
    int keylensClients()
    {
        test::PlainClient client(m_redis.port(), {}, Password);
        return int(client.command({"CLIENT", "LIST"}).count("name=keylens "));
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!m_sshd.start())
            QSKIP(qPrintable(QStringLiteral("no sshd to test SSH tunnels against: ") + m_sshd.why()));
        demo::RedisServerProcess::Options redisOptions;
        redisOptions.configText = "requirepass " + Password + "\n";
        KEYLENS_START_SERVER(m_redis, redisOptions);
        QCOMPARE(test::fillStringKeys(m_redis.port(), Keys, 100, "k:", Password), std::size_t(0));
    }

    void scansThroughTheTunnel()
    {
        keyspace::Keyspace keyspace;
        scan::ScanOptions options;
        options.connection = throughTunnel();
        const test::ScanResult result = test::scanInto(keyspace, options);
        QVERIFY2(result.finished && !result.summary.error,
                 result.summary.error ? qPrintable(result.summary.error->message) : "did not finish");
        test::PlainClient truth(m_redis.port(), {}, Password);
        QCOMPARE(keyspace.keyCount(), std::uint64_t(truth.allKeys().size()));
        QCOMPARE(keyspace.keyCount(), std::uint64_t(Keys));
    }

    void theAgentLogsIn()
    {
        const QString agentSocket = m_sshd.path(QStringLiteral("agent.sock"));
        QProcess agent;
        agent.start(QStringLiteral("ssh-agent"), {QStringLiteral("-D"), QStringLiteral("-a"), agentSocket});
        QVERIFY(agent.waitForStarted());
        QTRY_VERIFY(QFile::exists(agentSocket));
        const QByteArray saved = qgetenv("SSH_AUTH_SOCK");
        auto restore = qScopeGuard([&] {
            qputenv("SSH_AUTH_SOCK", saved);
            agent.kill();
            agent.waitForFinished();
        });
        redis::ConnectionOptions options = throughTunnel();
        options.ssh.identityFile.clear();
        // Control: without the agent (and with no key of its own that this sshd accepts) ssh cannot log in.
        qunsetenv("SSH_AUTH_SOCK");
        auto refused = redis::Connection::open(options);
        QVERIFY(!refused);
        QCOMPARE(refused.error().kind, ErrorKind::Tunnel);
        QVERIFY2(refused.error().message.contains(QStringLiteral("refused the login")),
                 qPrintable(refused.error().message));

        qputenv("SSH_AUTH_SOCK", agentSocket.toLocal8Bit());
        QProcess add;
        add.start(QStringLiteral("ssh-add"), {m_sshd.path(QStringLiteral("client_key"))});
        QVERIFY(add.waitForFinished(10000));
        QCOMPARE(add.exitCode(), 0);
        auto opened = redis::Connection::open(options);
        QVERIFY2(opened, opened ? "" : qPrintable(opened.error().message));
        auto size = (*opened)->command({"DBSIZE"});
        QVERIFY(size);
        QCOMPARE(size->integer(), (long long)Keys);
    }

    void hostKeysAreChecked_data()
    {
        QTest::addColumn<QString>("knownHosts");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown") << QStringLiteral("empty_known_hosts") << QStringLiteral("not in known_hosts");
        QTest::newRow("changed") << QStringLiteral("wrong_known_hosts") << QStringLiteral("intercepting");
    }
    void hostKeysAreChecked()
    {
        QFETCH(QString, knownHosts);
        QFETCH(QString, expected);
        const long long authsBefore = test::PlainClient(m_redis.port(), {}, Password).commandCalls("auth");
        redis::ConnectionOptions options = throughTunnel();
        options.ssh.knownHostsFile = m_sshd.path(knownHosts);
        const auto contents = [&] {
            QFile file(options.ssh.knownHostsFile);
            return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("unreadable");
        };
        const QByteArray knownBefore = contents();
        auto opened = redis::Connection::open(options);
        QVERIFY(!opened);
        QCOMPARE(opened.error().kind, ErrorKind::Tunnel);
        QVERIFY2(opened.error().message.contains(expected), qPrintable(opened.error().message));
        QVERIFY(!opened.error().message.contains(QString::fromUtf8(Password)));
        // Nothing reached Redis: not a login, not a password.
        QCOMPARE(test::PlainClient(m_redis.port(), {}, Password).commandCalls("auth"), authsBefore + 1);
        QCOMPARE(tunnelsTo(m_redis.port()).size(), 0);
        // The file was only read: the server's key was not added to it, nor the old one replaced.
        QCOMPARE(contents(), knownBefore);
    }

    void aKeyTheServerDoesNotAcceptIsRefused()
    {
        redis::ConnectionOptions options = throughTunnel();
        options.ssh.identityFile = m_sshd.path(QStringLiteral("other_key"));
        auto opened = redis::Connection::open(options);
        QVERIFY(!opened);
        QCOMPARE(opened.error().kind, ErrorKind::Tunnel);
        QVERIFY2(opened.error().message.contains(QStringLiteral("Permission denied")),
                 qPrintable(opened.error().message));
        QVERIFY(opened.error().isConnectionError());
    }

    void aServerTheSshServerCannotReachIsNamed()
    {
        redis::ConnectionOptions options = throughTunnel();
        options.port = test::freeLoopbackPort();
        auto opened = redis::Connection::open(options);
        QVERIFY(!opened);
        QVERIFY2(opened.error().message.contains(QStringLiteral("could not reach")) &&
                     opened.error().message.contains(QStringLiteral("Connection refused")),
                 qPrintable(opened.error().message));
    }

    void aDeadSshServerIsNamed()
    {
        redis::ConnectionOptions options = throughTunnel();
        options.ssh.port = test::freeLoopbackPort();
        auto opened = redis::Connection::open(options);
        QVERIFY(!opened);
        QCOMPARE(opened.error().kind, ErrorKind::Tunnel);
        QVERIFY2(opened.error().message.contains(QStringLiteral("Connection refused")),
                 qPrintable(opened.error().message));
    }

    void connectionsShareOneTunnelThatEndsWithTheLast()
    {
        auto first = redis::Connection::open(throughTunnel());
        QVERIFY2(first, first ? "" : qPrintable(first.error().message));
        auto second = redis::Connection::open(throughTunnel());
        QVERIFY2(second, second ? "" : qPrintable(second.error().message));
        const QList<qint64> tunnels = tunnelsTo(m_redis.port());
        QCOMPARE(tunnels.size(), 1);
        QCOMPARE(keylensClients(), 2);
        // Its own process group: Ctrl-C in a terminal reaches Keylens, which ends the tunnel itself.
        QVERIFY(getpgid(pid_t(tunnels[0])) != getpgrp());
        QVERIFY(!test::processCommandLine(tunnels[0]).contains(Password));

        first->reset();
        QVERIFY(!processGone(tunnels[0]));
        auto ping = (*second)->command({"PING"});
        QVERIFY(ping);
        QCOMPARE(ping->bytes(), QByteArrayView("PONG"));
        second->reset();
        QTRY_VERIFY_WITH_TIMEOUT(processGone(tunnels[0]), 2000);
        QCOMPARE(tunnelsTo(m_redis.port()).size(), 0);
    }

    void aTunnelThatDiesIsReportedAndOpenedAgain()
    {
        auto opened = redis::Connection::open(throughTunnel());
        QVERIFY2(opened, opened ? "" : qPrintable(opened.error().message));
        const QList<qint64> tunnels = tunnelsTo(m_redis.port());
        QCOMPARE(tunnels.size(), 1);
        ::kill(pid_t(tunnels[0]), SIGKILL);
        QTRY_VERIFY(processGone(tunnels[0]));
        auto reply = (*opened)->command({"DBSIZE"});
        QVERIFY(!reply);
        QCOMPARE(reply.error().kind, ErrorKind::ConnectionLost);
        QVERIFY2(reply.error().message.contains(QStringLiteral("SSH tunnel")) &&
                     reply.error().message.contains(QStringLiteral("ended")),
                 qPrintable(reply.error().message));
        QVERIFY((*opened)->isBroken());
        // Connecting again starts a new ssh: a scan's reconnect goes on this way.
        auto again = redis::Connection::open(throughTunnel());
        QVERIFY2(again, again ? "" : qPrintable(again.error().message));
        QVERIFY((*again)->command({"PING"}));
    }

    void theCliScansThroughTheTunnelWithoutShowingThePassword()
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("REDISCLI_AUTH"), QString::fromUtf8(Password));
        const test::CliRun run =
            test::runCli(QStringList{QStringLiteral("scan"), QStringLiteral("--format"), QStringLiteral("json")} +
                             cliTunnelArguments(),
                         environment);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject scan = QJsonDocument::fromJson(run.out).object().value(QStringLiteral("scan")).toObject();
        QCOMPARE(scan.value(QStringLiteral("keys")).toInt(), Keys);
        QVERIFY(scan.value(QStringLiteral("complete")).toBool());
        // 127.0.0.1 as the SSH server sees it is another machine: gentle unless asked otherwise.
        QCOMPARE(scan.value(QStringLiteral("speed")).toString(), QStringLiteral("gentle"));
        QVERIFY(!run.out.contains(Password) && !run.err.contains(Password));
        QCOMPARE(tunnelsTo(m_redis.port()).size(), 0);

        QStringList unknownHost = cliTunnelArguments();
        unknownHost.last() = m_sshd.path(QStringLiteral("empty_known_hosts"));
        const test::CliRun refused = test::runCli(QStringList{QStringLiteral("scan")} + unknownHost, environment);
        QCOMPARE(refused.exitCode, 3);
        QVERIFY2(refused.err.contains("known_hosts"), refused.err.constData());
    }

    void aScanOutlivesItsTunnel()
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("REDISCLI_AUTH"), QString::fromUtf8(Password));
        test::PlainClient admin(m_redis.port(), {}, Password);
        const long long askedBefore = admin.commandCalls("pttl"); // earlier tests scanned the same server
        QProcess cli;
        cli.setProcessEnvironment(environment);
        test::startCli(cli, QStringList{QStringLiteral("scan"), QStringLiteral("--format"), QStringLiteral("json"),
                                        QStringLiteral("--max-rate"), QStringLiteral("1000")} +
                                cliTunnelArguments());
        QTRY_COMPARE_WITH_TIMEOUT(tunnelsTo(m_redis.port()).size(), 1, 10000);
        const qint64 first = tunnelsTo(m_redis.port()).constFirst();
        // Killed mid-scan: once the server was asked about some keys through it.
        QTRY_VERIFY_WITH_TIMEOUT(admin.commandCalls("pttl") >= askedBefore + 100, 20000);
        ::kill(pid_t(first), SIGKILL);
        // The scan connects again, through a new ssh, and resumes.
        const auto replaced = [&] {
            const QList<qint64> now = tunnelsTo(m_redis.port());
            return now.size() == 1 && now[0] != first;
        };
        QTRY_VERIFY_WITH_TIMEOUT(replaced(), 10000);
        const test::CliRun run = test::finishCli(cli);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject scan = QJsonDocument::fromJson(run.out).object().value(QStringLiteral("scan")).toObject();
        QCOMPARE(scan.value(QStringLiteral("keys")).toInt(), Keys);
        QVERIFY(scan.value(QStringLiteral("complete")).toBool());
    }

    void aTunnelDiesWithKeylens()
    {
        // A slow scan, killed with SIGKILL: no destructor runs, the kernel ends its ssh.
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("REDISCLI_AUTH"), QString::fromUtf8(Password));
        QProcess cli;
        cli.setProcessEnvironment(environment);
        test::startCli(cli, QStringList{QStringLiteral("scan"), QStringLiteral("--max-rate"), QStringLiteral("50")} +
                                cliTunnelArguments());
        QTRY_COMPARE_WITH_TIMEOUT(tunnelsTo(m_redis.port()).size(), 1, 10000);
        const qint64 tunnel = tunnelsTo(m_redis.port()).constFirst();
        // The password the CLI was given in its environment is not in ssh's.
        QFile environ(QStringLiteral("/proc/%1/environ").arg(tunnel));
        QVERIFY(environ.open(QIODevice::ReadOnly));
        const QByteArray sshEnvironment = environ.readAll();
        QVERIFY(sshEnvironment.contains("PATH="));
        QVERIFY(!sshEnvironment.contains(Password));
        ::kill(pid_t(cli.processId()), SIGKILL);
        QVERIFY(cli.waitForFinished(5000));
        QTRY_VERIFY_WITH_TIMEOUT(processGone(tunnel), 3000);
    }

    void argumentsHoldNoSecretAndNeverPrompt()
    {
        redis::SshOptions ssh = m_sshd.options();
        const QStringList arguments = redis::sshTunnelArguments(ssh, QStringLiteral("::1"), 6379, 40000, 5000);
        QVERIFY(arguments.contains(QStringLiteral("BatchMode=yes")));
        QVERIFY(arguments.contains(QStringLiteral("ExitOnForwardFailure=yes")));
        QVERIFY(arguments.contains(QStringLiteral("127.0.0.1:40000:[::1]:6379")));
        // The SSH server comes after "--": a host named like an option cannot become one.
        QCOMPARE(arguments.at(arguments.size() - 2), QStringLiteral("--"));
        QCOMPARE(arguments.last(), ssh.host);
    }
};

QTEST_GUILESS_MAIN(TestSsh)
#include "tst_ssh.moc"
