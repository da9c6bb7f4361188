// KeyGlob against the server's own glob: every pattern must select exactly the keys SCAN MATCH selects.
#include "PlainClient.h"
#include "TestServer.h"
#include "keyspace/KeyGlob.h"

#include <QTest>

#include <algorithm>

using namespace keylens;

class TestKeyGlob : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    std::vector<QByteArray> m_keys;

private Q_SLOTS:
    void initTestCase()
    {
        KEYLENS_START_SERVER(m_server);
        m_keys = {"user:1",     "user:12",      "user:1:profile",
                  "User:7",     "USER_9",       "session:abc",
                  "session:",   "cache:q:9",    "a*b",
                  "a?b",        "a[b]c",        "abc",
                  "a\\b",       "x-1",          "x]1",
                  "",           "café:1",       QByteArray("bin\xff\x00z", 6),
                  "user:1:a:b", "user::double", "^caret",
                  "[bracket",   "zzz",          "ab"};
        test::PlainClient client(m_server.port());
        std::vector<std::vector<QByteArray>> commands;
        for (const QByteArray& key : m_keys)
            commands.push_back({"SET", key, "v"});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
    }

    void matchesLikeScanMatch_data()
    {
        QTest::addColumn<QByteArray>("pattern");
        for (const char* pattern :
             {"*",        "user:*",     "user:?",     "user:??",   "*:*:*", "u*1",      "[uU]ser*",
              "[^u]*",    "[a-c]*",     "[c-a]*",     "a\\*b",     "a\\?b", "a[[]b]c",  "a\\[b\\]c",
              "*\\\\*",   "x[]-]1",     "session:",   "session:*", "*e*e*", "?",        "",
              "caf*",     "bin*z",      "bin?\\x00z", "user:1*",   "*[",    "[bracket", "a[bc",
              "\\^caret", "[\\^]caret", "*z",         "zz?",       "???",   "*:"})
            QTest::newRow(pattern) << QByteArray(pattern);
    }

    void matchesLikeScanMatch()
    {
        QFETCH(QByteArray, pattern);
        test::PlainClient client(m_server.port());
        std::vector<QByteArray> expected = client.allKeys(pattern);
        std::sort(expected.begin(), expected.end());
        if (pattern.isEmpty()) // SCAN MATCH "" means no MATCH to Redis; as a glob it matches only the empty key
            expected = {""};
        const keyspace::KeyGlob glob(pattern);
        std::vector<QByteArray> actual;
        for (const QByteArray& key : m_keys) {
            if (glob.matches(key))
                actual.push_back(key);
        }
        std::sort(actual.begin(), actual.end());
        QCOMPARE(actual, expected);
    }

    void filterTextIsAFriendlierGlob()
    {
        const keyspace::KeyGlob word = keyspace::KeyGlob::fromFilterText("  ession ");
        QCOMPARE(word.pattern(), QByteArray("*ession*"));
        QVERIFY(word.matches("session:1"));
        QVERIFY(word.matches("SESSION:1")); // the filter box folds ASCII case
        QVERIFY(!word.matches("sess:1"));
        const keyspace::KeyGlob glob = keyspace::KeyGlob::fromFilterText("user:*");
        QVERIFY(glob.matches("User:7"));
        QVERIFY(!glob.matches("xuser:1"));
        QVERIFY(keyspace::KeyGlob::fromFilterText("   ").isEmpty());
    }

    void longKeysDoNotRecurse()
    {
        const QByteArray key(16 * 1024, 'a');
        QVERIFY(keyspace::KeyGlob("*a*a*a*a*b").matches(key) == false);
        QVERIFY(keyspace::KeyGlob("*a*a*a*a*").matches(key));
    }
};

QTEST_GUILESS_MAIN(TestKeyGlob)
#include "tst_keyglob.moc"
