// One key's edits against a real redis-server, checked by a plain hiredis client: every kind of edit, binary bytes
// in keys and values, a conflict for each guarded edit (the value changed since it was read: refused, with what the
// server holds now), and a read-only connection that sends nothing (INFO commandstats).
#include "PlainClient.h"
#include "TestServer.h"
#include "edit/KeyEdit.h"
#include "redis/Connection.h"

#include <QTest>

using namespace keylens;
using edit::KeyEdit;
using Kind = edit::KeyEdit::Kind;
using test::PlainClient;

namespace {
const QByteArray binaryKey("bin:\x00\xff\r\n", 8);
const QByteArray binaryValue("\x1f\x8b\x00\xff value", 10);
} // namespace

class TestKeyEdit : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    std::unique_ptr<redis::Connection> m_connection;
    std::unique_ptr<PlainClient> m_client;

    edit::EditOutcome apply(const KeyEdit& change)
    {
        redis::Result<edit::EditOutcome> outcome = edit::applyEdit(*m_connection, change);
        if (!outcome)
            qWarning("%s", qPrintable(outcome.error().message));
        return outcome ? *outcome : edit::EditOutcome{};
    }
    static KeyEdit make(Kind kind, const QByteArray& key)
    {
        KeyEdit change;
        change.kind = kind;
        change.key = key;
        return change;
    }

