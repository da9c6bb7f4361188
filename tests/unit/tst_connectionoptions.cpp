#include "redis/ConnectionArguments.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace keylens::redis;

class TestConnectionOptions : public QObject
{
    Q_OBJECT

    static Result<ConnectionOptions> fromFlags(const QStringList& flags, const QProcessEnvironment& environment = {})
    {
        QCommandLineParser parser;
        parser.addOptions(connectionOptions());
        parser.addPositionalArgument(QStringLiteral("uri"), QString());
        if (!parser.parse(QStringList{QStringLiteral("keylens-cli")} + flags))
            return Error{ErrorKind::Usage, parser.errorText()};
        return connectionOptionsFrom(parser, parser.positionalArguments().value(0), environment);
    }

private Q_SLOTS:
    void uris()
    {
        auto plain = parseRedisUri("redis://cache.internal:6380/3");
        QVERIFY(plain.ok());
        QCOMPARE(plain->host, QStringLiteral("cache.internal"));
        QCOMPARE(plain->port, quint16(6380));
        QCOMPARE(plain->db, 3);
        QVERIFY(!plain->hasPassword);

        auto acl = parseRedisUri("redis://alice:s%40cr%3At@10.0.0.5");
        QVERIFY(acl.ok());
        QCOMPARE(acl->user, QByteArray("alice"));
        QCOMPARE(acl->password, QByteArray("s@cr:t"));
        QCOMPARE(acl->port, quint16(6379));
        QCOMPARE(acl->db, 0);

        auto passwordOnly = parseRedisUri("redis://:hunter2@localhost");
        QVERIFY(passwordOnly.ok());
        QVERIFY(passwordOnly->user.isEmpty());
        QCOMPARE(passwordOnly->password, QByteArray("hunter2"));

        auto legacy = parseRedisUri("redis://hunter2@localhost"); // redis-cli: no ':' means a password
        QVERIFY(legacy.ok());
        QCOMPARE(legacy->password, QByteArray("hunter2"));

        auto binaryPassword = parseRedisUri("redis://u:%00%FF@h");
        QVERIFY(binaryPassword.ok());
        QCOMPARE(binaryPassword->password, QByteArray("\x00\xff", 2));

        auto ipv6 = parseRedisUri("redis://[::1]:7000");
        QVERIFY(ipv6.ok());
        QCOMPARE(ipv6->host, QStringLiteral("::1"));
        QCOMPARE(ipv6->port, quint16(7000));
        QCOMPARE(ipv6->address(), QStringLiteral("[::1]:7000"));

        auto hostOnly = parseRedisUri("redis://");
        QVERIFY(hostOnly.ok());
        QCOMPARE(hostOnly->host, QStringLiteral("127.0.0.1"));

        auto unix = parseRedisUri("unix:///run/redis/redis.sock?db=2");
        QVERIFY(unix.ok());
        QCOMPARE(unix->transport, ConnectionOptions::Transport::Unix);
        QCOMPARE(unix->socketPath, QStringLiteral("/run/redis/redis.sock"));
        QCOMPARE(unix->db, 2);

        // rediss:// is the same over TLS, and reconnects over TLS.
        auto tls = parseRedisUri("rediss://app:pw@cache.example.com:6380/2");
        QVERIFY(tls.ok());
        QVERIFY(tls->tls.enabled);
        QCOMPARE(tls->host, QStringLiteral("cache.example.com"));
        QCOMPARE(tls->port, quint16(6380));
        QCOMPARE(tls->db, 2);
        QCOMPARE(tls->uriWithoutPassword(), QStringLiteral("rediss://app@cache.example.com:6380/2"));
        QVERIFY(!parseRedisUri("redis://host")->tls.enabled);

        auto unixAuth = parseRedisUri("unix://bob:pw@/tmp/r.sock");
        QVERIFY(unixAuth.ok());
        QCOMPARE(unixAuth->user, QByteArray("bob"));
        QCOMPARE(unixAuth->socketPath, QStringLiteral("/tmp/r.sock"));
    }

    void badUris_data()
    {
        QTest::addColumn<QByteArray>("uri");
        QTest::addColumn<int>("kind");
        QTest::newRow("scheme") << QByteArray("http://host") << int(ErrorKind::Usage);
        QTest::newRow("port") << QByteArray("redis://host:99999") << int(ErrorKind::Usage);
        QTest::newRow("port text") << QByteArray("redis://host:abc") << int(ErrorKind::Usage);
        QTest::newRow("db") << QByteArray("redis://host/zero") << int(ErrorKind::Usage);
        QTest::newRow("unix relative") << QByteArray("unix://relative.sock") << int(ErrorKind::Usage);
        QTest::newRow("bracket") << QByteArray("redis://[::1") << int(ErrorKind::Usage);
    }
    void badUris()
    {
        QFETCH(QByteArray, uri);
        QFETCH(int, kind);
        auto parsed = parseRedisUri(uri);
        QVERIFY(!parsed.ok());
        QCOMPARE(int(parsed.error().kind), kind);
        QVERIFY(!parsed.error().message.isEmpty());
    }

