// The pattern tree: ids collapse into placeholders when many siblings share a shape or most do, words
// never do; every key belongs to one pattern; a placeholder totals its members' subtrees.
#include "TestKeys.h"
#include "keyspace/Keyspace.h"
#include "lint/SegmentShape.h"
#include "patterns/PatternTree.h"

#include <QTest>

#include <map>
#include <random>
#include <set>

using namespace keylens;
using patterns::PatternTree;

class TestPatternTree : public QObject
{
    Q_OBJECT

private:
    static void add(keyspace::Keyspace& store, const QByteArray& key, std::uint64_t memory = 100)
    {
        store.insert(key, test::measuredKey(keyspace::KeyType::String, memory));
    }
    // Every key's pattern, by the key.
    static std::map<QByteArray, QByteArray> patternsOfKeys(const keyspace::Keyspace& store, const PatternTree& tree)
    {
        std::map<QByteArray, QByteArray> out;
        for (keyspace::NodeId node = 1; node < store.nodeCount(); ++node) {
            if (store.isKey(node))
                out[store.path(node)] = tree.text(tree.patternOf(node));
        }
        return out;
    }

private Q_SLOTS:
    // Where the exact tree differs from the one notation (lint::patternOf), as PatternTree::split says: an id among
    // words that no sibling shares stays literal there, while the live tree (and the index, the findings' groups and
    // live::patternOfKey, which have no siblings to weigh) fold it.
    void theExactTreeKeepsASparseIdLiteral()
    {
        keyspace::Keyspace store;
        for (const char* key : {"config:timeout", "config:retries", "config:host", "config:42"})
            add(store, key);
        const PatternTree exact(store);
        QCOMPARE(patternsOfKeys(store, exact)["config:42"], QByteArray("config:42"));
        PatternTree live = PatternTree::folding(store);
        live.extend(store.nodeCount());
        QCOMPARE(patternsOfKeys(store, live)["config:42"], QByteArray("config:<int>"));
        QCOMPARE(lint::patternOf("42"), QByteArray("<int>"));
        // Words are the same on both sides.
        QCOMPARE(patternsOfKeys(store, exact)["config:timeout"], QByteArray("config:timeout"));
        QCOMPARE(patternsOfKeys(store, live)["config:timeout"], QByteArray("config:timeout"));
    }

    void idsCollapseWordsStay()
    {
        keyspace::Keyspace store;
        for (int i = 1; i <= 30; ++i) {
            add(store, "user:" + QByteArray::number(i) + ":profile");
            add(store, "user:" + QByteArray::number(i) + ":settings");
            add(store, "userSettings_" + QByteArray::number(1000 + i));
            add(store, "product:SKU" + QByteArray::number(120000 + i));
        }
        add(store, "user:index");
        for (const char* hash : {"9e107d9d372bb6826bd81d3542a419d6", "2fd4e1c67a2d28fced849ee1bb76e739",
                                 "00ff00ff12ab34cd00ff00ff12ab34cd"})
            add(store, QByteArray("cache:db:query:") + hash); // few, but all of their parent's children
        for (int i = 0; i < 5; ++i)
            add(store, "config:" + QByteArray::number(i)); // most of config's children
        for (const char* word : {"alpha", "beta", "gamma", "delta"})
            add(store, QByteArray("feature:") + word); // words: never collapsed
        add(store, "order:1");                         // one id among words: stays itself
        for (const char* word : {"open", "closed", "archived"})
            add(store, QByteArray("order:") + word);

        const PatternTree tree(store);
        const auto patterns = patternsOfKeys(store, tree);
        QCOMPARE(patterns.at("user:7:profile"), QByteArray("user:<int>:profile"));
        QCOMPARE(patterns.at("user:30:settings"), QByteArray("user:<int>:settings"));
        QCOMPARE(patterns.at("user:index"), QByteArray("user:index"));
        QCOMPARE(patterns.at("userSettings_1007"), QByteArray("userSettings_<int>"));
        QCOMPARE(patterns.at("product:SKU120007"), QByteArray("product:SKU<int>"));
        QCOMPARE(patterns.at("cache:db:query:9e107d9d372bb6826bd81d3542a419d6"), QByteArray("cache:db:query:<hex>"));
        QCOMPARE(patterns.at("config:3"), QByteArray("config:<int>"));
        QCOMPARE(patterns.at("feature:beta"), QByteArray("feature:beta"));
        QCOMPARE(patterns.at("order:1"), QByteArray("order:1"));

        // The root has no id rows: userSettings_<int>, user, product, cache, config, feature, order.
        QCOMPARE(tree.children(PatternTree::Root).size(), std::size_t(7));
        std::set<QByteArray> distinct;
        for (const auto& [key, pattern] : patterns)
            distinct.insert(pattern);
        // Two under user:<int>, user:index, one each for the glued, code, hex and config ids, 4 words, 4 orders.
        QCOMPARE(distinct.size(), std::size_t(15));
    }

