// KeyGlob against the server's own glob: every pattern must select exactly the keys SCAN MATCH selects.
#include "PlainClient.h"
#include "TestServer.h"
#include "keyspace/GlobPass.h"
#include "keyspace/KeyFilter.h"
#include "keyspace/KeyGlob.h"
#include "keyspace/Keyspace.h"

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
             {"*",          "user:*",         "user:?",     "user:??",   "*:*:*",    "u*1",      "[uU]ser*",
              "[^u]*",      "[a-c]*",         "[c-a]*",     "a\\*b",     "a\\?b",    "a[[]b]c",  "a\\[b\\]c",
              "*\\\\*",     "x[]-]1",         "session:",   "session:*", "*e*e*",    "?",        "",
              "caf*",       "bin*z",          "bin?\\x00z", "user:1*",   "*[",       "[bracket", "a[bc",
              "\\^caret",   "[\\^]caret",     "*z",         "zz?",       "???",      "*:",       "*:profile",
              "*1:profile", "[uU]*:1",        "*\\*b",      "*:double",  "*ab",      "ab*bc",    "a*c",
              "ab*b",       "user:*:profile", "user:1:*",   "user*",     "session*", "u*:a:b",   "user:1",
              "user:",      "café:*"})
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
        // The last-segment test the tree's filter asks first never rules out a key that matches, whatever the case.
        const keyspace::KeyGlob folded(pattern, keyspace::KeyGlob::Case::Insensitive);
        int ruledOut = 0;
        for (const QByteArray& key : m_keys) {
            const qsizetype cut = key.lastIndexOf(':');
            const QByteArrayView last = QByteArrayView(key).sliced(cut + 1);
            const bool whole = cut < 0;
            if (glob.matches(key))
                QVERIFY2(glob.lastSegmentMayMatch(last, ':', whole), key.constData());
            if (folded.matches(key))
                QVERIFY2(folded.lastSegmentMayMatch(last, ':', whole), key.constData());
            ruledOut += glob.lastSegmentMayMatch(last, ':', whole) ? 0 : 1;
        }
        if (pattern == "*:profile")
            QCOMPARE(ruledOut, int(m_keys.size()) - 1); // all but user:1:profile, without their ancestors

        // The tree filter's pass over a store (head down the tree, tail per segment) selects the same keys, in both
        // cases.
        keyspace::Keyspace store;
        for (const QByteArray& key : m_keys)
            store.insert(key, {});
        for (const keyspace::KeyGlob* each : {&glob, &folded}) {
            std::vector<std::uint8_t> marks(store.nodeCount(), 0);
            keyspace::markGlobMatches(store, *each, marks, 4);
            std::vector<QByteArray> passed;
            for (keyspace::NodeId node = 0; node < store.nodeCount(); ++node) {
                if (marks[node] == 4)
                    passed.push_back(store.path(node));
                QVERIFY(marks[node] == 0 || marks[node] == 4);
            }
            std::sort(passed.begin(), passed.end());
            std::vector<QByteArray> truth;
            for (const QByteArray& key : m_keys)
                if (each->matches(key))
                    truth.push_back(key);
            std::sort(truth.begin(), truth.end());
            if (pattern.isEmpty()) // an empty glob is no filter: the tree shows everything without a pass
                truth.clear();
            else if (each == &glob)
                QCOMPARE(truth, expected);
            QCOMPARE(passed, truth);
        }
    }

    // A store of more distinct segments than one thread tests (the pass splits them in two past 2^18): the marks
    // are still exactly the keys the glob matches, whichever half a key's last segment landed in.
    void passOverManySegmentsMatchesEveryKey_data()
    {
        QTest::addColumn<QByteArray>("pattern");
        for (const char* pattern : {"*7", "*:profile", "item:*99", "*1*", "user:*3:profile", "[0-9]*5x"})
            QTest::newRow(pattern) << QByteArray(pattern);
    }
    void passOverManySegmentsMatchesEveryKey()
    {
        QFETCH(QByteArray, pattern);
        keyspace::Keyspace store;
        std::vector<QByteArray> keys;
        for (int i = 0; i < 150'000; ++i) {
            keys.push_back("item:" + QByteArray::number(i * 7 + 3));
            keys.push_back(QByteArray::number(i * 13 + 5) + "x"); // a key of one segment: the whole-key bits
            if (i % 3 == 0)
                keys.push_back("user:" + QByteArray::number(i) + ":profile");
        }
        for (const QByteArray& key : keys)
            store.insert(key, {});
        QVERIFY(store.segmentCount() > (std::size_t(1) << 18));
        const keyspace::KeyGlob glob(pattern);
        std::vector<std::uint8_t> marks(store.nodeCount(), 0);
        keyspace::markGlobMatches(store, glob, marks, 2);
        std::size_t expected = 0;
        for (const QByteArray& key : keys) {
            const keyspace::NodeId node = store.find(key);
            QVERIFY(node != keyspace::InvalidNode);
            QVERIFY2((marks[node] == 2) == glob.matches(key), key.constData());
            expected += glob.matches(key) ? 1 : 0;
        }
        QVERIFY(expected > 0);
        const auto marked = std::size_t(std::count(marks.begin(), marks.end(), std::uint8_t(2)));
        QCOMPARE(marked, expected);
    }

    // The filter box's text (keyspace::resolveFilter): an existing key is that key, glob characters make a
    // glob, anything else a prefix; a chosen mode wins; case is kept unless told to ignore it.
    void filterTextResolves()
    {
        using keyspace::FilterMode;
        keyspace::Keyspace store;
        for (const QByteArray key : {"session:1", "session:10", "cache:a*b", "User:7", "user:1"})
            store.insert(key, {});
        const auto resolve = [&](const char* text, FilterMode mode = FilterMode::Auto,
                                 keyspace::KeyGlob::Case sensitivity = keyspace::KeyGlob::Case::Sensitive) {
            return keyspace::resolveFilter(text, mode, sensitivity, &store);
        };
        const keyspace::KeyFilter exact = resolve(" session:1 ");
        QCOMPARE(exact.mode, FilterMode::Exact);
        QCOMPARE(exact.key, QByteArray("session:1"));
        QVERIFY(exact.glob.matches("session:1"));
        QVERIFY(!exact.glob.matches("session:10"));
        // A key with a glob character in its name is still that key.
        const keyspace::KeyFilter star = resolve("cache:a*b");
        QCOMPARE(star.mode, FilterMode::Exact);
        QVERIFY(star.glob.matches("cache:a*b"));
        QVERIFY(!star.glob.matches("cache:axxb"));
        const keyspace::KeyFilter prefix = resolve("sess");
        QCOMPARE(prefix.mode, FilterMode::Prefix);
        QVERIFY(prefix.key.isEmpty());
        QVERIFY(prefix.glob.matches("session:10"));
        QVERIFY(!prefix.glob.matches("xsession"));
        const keyspace::KeyFilter glob = resolve("user:*");
        QCOMPARE(glob.mode, FilterMode::Glob);
        QVERIFY(glob.glob.matches("user:1"));
        QVERIFY(!glob.glob.matches("User:7")); // as SCAN MATCH
        QVERIFY(resolve("user:*", FilterMode::Auto, keyspace::KeyGlob::Case::Insensitive).glob.matches("User:7"));
        // Chosen modes: a prefix of a key that exists, a glob taken literally.
        QVERIFY(resolve("session:1", FilterMode::Prefix).glob.matches("session:10"));
        const keyspace::KeyFilter literal = resolve("a*", FilterMode::Exact);
        QVERIFY(literal.key.isEmpty()); // no such key
        QVERIFY(literal.glob.matches("a*"));
        QVERIFY(!literal.glob.matches("ab"));
        QVERIFY(resolve("   ").glob.isEmpty());
        QCOMPARE(keyspace::KeyGlob::escaped("a*b?[c]\\"), QByteArray("a\\*b\\?\\[c\\]\\\\"));
    }

    // A search among a collection's elements: plain text is found anywhere in a name, even with a backslash or
    // a `]` in it, as the server's MATCH reads the pattern made for it.
    void elementSearchFindsTextAnywhere()
    {
        test::PlainClient client(m_server.port());
        for (const QByteArray needle : {"b", "a\\b", "1:", "]", "ser:1", "\xff"}) {
            std::vector<QByteArray> expected;
            for (const QByteArray& key : m_keys) {
                if (key.contains(needle))
                    expected.push_back(key);
            }
            std::vector<QByteArray> found = client.allKeys(keyspace::elementMatchPattern(needle));
            std::sort(expected.begin(), expected.end());
            std::sort(found.begin(), found.end());
            QCOMPARE(found, expected);
        }
        QCOMPARE(keyspace::elementMatchPattern("user:*"), QByteArray("user:*")); // a glob stays one
        QCOMPARE(keyspace::elementMatchPattern(""), QByteArray());
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