    // A URI means what it says or is refused: its database from the path or the query (both only when they agree),
    // no query parameter ignored, no percent-encoding sent as it is; and no message quotes the password.
    void uriQueriesAndEncodingsAreReadOrRefused()
    {
        QCOMPARE(parseRedisUri("redis://127.0.0.1:7000?db=3")->db, 3);
        QCOMPARE(parseRedisUri("redis://127.0.0.1:7000/?db=3")->db, 3);
        QCOMPARE(parseRedisUri("redis://127.0.0.1:7000/3?db=3")->db, 3);
        QCOMPARE(parseRedisUri("redis+sentinel://s:26379/mymaster/2?db=2")->db, 2);
        const struct
        {
            QByteArray uri;
            QString says;
        } refused[] = {
            {"redis://127.0.0.1:7000/0?db=3", QStringLiteral("two databases, /0 and ?db=3")},
            {"redis://127.0.0.1:7000?db=1&db=2", QStringLiteral("two databases, 1 and 2")},
            {"redis+sentinel://s:26379/mymaster/1?db=2", QStringLiteral("two databases, /1 and ?db=2")},
            {"redis://127.0.0.1:7000?foo=bar", QStringLiteral("query parameters Keylens does not know: 'foo'")},
            {"redis://127.0.0.1:7000/0?db=0&timeout=5&x",
             QStringLiteral("query parameters Keylens does not know: 'timeout', 'x'")},
            {"unix:///tmp/r.sock?db=1&foo=1", QStringLiteral("'foo'")},
            {"redis://user:Canary%zzPw@127.0.0.1", QStringLiteral("the password (not shown)")},
            {"redis://user:CanaryPw%4@127.0.0.1", QStringLiteral("the password (not shown)")},
            {"redis://Canary%G1:pw@127.0.0.1", QStringLiteral("the user name")},
            {"unix:///tmp/r%zz.sock", QStringLiteral("the socket path")},
            {"redis+sentinel://s:26379/my%master", QStringLiteral("the master name")},
        };
        for (const auto& bad : refused) {
            const Result<ConnectionOptions> parsed = parseRedisUri(bad.uri);
            QVERIFY2(!parsed.ok(), bad.uri.constData());
            QCOMPARE(parsed.error().kind, ErrorKind::Usage);
            QVERIFY2(parsed.error().message.contains(bad.says), qPrintable(parsed.error().message));
            QVERIFY2(!parsed.error().message.contains(QStringLiteral("Canary")), qPrintable(parsed.error().message));
        }
    }

    // The TLS flags as redis-cli names them; the ones that need --tls are refused without it rather than ignored.
    void tlsFlags()
    {
        QTemporaryDir dir;
        const QString pem = dir.filePath(QStringLiteral("ca.pem"));
        QFile file(pem);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        auto options =
            fromFlags({QStringLiteral("--tls"), QStringLiteral("--cacert"), pem, QStringLiteral("--cacertdir"),
                       dir.path(), QStringLiteral("--cert"), pem, QStringLiteral("--key"), pem, QStringLiteral("--sni"),
                       QStringLiteral("cache.internal"), QStringLiteral("--insecure")});
        QVERIFY2(options.ok(), qPrintable(options.ok() ? QString() : options.error().message));
        QVERIFY(options->tls.enabled && options->tls.insecure);
        QCOMPARE(options->tls.caCertFile, pem);
        QCOMPARE(options->tls.caCertDir, dir.path());
        QCOMPARE(options->tls.serverName, QStringLiteral("cache.internal"));
        QVERIFY(
            fromFlags({QStringLiteral("-u"), QStringLiteral("rediss://h:1"), QStringLiteral("--cacert"), pem}).ok());
        for (const QStringList& wrong :
             {QStringList{QStringLiteral("--cacert"), pem}, QStringList{QStringLiteral("--insecure")},
              QStringList{QStringLiteral("--tls"), QStringLiteral("--cert"), pem},
              QStringList{QStringLiteral("--tls"), QStringLiteral("--cacert"), dir.filePath(QStringLiteral("none"))},
              QStringList{QStringLiteral("--tls"), QStringLiteral("-s"), QStringLiteral("/tmp/redis.sock")}}) {
            auto refused = fromFlags(wrong);
            QVERIFY2(!refused.ok(), qPrintable(wrong.join(u' ')));
            QCOMPARE(refused.error().kind, ErrorKind::Usage);
        }
    }

