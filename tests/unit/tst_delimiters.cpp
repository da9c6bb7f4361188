// A store split on several delimiters (`--delimiter ':/'`): its paths, namespaces, globs, patterns and the
// suggestion to split on another byte, each checked against a truth computed without the store (the keys
// themselves, KeyGlob::matches on the whole key).

#include "TestKeys.h"
#include "keyspace/Delimiters.h"
#include "keyspace/GlobPass.h"
#include "keyspace/KeyGlob.h"
#include "keyspace/Keyspace.h"
#include "lint/DelimiterUse.h"
#include "patterns/PatternTree.h"

#include <QRandomGenerator>
#include <QTest>

#include <map>
#include <set>

using namespace keylens;
using keyspace::KeyType;
using keyspace::NodeId;

namespace {

keyspace::Delimiters colonAndSlash()
{
    return *keyspace::Delimiters::parse(":/");
}

void fill(keyspace::Keyspace& store, const std::vector<QByteArray>& keys)
{
    for (const QByteArray& key : keys)
        store.insert(key, test::measuredKey(KeyType::String, 100));
}

// The keys of the store below a node (not its own), by walking its subtree.
std::set<QByteArray> keysBelow(const keyspace::Keyspace& store, NodeId node)
{
    std::set<QByteArray> out;
    std::vector<NodeId> stack;
    store.forEachChild(node, [&](NodeId child) { stack.push_back(child); });
    while (!stack.empty()) {
        const NodeId at = stack.back();
        stack.pop_back();
        if (store.isKey(at))
            out.insert(store.path(at));
        store.forEachChild(at, [&](NodeId child) { stack.push_back(child); });
    }
    return out;
}

// Keys over a small alphabet with both delimiters, doubled ones and empty segments among them.
std::vector<QByteArray> randomKeys(int count)
{
    QRandomGenerator random(42);
    static constexpr char Alphabet[] = {'a', 'b', ':', '/', '1'};
    std::set<QByteArray> keys;
    while (int(keys.size()) < count) {
        QByteArray key;
        const int length = 1 + random.bounded(7);
        for (int i = 0; i < length; ++i)
            key.append(Alphabet[random.bounded(int(sizeof(Alphabet)))]);
        keys.insert(key);
    }
    return {keys.begin(), keys.end()};
}

} // namespace