private Q_SLOTS:
    void init()
    {
        KEYLENS_START_SERVER(m_server);
        auto opened = redis::Connection::open(m_server.connectionOptions());
        QVERIFY(opened.ok());
        m_connection = std::move(*opened);
        m_client = std::make_unique<PlainClient>(m_server.port());
    }
    void cleanup()
    {
        m_connection.reset();
        m_client.reset();
        m_server.stop();
    }

    void stringEditKeepsTtlAndRefusesAConflict()
    {
        m_client->command({"SET", binaryKey, "read by the user", "PX", "600000"});
        KeyEdit change = make(Kind::SetString, binaryKey);
        change.expected = "read by the user";
        change.value = binaryValue;
        QVERIFY(apply(change).applied);
        QCOMPARE(m_client->command({"GET", binaryKey}), binaryValue);
        QVERIFY(m_client->integer({"PTTL", binaryKey}) > 500'000); // KEEPTTL

        // Someone else writes; the user's edit, based on what they read, is refused with the server's value.
        m_client->command({"SET", binaryKey, "written by someone else", "KEEPTTL"});
        change.expected = binaryValue;
        change.value = "the user's second edit";
        const edit::EditOutcome refused = apply(change);
        QVERIFY(!refused.applied);
        QVERIFY(refused.conflict);
        QCOMPARE(refused.current.value_or("?"), QByteArray("written by someone else"));
        QCOMPARE(m_client->command({"GET", binaryKey}), QByteArray("written by someone else"));

        // Gone since it was read: a conflict with nothing current.
        m_client->command({"DEL", binaryKey});
        change.expected = "written by someone else";
        const edit::EditOutcome gone = apply(change);
        QVERIFY(gone.conflict && !gone.current);
        QCOMPARE(m_client->integer({"EXISTS", binaryKey}), 0LL);
    }

    void hashFields()
    {
        m_client->command({"HSET", "h", "f", "old", "g", "keep"});
        KeyEdit set = make(Kind::SetHashField, "h");
        set.field = "f";
        set.expected = "old";
        set.value = binaryValue;
        QVERIFY(apply(set).applied);
        QCOMPARE(m_client->command({"HGET", "h", "f"}), binaryValue);
        set.expected = "old"; // stale
        set.value = "again";
        QVERIFY(apply(set).conflict);
        QCOMPARE(m_client->command({"HGET", "h", "f"}), binaryValue);

        KeyEdit add = make(Kind::SetHashField, "h");
        add.field = QByteArray("new\x00field", 9);
        add.value = "v";
        QVERIFY(apply(add).applied);
        QVERIFY(apply(add).conflict); // adding it again: it exists now
        QCOMPARE(m_client->command({"HGET", "h", add.field}), QByteArray("v"));

        KeyEdit remove = make(Kind::RemoveHashField, "h");
        remove.field = "g";
        remove.expected = "changed?";
        QVERIFY(apply(remove).conflict);
        remove.expected = "keep";
        QVERIFY(apply(remove).applied);
        QCOMPARE(m_client->integer({"HEXISTS", "h", "g"}), 0LL);
    }

    void listElements()
    {
        m_client->command({"RPUSH", "l", "a", "b", "c", "b"});
        KeyEdit set = make(Kind::SetListElement, "l");
        set.index = 1;
        set.expected = "b";
        set.value = binaryValue;
        QVERIFY(apply(set).applied);
        QCOMPARE(m_client->command({"LINDEX", "l", "1"}), binaryValue);
        m_client->command({"LPUSH", "l", "shifted"}); // every index moves: the stale edit must not land
        set.value = "late";
        const edit::EditOutcome moved = apply(set);
        QVERIFY(moved.conflict);
        QCOMPARE(moved.current.value_or("?"), QByteArray("a"));

        KeyEdit insert = make(Kind::InsertListElement, "l");
        insert.field = "c";
        insert.before = false;
        insert.value = "after c";
        QVERIFY(apply(insert).applied);
        QCOMPARE(m_client->elements({"LRANGE", "l", "0", "-1"}),
                 (std::vector<QByteArray>{"shifted", "a", binaryValue, "c", "after c", "b"}));
        insert.field = "no such pivot";
        QVERIFY(apply(insert).conflict);

        KeyEdit remove = make(Kind::RemoveListElements, "l");
        remove.index = 0;
        remove.value = "b";
        QVERIFY(apply(remove).applied);
        QVERIFY(apply(remove).conflict); // none left
        QCOMPARE(m_client->integer({"LLEN", "l"}), 5LL);
    }

    void setMembers()
    {
        m_client->command({"SADD", "s", "x", "y"});
        KeyEdit add = make(Kind::AddSetMember, "s");
        add.value = binaryValue;
        QVERIFY(apply(add).applied);
        QVERIFY(apply(add).conflict); // a member already
        KeyEdit replace = make(Kind::ReplaceSetMember, "s");
        replace.field = "x";
        replace.value = "x2";
        QVERIFY(apply(replace).applied);
        QCOMPARE(m_client->integer({"SISMEMBER", "s", "x"}), 0LL);
        QCOMPARE(m_client->integer({"SISMEMBER", "s", "x2"}), 1LL);
        QVERIFY(apply(replace).conflict); // x is not there any more
        KeyEdit remove = make(Kind::RemoveSetMember, "s");
        remove.field = binaryValue;
        QVERIFY(apply(remove).applied);
        QCOMPARE(m_client->integer({"SCARD", "s"}), 2LL);
    }

    void sortedSetMembers()
    {
        m_client->command({"ZADD", "z", "1.5", "m", "2", "n"});
        KeyEdit score = make(Kind::SetZsetMember, "z");
        score.field = "m";
        score.expected = "1.50"; // the same score, written differently
        score.score = -0.25;
        QVERIFY(apply(score).applied);
        QCOMPARE(m_client->command({"ZSCORE", "z", "m"}), QByteArray("-0.25"));
        score.expected = "1.5";
        QVERIFY(apply(score).conflict);

        KeyEdit rename = make(Kind::RenameZsetMember, "z");
        rename.field = "n";
        rename.expected = "2";
        rename.value = binaryValue;
        rename.score = 7;
        QVERIFY(apply(rename).applied);
        QCOMPARE(m_client->command({"ZSCORE", "z", binaryValue}), QByteArray("7"));
        QCOMPARE(m_client->integer({"ZCARD", "z"}), 2LL);

        KeyEdit remove = make(Kind::RemoveZsetMember, "z");
        remove.field = "m";
        QVERIFY(apply(remove).applied);
        QVERIFY(apply(remove).conflict);
        QCOMPARE(m_client->integer({"ZCARD", "z"}), 1LL);
    }

    void streamEntries()
    {
        m_client->command({"XADD", "x", "*", "first", "entry"}); // an entry is added to a stream that was read
        KeyEdit add = make(Kind::AddStreamEntry, "x");
        add.fields = {"field", binaryValue};
        const edit::EditOutcome added = apply(add);
        QVERIFY(added.applied);
        QVERIFY(added.reply.contains('-'));
        QCOMPARE(m_client->integer({"XLEN", "x"}), 2LL);
        KeyEdit remove = make(Kind::RemoveStreamEntry, "x");
        remove.field = added.reply;
        QVERIFY(apply(remove).applied);
        QVERIFY(apply(remove).conflict);
        QCOMPARE(m_client->integer({"XLEN", "x"}), 1LL);
    }

    void newKeysOfEveryTypeWithTtl()
    {
        const std::vector<std::pair<keyspace::KeyType, QByteArrayList>> kinds = {
            {keyspace::KeyType::String, {}},       {keyspace::KeyType::Hash, {"f", "v"}},
            {keyspace::KeyType::List, {"a", "b"}}, {keyspace::KeyType::Set, {"a", "b"}},
            {keyspace::KeyType::ZSet, {"1", "a"}}, {keyspace::KeyType::Stream, {"f", "v"}},
        };
        for (const auto& [type, fields] : kinds) {
            KeyEdit create = make(Kind::CreateKey, "new:" + keyspace::keyTypeName(type).toByteArray());
            create.type = type;
            create.value = binaryValue;
            create.fields = fields;
            create.ttlMs = 120'000;
            QVERIFY(apply(create).applied);
            QCOMPARE(m_client->command({"TYPE", create.key}), keyspace::keyTypeName(type).toByteArray());
            const long long pttl = m_client->integer({"PTTL", create.key});
            QVERIFY(pttl > 100'000 && pttl <= 120'000);
            const edit::EditOutcome again = apply(create);
            QVERIFY(again.conflict); // never over a key that exists
        }
        QCOMPARE(m_client->command({"GET", "new:string"}), binaryValue);
    }

    void renameDuplicateAndTtl()
    {
        m_client->command({"SET", binaryKey, "v", "PX", "600000"});
        m_client->command({"SET", "taken", "t"});
        KeyEdit rename = make(Kind::Rename, binaryKey);
        rename.newKey = "taken";
        QVERIFY(apply(rename).conflict);
        rename.newKey = "renamed";
        QVERIFY(apply(rename).applied);
        QCOMPARE(m_client->integer({"EXISTS", binaryKey}), 0LL);
        QVERIFY(m_client->integer({"PTTL", "renamed"}) > 500'000);

        // To another database: COPY there and DEL here at once, never over a key there.
        m_client->command({"SELECT", "3"});
        m_client->command({"SET", "taken", "in db 3"});
        m_client->command({"SELECT", "0"});
        KeyEdit move = make(Kind::Rename, "renamed");
        move.newKey = "taken";
        move.database = 3;
        QVERIFY(apply(move).conflict);
        QCOMPARE(m_client->integer({"EXISTS", "renamed"}), 1LL);
        move.newKey = "moved";
        QVERIFY(apply(move).applied);
        QCOMPARE(m_client->integer({"EXISTS", "renamed"}), 0LL);
        m_client->command({"SELECT", "3"});
        QCOMPARE(m_client->command({"GET", "moved"}), QByteArray("v"));
        m_client->command({"SELECT", "0"});

        KeyEdit copy = make(Kind::Duplicate, "taken");
        copy.newKey = "taken:copy";
        QVERIFY(apply(copy).applied);
        QVERIFY(apply(copy).conflict);
        QCOMPARE(m_client->command({"GET", "taken:copy"}), QByteArray("t"));

        KeyEdit ttl = make(Kind::SetTtl, "taken");
        ttl.ttlMs = 90'000;
        QVERIFY(apply(ttl).applied);
        QVERIFY(m_client->integer({"PTTL", "taken"}) > 80'000);
        QVERIFY(apply(make(Kind::Persist, "taken")).applied);
        QCOMPARE(m_client->integer({"PTTL", "taken"}), -1LL);
        QVERIFY(apply(make(Kind::Persist, "taken")).conflict);
        ttl.key = "gone";
        QVERIFY(apply(ttl).conflict);
    }

    void readOnlyConnectionSendsNothing()
    {
        m_client->command({"SET", "k", "v"});
        redis::ConnectionOptions options = m_server.connectionOptions();
        options.readOnly = true;
        auto readOnly = redis::Connection::open(options);
        QVERIFY(readOnly.ok());
        const std::vector<const char*> stats = {"set",      "watch", "multi",   "exec",    "hset", "lset", "linsert",
                                                "lrem",     "sadd",  "srem",    "zadd",    "zrem", "xadd", "xdel",
                                                "renamenx", "copy",  "pexpire", "persist", "hdel"};
        for (int kind = 0; kind <= int(Kind::Persist); ++kind) {
            KeyEdit change = make(Kind(kind), "k");
            change.expected = "v";
            change.newKey = "k2";
            change.fields = {"f", "v"};
            redis::Result<edit::EditOutcome> outcome = edit::applyEdit(**readOnly, change);
            QVERIFY(!outcome.ok());
            QCOMPARE(outcome.error().kind, redis::ErrorKind::ReadOnly);
        }
        for (const char* command : stats)
            QCOMPARE(m_client->commandCalls(command), command == QByteArrayView("set") ? 1LL : 0LL);
        QCOMPARE(m_client->command({"GET", "k"}), QByteArray("v"));
    }

    // A key of another type than the one read is a conflict that names the type now; nothing changes.
    void anotherTypeIsAConflict()
    {
        m_client->command({"SET", "str", "v"});
        KeyEdit add = make(Kind::AddSetMember, "str");
        add.value = "m";
        const edit::EditOutcome outcome = apply(add);
        QVERIFY(!outcome.applied && outcome.conflict && !outcome.keyGone);
        QVERIFY2(outcome.message.contains(QStringLiteral("is a string now")), qPrintable(outcome.message));
        KeyEdit set = make(Kind::SetHashField, "str");
        set.field = "f";
        set.value = "v";
        const edit::EditOutcome hashed = apply(set);
        QVERIFY(!hashed.applied && hashed.conflict);
        QCOMPARE(m_client->command({"GET", "str"}), QByteArray("v"));
        QCOMPARE(m_client->command({"TYPE", "str"}), QByteArray("string"));
    }

    // Every element edit of a key deleted or renamed by another client since it was read: a conflict that says the
    // key is gone, and no key is created under the old name (RPUSH, SADD, HSET, ZADD, XADD would all create one).
    void anElementEditNeverResurrectsAKey()
    {
        const std::vector<std::pair<KeyEdit, std::vector<QByteArray>>> cases = [&] {
            std::vector<std::pair<KeyEdit, std::vector<QByteArray>>> list;
            const auto add = [&](Kind kind, std::vector<QByteArray> create, auto fill) {
                KeyEdit change = make(kind, create[1]);
                fill(change);
                list.emplace_back(change, create);
            };
            add(Kind::SetHashField, {"HSET", "gone:hash", "f", "v"}, [](KeyEdit& e) {
                e.field = "new";
                e.value = "x";
            });
            add(Kind::SetHashField, {"HSET", "gone:hash2", "f", "v"}, [](KeyEdit& e) {
                e.field = "f";
                e.value = "x";
                e.expected = QByteArray("v");
            });
            add(Kind::RemoveHashField, {"HSET", "gone:hash3", "f", "v"}, [](KeyEdit& e) {
                e.field = "f";
                e.expected = QByteArray("v");
            });
            add(Kind::AppendListElement, {"RPUSH", "gone:list", "a"}, [](KeyEdit& e) { e.value = "b"; });
            add(Kind::SetListElement, {"RPUSH", "gone:list2", "a"}, [](KeyEdit& e) {
                e.index = 0;
                e.value = "b";
                e.expected = QByteArray("a");
            });
            add(Kind::InsertListElement, {"RPUSH", "gone:list3", "a"}, [](KeyEdit& e) {
                e.field = "a";
                e.value = "b";
            });
            add(Kind::AddSetMember, {"SADD", "gone:set", "a"}, [](KeyEdit& e) { e.value = "b"; });
            add(Kind::ReplaceSetMember, {"SADD", "gone:set2", "a"}, [](KeyEdit& e) {
                e.field = "a";
                e.value = "b";
            });
            add(Kind::SetZsetMember, {"ZADD", "gone:zset", "1", "a"}, [](KeyEdit& e) {
                e.field = "b";
                e.score = 2;
            });
            add(Kind::AddStreamEntry, {"XADD", "gone:stream", "*", "f", "v"}, [](KeyEdit& e) {
                e.fields = {"f", "v2"};
            });
            return list;
        }();
        for (bool renamed : {false, true}) {
            for (const auto& [change, create] : cases) {
                m_client->command(create);
                if (renamed)
                    QCOMPARE(m_client->command({"RENAME", change.key, change.key + ":renamed"}), QByteArray("OK"));
                else
                    QCOMPARE(m_client->integer({"DEL", change.key}), 1LL);
                const edit::EditOutcome outcome = apply(change);
                QVERIFY2(!outcome.applied && outcome.conflict && outcome.keyGone, change.key.constData());
                QVERIFY2(outcome.message.contains(QStringLiteral("is gone")), qPrintable(outcome.message));
                QCOMPARE(m_client->integer({"EXISTS", change.key}), 0LL);
                if (renamed) // the renamed key is untouched
                    QCOMPARE(m_client->integer({"EXISTS", change.key + ":renamed"}), 1LL);
                m_client->command({"FLUSHALL"});
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestKeyEdit)
#include "tst_keyedit.moc"