    void sshFlags()
    {
        QTemporaryDir dir;
        const QString key = dir.filePath(QStringLiteral("id_ed25519"));
        QFile file(key);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        auto options = fromFlags({QStringLiteral("-h"), QStringLiteral("10.1.2.3"), QStringLiteral("--ssh"),
                                  QStringLiteral("deploy@bastion.example.com:2222"), QStringLiteral("--ssh-identity"),
                                  key, QStringLiteral("--ssh-known-hosts"), key});
        QVERIFY2(options.ok(), qPrintable(options.ok() ? QString() : options.error().message));
        QCOMPARE(options->ssh.host, QStringLiteral("bastion.example.com"));
        QCOMPARE(options->ssh.port, quint16(2222));
        QCOMPARE(options->ssh.user, QStringLiteral("deploy"));
        QCOMPARE(options->ssh.identityFile, key);
        QCOMPARE(options->ssh.knownHostsFile, key);
        QCOMPARE(options->host, QStringLiteral("10.1.2.3"));
        QCOMPARE(options->ssh.destination(), QStringLiteral("deploy@bastion.example.com:2222"));

        auto plain = fromFlags({QStringLiteral("--ssh"), QStringLiteral("[::1]")});
        QVERIFY(plain.ok());
        QCOMPARE(plain->ssh.host, QStringLiteral("::1"));
        QCOMPARE(plain->ssh.port, quint16(22));
        QVERIFY(plain->ssh.user.isEmpty());

        for (const QStringList& wrong :
             {QStringList{QStringLiteral("--ssh-identity"), key},
              QStringList{QStringLiteral("--ssh"), QStringLiteral("@bastion")},
              QStringList{QStringLiteral("--ssh"), QStringLiteral("bastion:ssh")},
              QStringList{QStringLiteral("--ssh"), QStringLiteral("-oProxyCommand=x")},
              QStringList{QStringLiteral("--ssh"), QStringLiteral("u@")},
              QStringList{QStringLiteral("--ssh"), QStringLiteral("b"), QStringLiteral("--ssh-identity"),
                          dir.filePath(QStringLiteral("no"))},
              QStringList{QStringLiteral("--ssh"), QStringLiteral("b"), QStringLiteral("-s"),
                          QStringLiteral("/tmp/redis.sock")}}) {
            auto refused = fromFlags(wrong);
            QVERIFY2(!refused.ok(), qPrintable(wrong.join(u' ')));
            QCOMPARE(refused.error().kind, ErrorKind::Usage);
        }
    }

    void redisCliFlags()
    {
        auto options =
            fromFlags({QStringLiteral("-h"), QStringLiteral("db.local"), QStringLiteral("-p"), QStringLiteral("6390"),
                       QStringLiteral("-a"), QStringLiteral("pw"), QStringLiteral("--user"), QStringLiteral("app"),
                       QStringLiteral("-n"), QStringLiteral("4")});
        QVERIFY2(options.ok(), qPrintable(options.ok() ? QString() : options.error().message));
        QCOMPARE(options->host, QStringLiteral("db.local"));
        QCOMPARE(options->port, quint16(6390));
        QCOMPARE(options->password, QByteArray("pw"));
        QCOMPARE(options->user, QByteArray("app"));
        QCOMPARE(options->db, 4);

        auto socket = fromFlags({QStringLiteral("-s"), QStringLiteral("/tmp/redis.sock")});
        QVERIFY(socket.ok());
        QCOMPARE(socket->transport, ConnectionOptions::Transport::Unix);

        // Flags override the URI they come with.
        auto overridden = fromFlags(
            {QStringLiteral("-u"), QStringLiteral("redis://a:b@h1:1/1"), QStringLiteral("-n"), QStringLiteral("7")});
        QVERIFY(overridden.ok());
        QCOMPARE(overridden->host, QStringLiteral("h1"));
        QCOMPARE(overridden->db, 7);
        QCOMPARE(overridden->password, QByteArray("b"));

        auto positional = fromFlags({QStringLiteral("redis://h2:2")});
        QVERIFY(positional.ok());
        QCOMPARE(positional->host, QStringLiteral("h2"));

        auto timeouts = fromFlags(
            {QStringLiteral("-t"), QStringLiteral("1.5"), QStringLiteral("--command-timeout"), QStringLiteral("2")});
        QVERIFY(timeouts.ok());
        QCOMPARE(timeouts->connectTimeoutMs, 1500);
        QCOMPARE(timeouts->commandTimeoutMs, 2000);
    }