    // A number glued to a word folds where many siblings differ only in it (`user257_<ip>`, `u24/checkout`,
    // `tenant77-…`, `more4x10001`); a name with a number in it (`v2`, `sha256`, `ipv4`, `h264`, `s3`) stays, even
    // beside a few of its kind.
    void numberedSeriesFoldOnSiblingEvidence()
    {
        keyspace::Keyspace store;
        for (int i = 0; i < 40; ++i) {
            const QByteArray n = QByteArray::number(i * 7 + 3);
            add(store, "limit:user" + n + "_192.0.2." + QByteArray::number(i % 200));
            add(store, "shop/u" + n + "/checkout");
            add(store, "rsmq:tenant" + n + "-jobs");
            add(store, "session:more" + QByteArray::number(i % 9 + 1) + "x" + QByteArray::number(10001 + i));
        }
        for (const char* name : {"v1", "v2", "v3", "sha1", "sha256", "ipv4", "ipv6", "h264", "s3", "utf8"})
            add(store, QByteArray("api:") + name);

        const PatternTree tree(store);
        const auto patterns = patternsOfKeys(store, tree);
        QCOMPARE(patterns.at("limit:user10_192.0.2.1"), QByteArray("limit:user<int>_<ip>"));
        QCOMPARE(patterns.at("shop/u38/checkout"), QByteArray("shop/u<int>/checkout"));
        QCOMPARE(patterns.at("rsmq:tenant24-jobs"), QByteArray("rsmq:tenant<int>-jobs"));
        QCOMPARE(patterns.at("session:more2x10002"), QByteArray("session:more<int>x<int>"));
        for (const char* name : {"v2", "sha256", "ipv4", "h264", "s3", "utf8"})
            QCOMPARE(patterns.at(QByteArray("api:") + name), QByteArray("api:") + name);
        std::set<QByteArray> distinct;
        for (const auto& [key, pattern] : patterns)
            if (!key.startsWith("api:"))
                distinct.insert(pattern);
        QCOMPARE(distinct.size(), std::size_t(4));
    }

    // A word and a digest written as raw bytes: one pattern, though some digests start with a letter.
    void binaryTailsFoldToOneStem()
    {
        keyspace::Keyspace store;
        std::mt19937 random(7);
        for (int i = 0; i < 300; ++i) {
            QByteArray digest(20, 0);
            for (char& byte : digest)
                byte = char(random() & 0xff);
            digest.replace(':', ';'); // a ':' byte would be the store's delimiter: another level
            digest[0] = i % 10 == 0 ? char('a' + i % 26) : char(0x80 | (random() & 0x3f)); // a tenth start "lettered"
            add(store, "cache:page" + digest);
        }
        const PatternTree tree(store);
        std::set<QByteArray> distinct;
        for (const auto& [key, pattern] : patternsOfKeys(store, tree))
            distinct.insert(pattern);
        QVERIFY2(distinct.count("cache:page<binary>") == 1, distinct.begin()->constData());
        std::size_t outside = 0;
        for (const QByteArray& pattern : distinct) {
            if (!pattern.startsWith("cache:page<binary>")) {
                ++outside;
                qWarning("outside: %s", pattern.toPercentEncoding(":<>").constData());
            }
        }
        QCOMPARE(outside, std::size_t(0));
    }

