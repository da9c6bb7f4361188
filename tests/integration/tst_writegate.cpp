// The write gate of a read-only connection against a real redis-server: every write is refused before it is sent
// (INFO commandstats, asked by a plain client, counts no call and the data is unchanged), reads pass, refusals keep
// their place in a pipeline, and a server that denies COMMAND still gets the gate's fixed list.
#include "PlainClient.h"
#include "TestServer.h"
#include "redis/Connection.h"

#include <QTest>

using namespace keylens;
using redis::ErrorKind;

namespace {

struct Write
{
    const char* statName; // as INFO commandstats names it
    std::vector<QByteArray> command;
};

const std::vector<Write>& writes()
{
    static const std::vector<Write> list = {
        {"set", {"SET", "k", "changed"}},
        {"unlink", {"UNLINK", "k"}},
        {"del", {"del", "k"}},
        {"hset", {"HSET", "h", "f", "changed"}},
        {"expire", {"EXPIRE", "k", "10"}},
        {"flushall", {"FLUSHALL"}},
        {"flushdb", {"FLUSHDB", "ASYNC"}},
        {"config|set", {"CONFIG", "SET", "maxmemory", "1"}},
        {"eval", {"EVAL", "return redis.call('set', 'k', 'changed')", "0"}},
        {"client|kill", {"CLIENT", "KILL", "ID", "999999"}},
        {"swapdb", {"SWAPDB", "0", "1"}},
        {"rename", {"RENAME", "k", "k2"}},
        {"publish", {"PUBLISH", "channel", "message"}},
        {"debug", {"DEBUG", "SLEEP", "0"}},
        {"shutdown", {"SHUTDOWN", "NOSAVE"}},
        // Server state that COMMAND does not flag as a write.
        {"script|flush", {"SCRIPT", "FLUSH"}},
        {"script|load", {"script", "load", "return 1"}},
        {"function|flush", {"FUNCTION", "FLUSH"}},
        {"memory|purge", {"MEMORY", "PURGE"}},
        {"client|no-evict", {"CLIENT", "NO-EVICT", "on"}},
        {"latency|reset", {"LATENCY", "RESET"}},
        {"slowlog|reset", {"SLOWLOG", "RESET"}},
        {"acl|deluser", {"ACL", "DELUSER", "nocommand"}},
        {"acl|log", {"ACL", "LOG", "RESET"}},
        {"config|rewrite", {"CONFIG", "REWRITE"}},
    };
    return list;
}

redis::Result<redis::Reply> run(redis::Connection& connection, const std::vector<QByteArray>& command)
{
    std::vector<QByteArrayView> views(command.begin(), command.end());
    connection.append(views);
    return connection.read();
}

} // namespace

class TestWriteGate : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;

    redis::ConnectionOptions readOnly() const
    {
        redis::ConnectionOptions options = m_server.connectionOptions();
        options.readOnly = true;
        return options;
    }

    void seed()
    {
        test::PlainClient client(m_server.port());
        QCOMPARE(client.command({"FLUSHALL"}), QByteArray("OK"));
        QCOMPARE(client.command({"SET", "k", "original"}), QByteArray("OK"));
        QCOMPARE(client.integer({"HSET", "h", "f", "original"}), 1LL);
        QCOMPARE(client.command({"CONFIG", "RESETSTAT"}), QByteArray("OK"));
    }

    // Every write is refused with ErrorKind::ReadOnly naming it, and the server counted none of them.
    void checkEveryWriteRefused(redis::Connection& connection)
    {
        test::PlainClient client(m_server.port());
        for (const Write& write : writes()) {
            redis::Result<redis::Reply> reply = run(connection, write.command);
            QVERIFY2(!reply, write.statName);
            QCOMPARE(reply.error().kind, ErrorKind::ReadOnly);
            QVERIFY2(reply.error().message.contains(QStringLiteral("was not sent")), qPrintable(reply.error().message));
            QCOMPARE(client.commandCalls(write.statName), 0LL);
        }
        QCOMPARE(client.command({"GET", "k"}), QByteArray("original"));
        QCOMPARE(client.command({"HGET", "h", "f"}), QByteArray("original"));
        QCOMPARE(client.command({"PING"}), QByteArray("PONG")); // SHUTDOWN never arrived
    }