    void environment()
    {
        QProcessEnvironment environment;
        environment.insert(QStringLiteral("REDISCLI_AUTH"), QStringLiteral("from-env"));
        environment.insert(QStringLiteral("REDIS_URL"), QStringLiteral("redis://envhost:6400/2"));

        auto defaults = fromFlags({}, environment);
        QVERIFY(defaults.ok());
        QCOMPARE(defaults->host, QStringLiteral("envhost")); // REDIS_URL when nothing else is given
        QCOMPARE(defaults->db, 2);
        QCOMPARE(defaults->password, QByteArray("from-env")); // REDISCLI_AUTH fills in the password

        auto explicitHost = fromFlags({QStringLiteral("-p"), QStringLiteral("7000")}, environment);
        QVERIFY(explicitHost.ok());
        QCOMPARE(explicitHost->host, QStringLiteral("127.0.0.1")); // REDIS_URL is ignored once -h/-p/-s is given
        QCOMPARE(explicitHost->port, quint16(7000));

        auto explicitPassword = fromFlags({QStringLiteral("-a"), QStringLiteral("flag")}, environment);
        QVERIFY(explicitPassword.ok());
        QCOMPARE(explicitPassword->password, QByteArray("flag")); // -a beats REDISCLI_AUTH

        auto nothing = fromFlags({}, QProcessEnvironment());
        QVERIFY(nothing.ok());
        QCOMPARE(nothing->address(), QStringLiteral("127.0.0.1:6379"));
        QVERIFY(!nothing->hasPassword);
    }

    void badFlags_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::newRow("port") << QStringList{QStringLiteral("-p"), QStringLiteral("http")};
        QTest::newRow("db") << QStringList{QStringLiteral("-n"), QStringLiteral("-1")};
        QTest::newRow("timeout") << QStringList{QStringLiteral("-t"), QStringLiteral("0")};
        QTest::newRow("user without password") << QStringList{QStringLiteral("--user"), QStringLiteral("x")};
    }
    void badFlags()
    {
        QFETCH(QStringList, flags);
        auto options = fromFlags(flags, QProcessEnvironment());
        QVERIFY(!options.ok());
        QCOMPARE(options.error().kind, ErrorKind::Usage);
    }

    void whichFlagsSayWhereToConnect_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<bool>("given");
        QTest::newRow("nothing") << QStringList{} << false;
        QTest::newRow("timeouts only") << QStringList{QStringLiteral("-t"), QStringLiteral("2"),
                                                      QStringLiteral("--command-timeout"), QStringLiteral("9")}
                                       << false;
        for (const char* flag : {"-h", "-p", "-s", "-u", "-a", "-n", "--user", "--ssh"})
            QTest::newRow(flag) << QStringList{QString::fromLatin1(flag), QStringLiteral("1")} << true;
    }

    void whichFlagsSayWhereToConnect()
    {
        QFETCH(QStringList, flags);
        QFETCH(bool, given);
        QCommandLineParser parser;
        parser.addOptions(connectionOptions());
        QVERIFY(parser.parse(QStringList{QStringLiteral("keylens")} + flags));
        QCOMPARE(connectionArgumentsGiven(parser), given);
    }

    void addressNeverShowsThePassword()
    {
        auto options = parseRedisUri("redis://alice:topsecret@h:1/2");
        QVERIFY(options.ok());
        QVERIFY(!options->address().contains(QStringLiteral("topsecret")));
        QVERIFY(!options->uriWithoutPassword().contains(QStringLiteral("topsecret")));
        QCOMPARE(options->uriWithoutPassword(), QStringLiteral("redis://alice@h:1/2"));
    }

    void redactionHidesWhateverMayBeAPassword_data()
    {
        QTest::addColumn<QByteArray>("uri");
        QTest::addColumn<QString>("shown");
        QTest::newRow("plain") << QByteArray("redis://u:pw@host:1/2") << QStringLiteral("redis://***@host:1/2");
        QTest::newRow("no userinfo") << QByteArray("redis://host:1") << QStringLiteral("redis://host:1");
        QTest::newRow("no scheme") << QByteArray("u:pw@host") << QStringLiteral("***@host");
        QTest::newRow("one slash") << QByteArray("redis:/u:pw@host") << QStringLiteral("redis:/***@host");
        QTest::newRow("no colon") << QByteArray("redis//u:pw@host") << QStringLiteral("redis//***@host");
        QTest::newRow("@ in password") << QByteArray("redis://u:p@w@host") << QStringLiteral("redis://***@host");
    }

    void redactionHidesWhateverMayBeAPassword()
    {
        QFETCH(QByteArray, uri);
        QFETCH(QString, shown);
        QCOMPARE(redactUri(uri), shown);
    }

    void passwordMayHoldSlashesAndQuestionMarks()
    {
        const auto options = parseRedisUri("redis://u:a/b?c@host:6390/3");
        QVERIFY(options.ok());
        QCOMPARE(options->password, QByteArray("a/b?c"));
        QCOMPARE(options->host, QStringLiteral("host"));
        QCOMPARE(options->port, quint16(6390));
        QCOMPARE(options->db, 3);
    }
};

QTEST_APPLESS_MAIN(TestConnectionOptions)
#include "tst_connectionoptions.moc"
