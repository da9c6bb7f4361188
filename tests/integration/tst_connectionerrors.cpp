// Reaching and logging in to a server: every failure comes back as a clear Error, never a crash.
#include "CliRunner.h"
#include "PlainClient.h"
#include "ScanHelper.h"
#include "TestServer.h"
#include "keyspace/Keyspace.h"
#include "redis/Connection.h"

#include <QTcpServer>
#include <QTest>

using namespace keylens;
using redis::Connection;
using redis::ErrorKind;

class TestConnectionErrors : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;

    redis::ConnectionOptions withPassword(const QByteArray& user, const QByteArray& password) const
    {
        redis::ConnectionOptions options = m_server.connectionOptions();
        options.user = user;
        options.password = password;
        options.hasPassword = true;
        return options;
    }

    // Connects to a fake server of this test, whose answers are written by this thread's event loop: the
    // connection is opened on another thread while this one keeps serving.
    static redis::Result<std::unique_ptr<Connection>> openWhileServing(quint16 port)
    {
        redis::ConnectionOptions options;
        options.port = port;
        options.commandTimeoutMs = 2000;
        redis::Result<std::unique_ptr<Connection>> result = redis::Error{};
        std::unique_ptr<QThread> thread(QThread::create([&] { result = Connection::open(options); }));
        thread->start();
        if (!QTest::qWaitFor([&] { return thread->isFinished(); }, 5000))
            thread->wait();
        return result;
    }