private Q_SLOTS:
    void initTestCase() { KEYLENS_START_SERVER(m_server); }
    void init() { seed(); }

    void everyWriteIsRefusedBeforeSending()
    {
        auto connection = redis::Connection::open(readOnly());
        QVERIFY2(connection, connection ? "" : qPrintable(connection.error().message));
        checkEveryWriteRefused(**connection);
        // The refusals name the command, a subcommand too.
        redis::Result<redis::Reply> refused = (*connection)->command({"CONFIG", "SET", "maxmemory", "1"});
        QVERIFY(refused.error().message.contains(QStringLiteral("CONFIG SET was not sent")));
        // CLIENT SETNAME is the user's to refuse too (Keylens's own, in the handshake, is sent): no client renamed.
        refused = (*connection)->command({"CLIENT", "SETNAME", "renamed"});
        QCOMPARE(refused.error().kind, ErrorKind::ReadOnly);
        QVERIFY(!test::PlainClient(m_server.port()).command({"CLIENT", "LIST"}).contains("name=renamed"));
        QVERIFY(test::PlainClient(m_server.port()).command({"CLIENT", "LIST"}).contains("name=keylens"));
        // As typed, not upper-cased.
        refused = (*connection)->command({"script", "Flush"});
        QVERIFY2(refused.error().message.contains(QStringLiteral(": script Flush was not sent")),
                 qPrintable(refused.error().message));
    }

    void readsPass()
    {
        test::PlainClient client(m_server.port());
        QVERIFY(client.command({"RPUSH", "l", "a", "b"}) == "2");
        QCOMPARE(client.integer({"ZADD", "z", "1", "m"}), 1LL);
        QVERIFY(!client.command({"XADD", "s", "*", "f", "v"}).isEmpty());
        auto connection = redis::Connection::open(readOnly());
        QVERIFY(connection);
        const std::vector<std::vector<QByteArray>> reads = {
            {"GET", "k"},
            {"SCAN", "0"},
            {"TYPE", "k"},
            {"PTTL", "k"},
            {"MEMORY", "USAGE", "k"},
            {"INFO", "memory"},
            {"CONFIG", "GET", "maxmemory"},
            {"OBJECT", "ENCODING", "k"},
            {"HSCAN", "h", "0"},
            {"LRANGE", "l", "0", "-1"},
            {"ZRANGE", "z", "0", "-1", "WITHSCORES"},
            {"XRANGE", "s", "-", "+"},
            {"CLIENT", "LIST"},
            {"CLIENT", "GETNAME"},
            {"SCRIPT", "EXISTS", "0000000000000000000000000000000000000000"},
            {"FUNCTION", "LIST"},
            {"MEMORY", "STATS"},
            {"SLOWLOG", "GET"},
            {"ACL", "WHOAMI"},
            {"ACL", "LOG"},
            {"DBSIZE"},
            {"STRLEN", "k"},
        };
        for (const auto& read : reads) {
            redis::Result<redis::Reply> reply = run(**connection, read);
            if (!reply)
                QFAIL(qPrintable(QString::fromUtf8(read[0]) + QStringLiteral(": ") + reply.error().message));
            QVERIFY2(!reply->isError(), read[0].constData());
        }
    }

    // A refusal takes its place among the replies: GET, SET (refused), GET read back in order, and a pipeline()
    // with a refused write in the middle reads every other reply, so the next command gets its own answer.
    void refusalsKeepTheirPlaceInAPipeline()
    {
        auto connection = redis::Connection::open(readOnly());
        QVERIFY(connection);
        redis::Connection& c = **connection;
        c.append({"GET", "k"});
        c.append({"SET", "k", "changed"});
        c.append({"HGET", "h", "f"});
        QCOMPARE(c.pendingReplies(), std::size_t(3));
        redis::Result<redis::Reply> first = c.read();
        QVERIFY(first);
        QCOMPARE(first->bytes(), QByteArrayView("original"));
        redis::Result<redis::Reply> second = c.read();
        QVERIFY(!second);
        QCOMPARE(second.error().kind, ErrorKind::ReadOnly);
        redis::Result<redis::Reply> third = c.read();
        QVERIFY(third);
        QCOMPARE(third->bytes(), QByteArrayView("original"));
        QCOMPARE(c.pendingReplies(), std::size_t(0));

        auto piped = c.pipeline({{"GET", "k"}, {"DEL", "k"}, {"ECHO", "after"}});
        QVERIFY(!piped);
        QCOMPARE(piped.error().kind, ErrorKind::ReadOnly);
        redis::Result<redis::Reply> next = c.command({"ECHO", "next"});
        QVERIFY(next);
        QCOMPARE(next->bytes(), QByteArrayView("next"));
        QVERIFY(!c.isBroken());
        test::PlainClient client(m_server.port());
        QCOMPARE(client.commandCalls("del"), 0LL);
        QCOMPARE(client.commandCalls("set"), 0LL);
    }

    // An ACL user who may not run COMMAND: the gate falls back on its fixed list of reads, and still refuses.
    void withoutTheCommandTable()
    {
        test::PlainClient admin(m_server.port());
        QCOMPARE(
            admin.command({"ACL", "SETUSER", "nocommand", "reset", "on", ">secret", "~*", "&*", "+@all", "-command"}),
            QByteArray("OK"));
        redis::ConnectionOptions options = readOnly();
        options.user = "nocommand";
        options.password = "secret";
        options.hasPassword = true;
        auto connection = redis::Connection::open(options);
        QVERIFY2(connection, connection ? "" : qPrintable(connection.error().message));
        QCOMPARE(admin.commandCalls("command"), 0LL); // denied, so not counted as run
        checkEveryWriteRefused(**connection);
        for (const std::vector<QByteArray>& read :
             {std::vector<QByteArray>{"GET", "k"}, {"MEMORY", "USAGE", "k"}, {"SCAN", "0"}, {"INFO", "server"}}) {
            redis::Result<redis::Reply> reply = run(**connection, read);
            QVERIFY2(reply && !reply->isError(), read[0].constData());
        }
    }

    // The control: the same commands on a connection that is not read-only reach the server.
    void aWritableConnectionWrites()
    {
        redis::ConnectionOptions options = m_server.connectionOptions();
        auto connection = redis::Connection::open(options);
        QVERIFY(connection);
        redis::Result<redis::Reply> reply = (*connection)->command({"SET", "k", "changed"});
        QVERIFY(reply && !reply->isError());
        test::PlainClient client(m_server.port());
        QCOMPARE(client.commandCalls("set"), 1LL);
        QCOMPARE(client.command({"GET", "k"}), QByteArray("changed"));
    }
};

QTEST_GUILESS_MAIN(TestWriteGate)
#include "tst_writegate.moc"
