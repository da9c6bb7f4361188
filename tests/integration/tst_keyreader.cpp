// The details pane's reads against the server's own answers: every collection type paged to the end
// with small pages equals what LRANGE/SMEMBERS/ZRANGE/HGETALL/XRANGE return, and the overview's fields
// equal TYPE, OBJECT ENCODING, PTTL, MEMORY USAGE and the length commands.
#include "PlainClient.h"
#include "TestServer.h"
#include "inspect/KeyReader.h"
#include "redis/Connection.h"

#include <QTest>

#include <algorithm>

using namespace keylens;
using keyspace::KeyType;

namespace {

std::vector<std::pair<QByteArray, QByteArray>> readAll(redis::Connection& connection, const QByteArray& key,
                                                       KeyType type, int pageSize, int* pages,
                                                       const inspect::ValueQuery& query = {})
{
    std::vector<std::pair<QByteArray, QByteArray>> rows;
    QByteArray position;
    for (*pages = 0; *pages < 100000;) {
        ++*pages;
        redis::Result<inspect::ValuePage> page =
            inspect::readValuePage(connection, key, type, query, position, pageSize);
        if (!page)
            return {};
        for (const inspect::ValueRow& row : page->rows)
            rows.emplace_back(row.first, row.second);
        position = page->nextPosition;
        if (page->done)
            break;
    }
    return rows;
}

// Redis formats scores its own way; compare them as numbers.
double score(const QByteArray& text)
{
    return text.toDouble();
}

} // namespace

class TestKeyReader : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    std::unique_ptr<redis::Connection> m_connection;