    // The patterns that hold keys partition the keys, and a placeholder totals its members' subtrees.
    void patternsPartitionTheKeysAndTotalTheirMembers()
    {
        keyspace::Keyspace store;
        for (int i = 1; i <= 40; ++i) {
            add(store, "user:" + QByteArray::number(i), 10); // a key and a namespace at once
            add(store, "user:" + QByteArray::number(i) + ":profile", 100);
        }
        store.insert("user:1:cart", test::measuredKey(keyspace::KeyType::Hash, 1000, 1'900'000'000'000));
        add(store, "misc", 7);
        const PatternTree tree(store);

        std::uint64_t keys = 0;
        for (PatternTree::PatternId pattern = 0; pattern < tree.size(); ++pattern)
            keys += tree.ownKeys(pattern);
        QCOMPARE(keys, store.keyCount());
        QCOMPARE(tree.totals(PatternTree::Root).keys, store.keyCount());

        const PatternTree::PatternId ids = tree.patternOf(store.find("user:5"));
        QCOMPARE(tree.text(ids), QByteArray("user:<int>"));
        QVERIFY(tree.isPlaceholder(ids));
        QCOMPARE(tree.members(ids).size(), std::size_t(40));
        QCOMPARE(tree.ownKeys(ids), 40u);
        const PatternTree::Totals totals = tree.totals(ids);
        QCOMPARE(totals.keys, 81u); // 40 ids, 40 profiles, one cart
        QCOMPARE(totals.memoryBytes, 40u * 10 + 40u * 100 + 1000);
        QCOMPARE(totals.keysWithTtl, 1u);
        QCOMPARE(totals.types[std::size_t(keyspace::KeyType::Hash)], 1u);
        // `cart` exists under one id only, beside `profile` under all of them: both are children of <int>.
        QCOMPARE(tree.text(tree.patternOf(store.find("user:1:cart"))), QByteArray("user:<int>:cart"));
        QCOMPARE(tree.children(ids).size(), std::size_t(2));
    }

    // Keys that join words and ids with / . _ - fold unit by unit: one first level per word, ids that hold those
    // characters (IPv4, e-mail, dates) fold whole, every key still has exactly one pattern, and find() reads the
    // texts back.
    // IPv6 addresses that the store's ':' split into levels fold into one `<ip>` level, with a prefix `<cidr>`, after a
    // word (`LIMITER/fe80…`) or a level of their own; ids of other shapes over levels (`ts:2026:11:03`, `a::b`) do not.
    void addressesSplitOverLevelsFold()
    {
        keyspace::Keyspace store;
        for (int i = 0; i < 40; ++i) {
            const QByteArray h = QByteArray::number(i * 37 + 1, 16);
            add(store, "rl:10.0.0." + QByteArray::number(i));
            add(store, "rl:2001:db8:" + h + "::" + QByteArray::number(i + 1, 16));
            add(store, "rl:2001:db8:" + h + "::/56");
            add(store, "LIMITER/fe80::1c2:" + h + ":fe00:" + h + "/search/30/1/hour");
            add(store, "LIMITER/192.0.2." + QByteArray::number(i) + "/search/30/1/hour");
            add(store, "login:2001:db8:85a3:" + h + ":0:8a2e:370:7334:attempts");
        }
        add(store, "ts:2026:11:03");
        add(store, "a::b");
        const PatternTree tree(store);
        const auto patterns = patternsOfKeys(store, tree);
        QCOMPARE(patterns.at("rl:2001:db8:26::2"), QByteArray("rl:<ip>"));
        QCOMPARE(patterns.at("rl:10.0.0.1"), QByteArray("rl:<ip>"));
        QCOMPARE(patterns.at("rl:2001:db8:26::/56"), QByteArray("rl:<cidr>"));
        QCOMPARE(patterns.at("LIMITER/fe80::1c2:26:fe00:26/search/30/1/hour"),
                 QByteArray("LIMITER/<ip>/search/<int>/<int>/hour"));
        QCOMPARE(patterns.at("LIMITER/192.0.2.1/search/30/1/hour"), QByteArray("LIMITER/<ip>/search/<int>/<int>/hour"));
        QCOMPARE(patterns.at("login:2001:db8:85a3:26:0:8a2e:370:7334:attempts"), QByteArray("login:<ip>:attempts"));
        QCOMPARE(patterns.at("ts:2026:11:03"), QByteArray("ts:<int>:<int>:<int>")); // numbers, each its own level
        QCOMPARE(patterns.at("a::b"), QByteArray("a::b"));
        std::uint64_t keys = 0;
        for (PatternTree::PatternId pattern = 0; pattern < tree.size(); ++pattern)
            keys += tree.ownKeys(pattern);
        QCOMPARE(keys, store.keyCount()); // still a partition
        const auto rl = tree.find("rl:<ip>");
        QVERIFY(rl);
        QCOMPARE(tree.totals(*rl).keys, 80u);
    }