private Q_SLOTS:
    void initTestCase()
    {
        demo::RedisServerProcess::Options options;
        options.configText = "requirepass s3cret\nuser alice on >alicepw ~* &* +@all\n";
        options.extraArguments << QStringLiteral("--unixsocket") << QStringLiteral("redis.sock")
                               << QStringLiteral("--unixsocketperm") << QStringLiteral("700");
        KEYLENS_START_SERVER(m_server, options);
    }

    void rightPasswordWorks()
    {
        auto connection = Connection::open(withPassword({}, "s3cret"));
        QVERIFY2(connection.ok(), connection.ok() ? "" : qPrintable(connection.error().message));
        auto reply = (*connection)->command({"PING"});
        QVERIFY(reply.ok());
        QCOMPARE(reply->bytes(), QByteArrayView("PONG"));
    }

    void aclUserWorks()
    {
        auto connection = Connection::open(withPassword("alice", "alicepw"));
        QVERIFY(connection.ok());
        auto whoami = (*connection)->command({"ACL", "WHOAMI"});
        QCOMPARE(whoami->bytes(), QByteArrayView("alice"));
    }

    void wrongPassword()
    {
        auto connection = Connection::open(withPassword({}, "wrong"));
        QVERIFY(!connection.ok());
        QCOMPARE(connection.error().kind, ErrorKind::AuthFailed);
        QVERIFY(connection.error().message.contains(QStringLiteral("authentication failed")));
        QVERIFY(!connection.error().message.contains(QStringLiteral("wrong\""))); // never echo the password
        QVERIFY(connection.error().isConnectionError());

        auto wrongUser = Connection::open(withPassword("alice", "nope"));
        QVERIFY(!wrongUser.ok());
        QCOMPARE(wrongUser.error().kind, ErrorKind::AuthFailed);
    }

    // A password given to a server that has none set: redis-cli warns and carries on, and so does keylens-cli (it
    // said "authentication failed: wrong user or password", exit 3, which was untrue). A wrong password where one is
    // set stays an error, exit 3.
    void aPasswordTheServerDoesNotNeedIsAWarning()
    {
        demo::RedisServerProcess open;
        KEYLENS_START_SERVER(open);
        QCOMPARE(keylens::test::PlainClient(open.port()).command({"SET", "k", "v"}), QByteArray("OK"));
        const keylens::test::CliRun scan =
            keylens::test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), QString::number(open.port()),
                                   QStringLiteral("-a"), QStringLiteral("CanaryPw")});
        QVERIFY2(scan.exitCode == 0, scan.err.constData());
        QVERIFY2(scan.err.contains(
                     QByteArray("warning: 127.0.0.1:" + QByteArray::number(open.port()) + " has no password set")),
                 scan.err.constData());
        QCOMPARE(scan.err.count("has no password set"), 1);
        QVERIFY2(!scan.err.contains("authentication failed") && !scan.err.contains("CanaryPw"), scan.err.constData());
        QVERIFY2(scan.out.contains("Scanned 1 key in "), scan.out.constData());

        const keylens::test::CliRun wrong =
            keylens::test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), QString::number(m_server.port()),
                                   QStringLiteral("-a"), QStringLiteral("CanaryPw")});
        QCOMPARE(wrong.exitCode, 3);
        QVERIFY2(wrong.err.contains("authentication failed: wrong user or password"), wrong.err.constData());
        QVERIFY(wrong.out.isEmpty());
    }

    void missingPassword()
    {
        auto connection = Connection::open(m_server.connectionOptions());
        QVERIFY(!connection.ok());
        QCOMPARE(connection.error().kind, ErrorKind::AuthRequired);
        QVERIFY(connection.error().message.contains(QStringLiteral("requires a password")));
    }

    void deadPort()
    {
        quint16 port = 0;
        {
            QTcpServer probe; // a port that was free a moment ago, with nothing listening now
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            port = probe.serverPort();
        }
        redis::ConnectionOptions options;
        options.port = port;
        auto connection = Connection::open(options);
        QVERIFY(!connection.ok());
        QCOMPARE(connection.error().kind, ErrorKind::Refused);
        QVERIFY(connection.error().message.contains(QString::number(port)));

        keyspace::Keyspace store;
        scan::ScanOptions scanOptions;
        scanOptions.connection = options;
        const auto result = test::scanInto(store, scanOptions);
        QVERIFY(result.finished);
        QVERIFY(result.summary.error);
        QCOMPARE(result.summary.error->kind, ErrorKind::Refused);
        QCOMPARE(result.summary.keysSeen, 0u);
    }

    void silentServerTimesOut()
    {
        QTcpServer silent; // accepts (the kernel does) and never answers
        QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
        redis::ConnectionOptions options;
        options.port = silent.serverPort();
        options.commandTimeoutMs = 300;
        auto connection = Connection::open(options);
        QVERIFY(!connection.ok());
        QCOMPARE(connection.error().kind, ErrorKind::Timeout);
        QVERIFY(connection.error().message.contains(QStringLiteral("--command-timeout")));
    }

    // After a timeout the connection is broken: the late reply to the command that timed out is never read as the
    // answer to the next one (before, an ECHO after a timed-out BLPOP read its nil).
    void aTimedOutConnectionIsNeverReused()
    {
        redis::ConnectionOptions options = withPassword({}, "s3cret");
        options.commandTimeoutMs = 300;
        auto opened = Connection::open(options);
        QVERIFY(opened);
        Connection& connection = **opened;
        redis::Result<redis::Reply> slept = connection.command({"BLPOP", "nothing", "0.8"});
        QVERIFY(!slept);
        QCOMPARE(slept.error().kind, ErrorKind::Timeout);
        QVERIFY(connection.isBroken());
        // BLPOP's nil has arrived by now: the server no longer blocks the client (and wrote the nil when it let go).
        // Waited for on the server: a fixed second could be too short on a loaded machine.
        test::PlainClient admin(m_server.port(), {}, "s3cret");
        QTRY_VERIFY_WITH_TIMEOUT(admin.commandCalls("blpop") > 0 &&
                                     admin.command({"INFO", "clients"}).contains("\r\nblocked_clients:0\r\n"),
                                 10000);
        QTest::qWait(100); // and the kernel delivered it
        redis::Result<redis::Reply> echo = connection.command({"ECHO", "mine"});
        QVERIFY2(!echo, echo ? echo->bytes().toByteArray().constData() : "");
        QCOMPARE(echo.error().kind, ErrorKind::Timeout); // the reason it broke, again
        QCOMPARE(connection.pendingReplies(), std::size_t(2));
    }

    void notRedisIsAProtocolError()
    {
        QTcpServer http;
        QVERIFY(http.listen(QHostAddress::LocalHost, 0));
        connect(&http, &QTcpServer::newConnection, this, [&] {
            QTcpSocket* socket = http.nextPendingConnection();
            socket->write("HTTP/1.1 400 Bad Request\r\n\r\n");
        });
        const auto result = openWhileServing(http.serverPort());
        QVERIFY(!result.ok());
        QCOMPARE(result.error().kind, ErrorKind::Protocol);
    }

    // A server still loading its dataset answers every command with -LOADING: a clear error at connect.
    void loadingServer()
    {
        QTcpServer loading;
        QVERIFY(loading.listen(QHostAddress::LocalHost, 0));
        connect(&loading, &QTcpServer::newConnection, this, [&] {
            QTcpSocket* socket = loading.nextPendingConnection();
            connect(socket, &QTcpSocket::readyRead, socket, [socket] {
                const QByteArray request = socket->readAll();
                // One error per command: every RESP command starts with '*'.
                for (qsizetype i = 0; i < request.count('*'); ++i)
                    socket->write("-LOADING Redis is loading the dataset in memory\r\n");
            });
        });
        const auto result = openWhileServing(loading.serverPort());
        QVERIFY(!result.ok());
        QCOMPARE(result.error().kind, ErrorKind::Loading);
        QVERIFY(result.error().message.contains(QStringLiteral("still loading")));
        QVERIFY(result.error().isConnectionError());
    }

    void unixSocket()
    {
        redis::ConnectionOptions options = withPassword({}, "s3cret");
        options.transport = redis::ConnectionOptions::Transport::Unix;
        options.socketPath = m_server.directory() + QStringLiteral("/redis.sock");
        auto connection = Connection::open(options);
        QVERIFY2(connection.ok(), connection.ok() ? "" : qPrintable(connection.error().message));
        QCOMPARE((*connection)->command({"PING"})->bytes(), QByteArrayView("PONG"));

        options.socketPath = m_server.directory() + QStringLiteral("/missing.sock");
        auto missing = Connection::open(options);
        QVERIFY(!missing.ok());
        QVERIFY(missing.error().isConnectionError());
    }

    void databaseOutOfRange()
    {
        redis::ConnectionOptions options = withPassword({}, "s3cret");
        options.db = 99;
        auto connection = Connection::open(options);
        QVERIFY(!connection.ok());
        QVERIFY(connection.error().message.contains(QStringLiteral("database 99")));
    }

    void pipelineKeepsOrderAndErrors()
    {
        auto connection = Connection::open(withPassword({}, "s3cret"));
        QVERIFY(connection.ok());
        auto replies = (*connection)->pipeline({{"SET", "a", "1"}, {"INCR", "a"}, {"HGET", "a", "x"}, {"GET", "a"}});
        QVERIFY(replies.ok());
        QCOMPARE(replies->size(), 4u);
        QCOMPARE((*replies)[1].integer(), 2);
        QVERIFY((*replies)[2].isError()); // WRONGTYPE is a reply, not a broken connection
        QCOMPARE((*replies)[3].bytes(), QByteArrayView("2"));
    }
};

QTEST_GUILESS_MAIN(TestConnectionErrors)
#include "tst_connectionerrors.moc"