class TestDelimiters : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parsesAndRejects()
    {
        QCOMPARE(keyspace::Delimiters::parse(":/")->bytes(), QByteArray(":/"));
        QCOMPARE(keyspace::Delimiters::parse(":/")->primary(), ':');
        QCOMPARE(keyspace::Delimiters::parse("\\t|")->bytes(), QByteArray("\t|"));
        QVERIFY(!keyspace::Delimiters::parse("::"));
        QVERIFY(!keyspace::Delimiters::parse(""));
        QCOMPARE(keyspace::Delimiters(':').with('/').text(), QByteArray(":/"));
        QCOMPARE(*keyspace::Delimiters::parse(keyspace::Delimiters::parse("\\t:")->text()),
                 *keyspace::Delimiters::parse("\\t:"));
    }

    // Every key is found by its bytes and spelled back the same; `a:b` and `a/b` are two nodes.
    void pathsRoundTrip()
    {
        keyspace::Keyspace store(colonAndSlash());
        const std::vector<QByteArray> keys = randomKeys(3000);
        fill(store, keys);
        QCOMPARE(store.keyCount(), std::uint64_t(keys.size()));
        for (const QByteArray& key : keys) {
            const NodeId node = store.find(key);
            QVERIFY2(node != keyspace::InvalidNode && store.isKey(node), key.constData());
            QCOMPARE(store.path(node), key);
        }
        QVERIFY(store.find("a:b") != store.find("a/b"));
    }

    // A namespace counts the keys below it (not its own); its glob, as SCAN MATCH reads it, matches exactly those keys.
    void namespacesAndTheirGlobs()
    {
        keyspace::Keyspace store(colonAndSlash());
        const std::vector<QByteArray> keys = randomKeys(3000);
        fill(store, keys);
        std::size_t mixed = 0;
        for (NodeId node = 1; node < store.nodeCount(); ++node) {
            if (!store.hasChildren(node))
                continue;
            const std::set<QByteArray> below = keysBelow(store, node);
            QCOMPARE(store.stats(node).keys, std::uint64_t(below.size())); // its own key is not among them
            const keyspace::KeyGlob glob(store.namespaceGlob(node));
            std::set<QByteArray> matched;
            for (const QByteArray& key : keys) {
                if (glob.matches(key))
                    matched.insert(key);
            }
            QVERIFY2(matched == below, store.namespaceGlob(node).constData());
            if (store.hasMixedJoiners(node)) {
                ++mixed;
                QCOMPARE(store.namespacePrefix(node), store.path(node));
            } else {
                QVERIFY(store.namespacePrefix(node).startsWith(store.path(node)));
                QCOMPARE(store.namespacePrefix(node).size(), store.path(node).size() + 1);
            }
        }
        QVERIFY(mixed > 0); // the random keys did mix them
    }

    // The one-pass glob filter agrees with matching each whole key.
    void globPassAgreesWithWholeKeys_data()
    {
        QTest::addColumn<QByteArray>("pattern");
        for (const char* pattern : {"a*", "a:*", "a/*", "*b", "a?b*", "a[:/]b*", "*:*/*", "a/b", "*1", "a\\:*", "??"})
            QTest::newRow(pattern) << QByteArray(pattern);
    }
    void globPassAgreesWithWholeKeys()
    {
        QFETCH(QByteArray, pattern);
        keyspace::Keyspace store(colonAndSlash());
        fill(store, randomKeys(2000));
        const keyspace::KeyGlob glob(pattern);
        std::vector<std::uint8_t> marks(store.nodeCount(), 0);
        keyspace::markGlobMatches(store, glob, marks, 1);
        std::size_t matches = 0;
        for (NodeId node = 1; node < store.nodeCount(); ++node) {
            if (!store.isKey(node))
                continue;
            const bool expected = glob.matches(store.path(node));
            matches += expected;
            QVERIFY2(bool(marks[node] & 1) == expected, store.path(node).constData());
        }
        QVERIFY(matches > 0 || pattern == "a\\:*");
    }

    // Patterns keep each level's delimiter, and still partition the keys.
    void patternsSpellTheirDelimiters()
    {
        keyspace::Keyspace store(colonAndSlash());
        std::vector<QByteArray> keys;
        for (int i = 0; i < 50; ++i) {
            keys.push_back("user:" + QByteArray::number(i) + ":profile");
            keys.push_back("user/" + QByteArray::number(i) + "/avatar");
            keys.push_back("LIMITER/10.0.0." + QByteArray::number(i) + "/search/hour");
        }
        fill(store, keys);
        const patterns::PatternTree tree(store);
        std::map<QByteArray, std::size_t> keysOf;
        std::size_t owned = 0;
        for (patterns::PatternTree::PatternId pattern = 1; pattern < tree.size(); ++pattern) {
            if (tree.isPartial(pattern))
                continue;
            for (const NodeId member : tree.members(pattern)) {
                if (store.isKey(member)) {
                    ++keysOf[tree.text(pattern)];
                    ++owned;
                }
            }
        }
        QCOMPARE(owned, keys.size()); // each key in exactly one pattern
        QCOMPARE(keysOf["user:<int>:profile"], std::size_t(50));
        QCOMPARE(keysOf["user/<int>/avatar"], std::size_t(50));
        QCOMPARE(keysOf["LIMITER/<ip>/search/hour"], std::size_t(50));
    }

    // The suggestion counts the keys that use a byte between words and ids, and never one the store splits on.
    void suggestsTheDelimitersKeysUse()
    {
        std::vector<QByteArray> keys;
        for (int i = 0; i < 60; ++i) {
            keys.push_back("users/" + QByteArray::number(i) + "/avatar_url");
            keys.push_back("user:" + QByteArray::number(i));
            keys.push_back("session:" + QByteArray::number(i) + ":last_seen"); // '_' inside a word: no use
        }
        keys.push_back("LIMITER:192.168.0.1"); // dots inside an address: no use
        keyspace::Keyspace colon;
        fill(colon, keys);
        const std::vector<lint::DelimiterUse> uses = lint::otherDelimitersUsed(colon);
        QCOMPARE(uses.size(), std::size_t(1));
        QCOMPARE(uses[0].delimiter, '/');
        QCOMPARE(uses[0].keys, std::uint64_t(60));

        keyspace::Keyspace both(colonAndSlash());
        fill(both, keys);
        QVERIFY(lint::otherDelimitersUsed(both).empty());
    }

    // A byte that would leave a key with an empty segment is not suggested: `cache:/api/v1/users/1` split on ':/'
    // has one between ':' and '/', and so would `a//b` or `path/`.
    void suggestsNothingThatMakesEmptySegments()
    {
        for (const QByteArray& shape : {QByteArray("cache:/api/v1/users/"), QByteArray("cache:api//v1/users/")}) {
            std::vector<QByteArray> keys;
            for (int i = 0; i < 60; ++i)
                keys.push_back(shape + QByteArray::number(i));
            keyspace::Keyspace colon;
            fill(colon, keys);
            QVERIFY2(lint::otherDelimitersUsed(colon).empty(), shape.constData());
        }
        std::vector<QByteArray> keys;
        for (int i = 0; i < 60; ++i)
            keys.push_back("api/v1/users/" + QByteArray::number(i));
        keyspace::Keyspace colon;
        fill(colon, keys);
        const std::vector<lint::DelimiterUse> uses = lint::otherDelimitersUsed(colon);
        QCOMPARE(uses.size(), std::size_t(1));
        QVERIFY(std::find(keys.begin(), keys.end(), uses[0].example) != keys.end());
    }
};

QTEST_GUILESS_MAIN(TestDelimiters)
#include "tst_delimiters.moc"
