// TLS against real redis-server TLS ports, with certificates the test makes (openssl): a scan over rediss:// equals
// the server's own count; a CA we do not trust, a name that does not match, an expired certificate and a missing
// client certificate each fail with their own reason; mutual TLS and --insecure connect; keylens-cli takes the
// redis-cli flags.
#include "CliRunner.h"
#include "PlainClient.h"
#include "TestPki.h"
#include "TestServer.h"
#include "redis/Connection.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace keylens;
using redis::ErrorKind;

class TestTls : public QObject
{
    Q_OBJECT

    test::TestPki m_pki;
    demo::RedisServerProcess m_server;  // server.pem, no client certificate asked
    demo::RedisServerProcess m_expired; // expired.pem
    demo::RedisServerProcess m_mutual;  // server.pem, tls-auth-clients yes
    quint16 m_tlsPort = 0;
    quint16 m_expiredPort = 0;
    quint16 m_mutualPort = 0;

    // A server with a plain port (for the test's own truths) and a TLS port.
    void startTlsServer(demo::RedisServerProcess& server, quint16* tlsPort, const QString& certificate,
                        bool clientCertificates)
    {
        *tlsPort = test::freeLoopbackPort();
        demo::RedisServerProcess::Options options;
        options.extraArguments = {
            QStringLiteral("--tls-port"),         QString::number(*tlsPort),
            QStringLiteral("--tls-cert-file"),    m_pki.path(certificate + QStringLiteral(".pem")),
            QStringLiteral("--tls-key-file"),     m_pki.path(certificate + QStringLiteral(".key")),
            QStringLiteral("--tls-ca-cert-file"), m_pki.path(QStringLiteral("ca.pem")),
            QStringLiteral("--tls-auth-clients"), clientCertificates ? QStringLiteral("yes") : QStringLiteral("no")};
        KEYLENS_START_SERVER(server, options);
    }

    redis::ConnectionOptions tlsOptions(quint16 port) const
    {
        redis::ConnectionOptions options;
        options.port = port;
        options.tls.enabled = true;
        options.tls.caCertFile = m_pki.path(QStringLiteral("ca.pem"));
        return options;
    }

