#include "redis/Error.h"

#include <QTest>

using namespace keylens::redis;

class TestErrors : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void classifies_data()
    {
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<int>("kind");
        // Error replies as Redis 6 and 7 send them.
        QTest::newRow("wrongpass") << QByteArray("WRONGPASS invalid username-password pair or user is disabled.")
                                   << int(ErrorKind::AuthFailed);
        QTest::newRow("redis5 password") << QByteArray("ERR invalid password") << int(ErrorKind::AuthFailed);
        QTest::newRow("no password set") << QByteArray("ERR AUTH <password> called without any password configured for "
                                                       "the default user. Are you sure your configuration is correct?")
                                         << int(ErrorKind::AuthFailed);
        QTest::newRow("noauth") << QByteArray("NOAUTH Authentication required.") << int(ErrorKind::AuthRequired);
        QTest::newRow("noperm") << QByteArray("NOPERM this user has no permissions to run the 'memory|usage' command")
                                << int(ErrorKind::NoPermission);
        QTest::newRow("unknown") << QByteArray("ERR unknown command 'MEMORY', with args beginning with: 'USAGE' ")
                                 << int(ErrorKind::UnknownCommand);
        QTest::newRow("subcommand") << QByteArray("ERR unknown subcommand 'USAGE'. Try MEMORY HELP.")
                                    << int(ErrorKind::UnknownCommand);
        QTest::newRow("loading") << QByteArray("LOADING Redis is loading the dataset in memory")
                                 << int(ErrorKind::Loading);
        QTest::newRow("other") << QByteArray("ERR syntax error") << int(ErrorKind::Server);
    }
    void classifies()
    {
        QFETCH(QByteArray, reply);
        QFETCH(int, kind);
        QCOMPARE(int(classifyErrorReply(reply)), kind);
        const Error error = errorFromReply(reply, "MEMORY USAGE");
        QCOMPARE(int(error.kind), kind);
        QVERIFY(error.message.contains(QString::fromUtf8(reply))); // the server's own words stay in the message
    }

    void connectionErrorsAreTheOnesThatStopAConnect()
    {
        QVERIFY((Error{ErrorKind::Refused, {}}).isConnectionError());
        QVERIFY((Error{ErrorKind::AuthFailed, {}}).isConnectionError());
        QVERIFY((Error{ErrorKind::Timeout, {}}).isConnectionError());
        QVERIFY(!(Error{ErrorKind::NoPermission, {}}).isConnectionError());
        QVERIFY(!(Error{ErrorKind::Usage, {}}).isConnectionError());
    }

    void denialsOfAKeyAreNotDenialsOfTheCommand_data()
    {
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<QByteArray>("command");
        QTest::addColumn<int>("denial");
        using keylens::redis::Denial;
        QTest::newRow("7.0 key") << QByteArray("NOPERM this user has no permissions to access one of the keys used as "
                                               "arguments")
                                 << QByteArray("PTTL") << int(Denial::Key);
        QTest::newRow("7.2 key") << QByteArray("NOPERM No permissions to access a key") << QByteArray("TYPE")
                                 << int(Denial::Key);
        QTest::newRow("7.0 command") << QByteArray("NOPERM this user has no permissions to run the 'pttl' command")
                                     << QByteArray("PTTL") << int(Denial::Command);
        QTest::newRow("7.2 command") << QByteArray("NOPERM User bob has no permissions to run the 'type' command")
                                     << QByteArray("TYPE") << int(Denial::Command);
        QTest::newRow("subcommand") << QByteArray(
                                           "NOPERM User bob has no permissions to run the 'memory|usage' command")
                                    << QByteArray("MEMORY USAGE") << int(Denial::Command);
        QTest::newRow("another command named") << QByteArray("NOPERM User 'pttlx' has no permissions to access a key")
                                               << QByteArray("PTTL") << int(Denial::Key);
        QTest::newRow("renamed") << QByteArray("ERR unknown command 'PTTL', with args beginning with: ")
                                 << QByteArray("PTTL") << int(Denial::Command);
        QTest::newRow("other error") << QByteArray("WRONGTYPE Operation against a key") << QByteArray("PTTL")
                                     << int(Denial::None);
    }

    void denialsOfAKeyAreNotDenialsOfTheCommand()
    {
        QFETCH(QByteArray, reply);
        QFETCH(QByteArray, command);
        QFETCH(int, denial);
        QCOMPARE(int(denialOf(reply, command)), denial);
    }
};

QTEST_APPLESS_MAIN(TestErrors)
#include "tst_errors.moc"