    void innerDelimitersFoldUnitByUnit()
    {
        keyspace::Keyspace store;
        for (int i = 0; i < 60; ++i) {
            const QByteArray n = QByteArray::number(i);
            add(store, "LIMITER/192.0." + QByteArray::number(i % 7) + "." + n + "/search/" + n + "/" +
                           QByteArray::number(i * 3) + "/hour");
            add(store, "user_" + QByteArray::number(1000 + i) + "_profile");
            add(store, "users/" + n + "/avatar_url");
            add(store, "mail|user" + n + "@example.com");
            add(store, "report.2024-03-" + QByteArray::number(10 + i % 20).rightJustified(2, '0') + ".csv:" + n);
        }
        add(store, "tmp_14");
        add(store, "tmp_15");
        add(store, "feature_flags.enabled"); // words only: one level, as it always was
        const PatternTree tree(store);
        const auto patterns = patternsOfKeys(store, tree);
        QCOMPARE(patterns.at("LIMITER/192.0.3.10/search/10/30/hour"),
                 QByteArray("LIMITER/<ip>/search/<int>/<int>/hour"));
        QCOMPARE(patterns.at("user_1017_profile"), QByteArray("user_<int>_profile"));
        QCOMPARE(patterns.at("users/17/avatar_url"), QByteArray("users/<int>/avatar_url"));
        QCOMPARE(patterns.at("mail|user17@example.com"), QByteArray("mail|<email>"));
        QCOMPARE(patterns.at("report.2024-03-11.csv:1"), QByteArray("report.<date>.csv:<int>"));
        QCOMPARE(patterns.at("tmp_14"), QByteArray("tmp_<int>"));
        QCOMPARE(patterns.at("feature_flags.enabled"), QByteArray("feature_flags.enabled"));

        // The root: LIMITER/, user_, users/, mail|, report., tmp_ and the words-only key.
        QCOMPARE(tree.children(PatternTree::Root).size(), std::size_t(7));
        std::uint64_t keys = 0;
        for (PatternTree::PatternId pattern = 0; pattern < tree.size(); ++pattern) {
            keys += tree.ownKeys(pattern);
            const std::optional<PatternTree::PatternId> found = tree.find(tree.text(pattern));
            QVERIFY2(found && *found == pattern, tree.text(pattern).constData());
        }
        QCOMPARE(keys, store.keyCount()); // a partition: partial levels own no keys
        const auto limiter = tree.find("LIMITER/");
        QVERIFY(limiter && tree.isPartial(*limiter));
        QCOMPARE(tree.ownKeys(*limiter), 0u);
        QCOMPARE(tree.totals(*limiter).keys, 60u); // its members' subtrees: every LIMITER key
        QVERIFY(!tree.find("LIMITER"));
    }

    // Live, every id folds whatever its siblings: each key's pattern is its segments' patterns joined,
    // however the nodes arrive in chunks.
    void liveFoldingFoldsEveryIdAsTheNodesArrive()
    {
        keyspace::Keyspace store;
        PatternTree live = PatternTree::folding(store);
        QVERIFY(live.isLive());
        for (int i = 1; i <= 300; ++i) {
            add(store, "user:" + QByteArray::number(i) + ":profile");
            if (i % 7 == 0)
                add(store, "user:" + QByteArray::number(i) + ":settings");
            if (i % 50 == 0)
                add(store, "cart:5f1c2a7e-9b3d-4c8e-a1f2-0e6d7c8b9a" + QByteArray::number(i % 90 + 10));
            if (i % 13 == 0)
                live.extend(store.nodeCount()); // a publish
        }
        add(store, "config:app");
        live.extend(store.nodeCount());
        QCOMPARE(live.foldedNodes(), store.nodeCount());
        for (keyspace::NodeId node = 1; node < store.nodeCount(); ++node) {
            QList<QByteArray> levels;
            for (keyspace::NodeId at = node; at != keyspace::Keyspace::root(); at = store.parent(at))
                levels.prepend(lint::patternOf(store.segment(at)));
            QCOMPARE(live.text(live.patternOf(node)), levels.join(':'));
        }
        // Every member of a pattern is counted once: the patterns' keys add up to the store's.
        std::uint64_t keys = 0;
        for (PatternTree::PatternId pattern = 1; pattern < live.size(); ++pattern)
            keys += live.ownKeys(pattern);
        QCOMPARE(keys, std::uint64_t(store.keyCount()));
        QCOMPARE(live.totals(*live.find("user:<int>")).keys, std::uint64_t(300 + 300 / 7));
        QVERIFY(!live.find("user:1"));
        QCOMPARE(live.text(*live.find("cart:<uuid>")), QByteArray("cart:<uuid>"));
    }
};

QTEST_GUILESS_MAIN(TestPatternTree)
#include "tst_patterntree.moc"