private Q_SLOTS:
    void initTestCase()
    {
        KEYLENS_START_SERVER(m_server);
        test::PlainClient client(m_server.port());
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 0; i < 2500; ++i) {
            const QByteArray n = QByteArray::number(i);
            commands.push_back({"RPUSH", "l", "element-" + n});
            commands.push_back({"SADD", "s", "member-" + n});
            commands.push_back({"ZADD", "z", QByteArray::number(i * 0.5), "m" + n});
            commands.push_back({"HSET", "h", "f" + n, QByteArray("v\x00", 2) + n});
            commands.push_back({"XADD", "x", "*", "n", n, "k", "v"});
        }
        commands.push_back({"SET", "str", "hello", "PX", "100000"});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
        auto opened = redis::Connection::open(m_server.connectionOptions());
        QVERIFY(opened.ok());
        m_connection = std::move(*opened);
    }

    void listPagesEqualLrange()
    {
        int pages = 0;
        const auto rows = readAll(*m_connection, "l", KeyType::List, 300, &pages);
        QCOMPARE(pages, 9);
        test::PlainClient client(m_server.port());
        QCOMPARE(rows.size(), std::size_t(client.integer({"LLEN", "l"})));
        for (std::size_t i = 0; i < rows.size(); i += 123) {
            QCOMPARE(rows[i].first, QByteArray::number(qulonglong(i)));
            QCOMPARE(rows[i].second, client.command({"LINDEX", "l", QByteArray::number(qulonglong(i))}));
        }
    }

    void setHashAndZsetPagesCoverEveryElementOnce()
    {
        test::PlainClient client(m_server.port());
        int pages = 0;
        auto set = readAll(*m_connection, "s", KeyType::Set, 200, &pages);
        QVERIFY(pages > 1);
        std::vector<QByteArray> members;
        for (const auto& row : set)
            members.push_back(row.first);
        std::sort(members.begin(), members.end());
        QCOMPARE(std::unique(members.begin(), members.end()) - members.begin(), 2500);
        for (const QByteArray& member : members)
            QCOMPARE(client.integer({"SISMEMBER", "s", member}), 1LL);

        const auto hash = readAll(*m_connection, "h", KeyType::Hash, 200, &pages);
        QCOMPARE(hash.size(), std::size_t(2500));
        for (std::size_t i = 0; i < hash.size(); i += 97)
            QCOMPARE(hash[i].second, client.command({"HGET", "h", hash[i].first}));

        const auto zset = readAll(*m_connection, "z", KeyType::ZSet, 200, &pages);
        QCOMPARE(zset.size(), std::size_t(2500));
        for (std::size_t i = 0; i < zset.size(); i += 97)
            QCOMPARE(score(zset[i].second), score(client.command({"ZSCORE", "z", zset[i].first})));
    }

    // A leaderboard reads by score: row i is the member of rank i (ZRANK), or of reverse rank i (ZREVRANK).
    void sortedSetsComeByScoreBothWays()
    {
        test::PlainClient client(m_server.port());
        for (const bool highestFirst : {false, true}) {
            int pages = 0;
            inspect::ValueQuery query;
            query.highestScoreFirst = highestFirst;
            const auto rows = readAll(*m_connection, "z", KeyType::ZSet, 300, &pages, query);
            QCOMPARE(rows.size(), std::size_t(client.integer({"ZCARD", "z"})));
            QCOMPARE(pages, 9);
            for (std::size_t i = 0; i < rows.size(); i += 71) {
                const long long rank = client.integer({highestFirst ? "ZREVRANK" : "ZRANK", "z", rows[i].first});
                QCOMPARE(rank, qint64(i));
                QCOMPARE(score(rows[i].second), score(client.command({"ZSCORE", "z", rows[i].first})));
            }
            for (std::size_t i = 1; i < rows.size(); ++i)
                QVERIFY(highestFirst ? score(rows[i - 1].second) >= score(rows[i].second)
                                     : score(rows[i - 1].second) <= score(rows[i].second));
        }
    }

    // A search finds exactly the elements whose names match, as the server's MATCH reads the pattern; the test
    // knows which it wrote (f0..f2499, member-0..member-2499, m0..m2499).
    void searchFindsTheMatchingElements_data()
    {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<int>("type");
        QTest::addColumn<QByteArray>("match");
        QTest::addColumn<int>("expected");
        QTest::newRow("hash prefix") << QByteArray("h") << int(KeyType::Hash) << QByteArray("f12*") << 111;
        QTest::newRow("set ?") << QByteArray("s") << int(KeyType::Set) << QByteArray("member-24?") << 10;
        QTest::newRow("zset class") << QByteArray("z") << int(KeyType::ZSet) << QByteArray("m[12]") << 2;
        QTest::newRow("nothing") << QByteArray("h") << int(KeyType::Hash) << QByteArray("nope*") << 0;
    }

    void searchFindsTheMatchingElements()
    {
        QFETCH(QByteArray, key);
        QFETCH(int, type);
        QFETCH(QByteArray, match);
        QFETCH(int, expected);
        int pages = 0;
        inspect::ValueQuery query;
        query.match = match;
        const auto rows = readAll(*m_connection, key, KeyType(type), 100, &pages, query);
        std::vector<QByteArray> names;
        for (const auto& row : rows)
            names.push_back(row.first);
        std::sort(names.begin(), names.end());
        names.erase(std::unique(names.begin(), names.end()), names.end()); // SCAN may repeat an element
        QCOMPARE(int(names.size()), expected);
        test::PlainClient client(m_server.port());
        for (const auto& row : rows) {
            if (KeyType(type) == KeyType::Hash)
                QCOMPARE(row.second, client.command({"HGET", key, row.first}));
            else if (KeyType(type) == KeyType::ZSet)
                QCOMPARE(score(row.second), score(client.command({"ZSCORE", key, row.first})));
        }
    }

    // Lists and streams cannot be searched on the server: the pattern is ignored rather than failing.
    void searchIsOnlyForTypesTheServerSearches()
    {
        QVERIFY(inspect::canSearch(KeyType::Hash) && inspect::canSearch(KeyType::Set));
        QVERIFY(inspect::canSearch(KeyType::ZSet));
        QVERIFY(!inspect::canSearch(KeyType::List) && !inspect::canSearch(KeyType::Stream));
        int pages = 0;
        inspect::ValueQuery query;
        query.match = "nothing*";
        QCOMPARE(readAll(*m_connection, "l", KeyType::List, 1000, &pages, query).size(), std::size_t(2500));
    }

    void streamPagesFollowIds()
    {
        int pages = 0;
        const auto entries = readAll(*m_connection, "x", KeyType::Stream, 400, &pages);
        QCOMPARE(entries.size(), std::size_t(2500));
        QCOMPARE(pages, 7);
        test::PlainClient client(m_server.port());
        QCOMPARE(entries.size(), std::size_t(client.integer({"XLEN", "x"})));
        // Ids strictly increase: no entry twice, none skipped at a page boundary (the count above).
        const auto id = [](const QByteArray& text) {
            const qsizetype dash = text.indexOf('-');
            return std::make_pair(text.left(dash).toULongLong(), text.mid(dash + 1).toULongLong());
        };
        for (std::size_t i = 1; i < entries.size(); ++i)
            QVERIFY(id(entries[i - 1].first) < id(entries[i].first));
        QCOMPARE(entries[7].second, QByteArray("n=7, k=v"));
    }

    void overviewEqualsPlainCommands_data()
    {
        QTest::addColumn<QByteArray>("key");
        for (const char* key : {"l", "s", "z", "h", "x", "str"})
            QTest::newRow(key) << QByteArray(key);
    }

    void overviewEqualsPlainCommands()
    {
        QFETCH(QByteArray, key);
        redis::Result<inspect::KeyOverview> overview = inspect::readKeyOverview(*m_connection, key);
        QVERIFY(overview.ok());
        test::PlainClient client(m_server.port());
        QCOMPARE(overview->typeName, client.command({"TYPE", key}));
        QCOMPARE(overview->encoding, client.command({"OBJECT", "ENCODING", key}));
        QCOMPARE(qlonglong(*overview->memoryBytes), client.integer({"MEMORY", "USAGE", key}));
        const QByteArray type = overview->typeName;
        const QByteArray length = type == "list"     ? "LLEN"
                                  : type == "set"    ? "SCARD"
                                  : type == "zset"   ? "ZCARD"
                                  : type == "hash"   ? "HLEN"
                                  : type == "stream" ? "XLEN"
                                                     : "STRLEN";
        QCOMPARE(qlonglong(*overview->length), client.integer({length, key}));
        const long long pttl = client.integer({"PTTL", key});
        if (pttl < 0)
            QCOMPARE(overview->pttlMs, -1LL);
        else
            QVERIFY(overview->pttlMs > 0 && overview->pttlMs <= 100000);
        if (key == "str")
            QCOMPARE(overview->valuePrefix, QByteArray("hello"));
        QVERIFY(overview->problems.isEmpty());
    }

    void bigStringIsReadAsAPrefix()
    {
        test::PlainClient client(m_server.port());
        QCOMPARE(client.command({"SET", "huge", QByteArray(300000, 'z')}), QByteArray("OK"));
        redis::Result<inspect::KeyOverview> overview = inspect::readKeyOverview(*m_connection, "huge", 65536);
        QVERIFY(overview.ok());
        QCOMPARE(overview->valuePrefix.size(), 65536);
        QVERIFY(overview->valueTruncated);
        QCOMPARE(*overview->length, std::uint64_t(300000));
    }

    void lengthsArePipelined()
    {
        std::vector<std::pair<QByteArray, KeyType>> keys;
        for (int i = 0; i < 700; ++i) // more than one pipeline chunk
            keys.emplace_back(i % 2 ? QByteArray("l") : QByteArray("h"), i % 2 ? KeyType::List : KeyType::Hash);
        keys.emplace_back("gone", KeyType::ZSet);
        keys.emplace_back("str", KeyType::Set); // wrong type: the server refuses, the others stand
        redis::Result<std::vector<std::optional<std::uint64_t>>> lengths = inspect::readLengths(*m_connection, keys);
        QVERIFY(lengths.ok());
        QCOMPARE(lengths->size(), keys.size());
        test::PlainClient client(m_server.port());
        QCOMPARE(qlonglong(*(*lengths)[0]), client.integer({"HLEN", "h"}));
        QCOMPARE(qlonglong(*(*lengths)[699]), client.integer({"LLEN", "l"}));
        QCOMPARE((*lengths)[700], std::optional<std::uint64_t>(0)); // ZCARD of a missing key is 0
        QVERIFY(!(*lengths)[701]);
    }

    void missingKeyIsNotAnError()
    {
        redis::Result<inspect::KeyOverview> overview = inspect::readKeyOverview(*m_connection, "no-such-key");
        QVERIFY(overview.ok());
        QVERIFY(!overview->exists);
    }
};

QTEST_GUILESS_MAIN(TestKeyReader)
#include "tst_keyreader.moc"