    static redis::Error failureOf(const redis::ConnectionOptions& options)
    {
        auto opened = redis::Connection::open(options);
        return opened ? redis::Error{ErrorKind::Server, QStringLiteral("it connected")} : opened.error();
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!m_pki.make())
            QSKIP(qPrintable(QStringLiteral("no certificates for a TLS test: %1").arg(m_pki.why())));
        startTlsServer(m_server, &m_tlsPort, QStringLiteral("server"), false);
        startTlsServer(m_expired, &m_expiredPort, QStringLiteral("expired"), false);
        startTlsServer(m_mutual, &m_mutualPort, QStringLiteral("server"), true);
        test::PlainClient client(m_server.port());
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 0; i < 500; ++i)
            commands.push_back({"SET", "tls:" + QByteArray::number(i), "v"});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
    }

    void scanOverRedissEqualsTheServer()
    {
        const auto run = test::runCli({QStringLiteral("scan"), QStringLiteral("rediss://127.0.0.1:%1").arg(m_tlsPort),
                                       QStringLiteral("--cacert"), m_pki.path(QStringLiteral("ca.pem")),
                                       QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        test::PlainClient client(m_server.port());
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(root[QStringLiteral("totals")].toObject()[QStringLiteral("keys")].toInteger(),
                 qint64(client.integer({"DBSIZE"})));
        // The flags as redis-cli names them.
        const auto flags = test::runCli({QStringLiteral("scan"), QStringLiteral("--tls"), QStringLiteral("-p"),
                                         QString::number(m_tlsPort), QStringLiteral("--cacert"),
                                         m_pki.path(QStringLiteral("ca.pem"))});
        QVERIFY2(flags.exitCode == 0, flags.err.constData());
        QVERIFY(flags.out.contains("500"));
    }

    void unknownCaSaysSo()
    {
        redis::ConnectionOptions options = tlsOptions(m_tlsPort);
        options.tls.caCertFile = m_pki.path(QStringLiteral("other-ca.pem"));
        const redis::Error error = failureOf(options);
        QCOMPARE(error.kind, ErrorKind::Tls);
        QVERIFY2(error.message.contains(QStringLiteral("not trusted")) &&
                     error.message.contains(QStringLiteral("Keylens Test CA")),
                 qPrintable(error.message));
        // The system's CAs do not know the test CA either.
        options.tls.caCertFile.clear();
        QCOMPARE(failureOf(options).kind, ErrorKind::Tls);
        // --insecure connects anyway.
        options.tls.insecure = true;
        auto opened = redis::Connection::open(options);
        QVERIFY2(opened.ok(), qPrintable(opened.ok() ? QString() : opened.error().message));
    }

    void nameMismatchSaysSo()
    {
        redis::ConnectionOptions options = tlsOptions(m_tlsPort);
        options.tls.serverName = QStringLiteral("cache.example.com");
        const redis::Error error = failureOf(options);
        QCOMPARE(error.kind, ErrorKind::Tls);
        QVERIFY2(error.message.contains(QStringLiteral("not cache.example.com")) &&
                     error.message.contains(QStringLiteral("localhost")),
                 qPrintable(error.message));
        options.tls.serverName = QStringLiteral("localhost"); // a name the certificate has
        QVERIFY(redis::Connection::open(options).ok());
    }

    void expiredCertificateSaysSo()
    {
        const redis::Error error = failureOf(tlsOptions(m_expiredPort));
        QCOMPARE(error.kind, ErrorKind::Tls);
        QVERIFY2(error.message.contains(QStringLiteral("expired on 2020-01-02")), qPrintable(error.message));
    }

    void mutualTls()
    {
        const redis::Error error = failureOf(tlsOptions(m_mutualPort));
        QVERIFY(error.kind == ErrorKind::Tls || error.kind == ErrorKind::ConnectionLost);
        QVERIFY2(error.message.contains(QStringLiteral("client certificate")), qPrintable(error.message));
        redis::ConnectionOptions options = tlsOptions(m_mutualPort);
        options.tls.certFile = m_pki.path(QStringLiteral("client.pem"));
        options.tls.keyFile = m_pki.path(QStringLiteral("client.key"));
        auto opened = redis::Connection::open(options);
        QVERIFY2(opened.ok(), qPrintable(opened.ok() ? QString() : opened.error().message));
        auto reply = (*opened)->command({"DBSIZE"});
        QVERIFY(reply.ok() && reply->isInteger());
    }

    // A TLS connection to a plain port, and TLS flags without TLS: clear errors, exit codes as for any connection.
    void mistakesSayWhat()
    {
        const auto plain =
            test::runCli({QStringLiteral("scan"), QStringLiteral("rediss://127.0.0.1:%1").arg(m_server.port()),
                          QStringLiteral("--cacert"), m_pki.path(QStringLiteral("ca.pem"))});
        QCOMPARE(plain.exitCode, 3);
        QVERIFY2(plain.err.contains("TLS"), plain.err.constData());
        const auto stray = test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), QString::number(m_server.port()),
                                         QStringLiteral("--cacert"), m_pki.path(QStringLiteral("ca.pem"))});
        QCOMPARE(stray.exitCode, 2);
        QVERIFY2(stray.err.contains("only applies with --tls"), stray.err.constData());
        const auto missing = test::runCli({QStringLiteral("scan"), QStringLiteral("--tls"), QStringLiteral("-p"),
                                           QString::number(m_tlsPort), QStringLiteral("--cacert"),
                                           m_pki.path(QStringLiteral("nothing.pem"))});
        QCOMPARE(missing.exitCode, 2); // a typo on the command line
        QVERIFY2(missing.err.contains("cannot read"), missing.err.constData());
        // A file that is there but holds no certificate: said when connecting.
        const auto notPem = test::runCli({QStringLiteral("scan"), QStringLiteral("--tls"), QStringLiteral("-p"),
                                          QString::number(m_tlsPort), QStringLiteral("--cacert"),
                                          m_pki.path(QStringLiteral("ca.cnf"))});
        QCOMPARE(notPem.exitCode, 2); // the flag's file is the user's to fix, not the server
        QVERIFY2(notPem.err.contains("no PEM certificate"), notPem.err.constData());
        // A client key of another pair: said at once, before any handshake, not a timeout that blames the port.
        QElapsedTimer clock;
        clock.start();
        const auto mismatch = test::runCli(
            {QStringLiteral("scan"), QStringLiteral("--tls"), QStringLiteral("-p"), QString::number(m_mutualPort),
             QStringLiteral("--cacert"), m_pki.path(QStringLiteral("ca.pem")), QStringLiteral("--cert"),
             m_pki.path(QStringLiteral("client.pem")), QStringLiteral("--key"),
             m_pki.path(QStringLiteral("server.key")), QStringLiteral("-t"), QStringLiteral("10")});
        QCOMPARE(mismatch.exitCode, 2);
        QVERIFY2(mismatch.err.contains("does not belong to the certificate"), mismatch.err.constData());
        QVERIFY(!mismatch.err.contains("TLS port"));
        QVERIFY(clock.elapsed() < 8000); // refused, not timed out at 10 s (generous: a loaded machine is slow to start)
    }
};

QTEST_GUILESS_MAIN(TestTls)
#include "tst_tls.moc"
