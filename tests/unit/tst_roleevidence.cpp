// What keys are for, from their own evidence (lint/RoleEvidence.h): value shapes, role words, the TTL contrasts
// inside a pattern and across a family, queues told apart by their structure, and the evidence each finding carries.
// Keyspaces made here, not the fixtures': no catalogue knows their names.
#include "TestKeys.h"
#include "keyspace/Keyspace.h"
#include "lint/FindingEvidence.h"
#include "lint/Linter.h"
#include "lint/RoleEvidence.h"
#include "lint/RoleWords.h"
#include "lint/ValueShape.h"
#include "scan/FileValueSamples.h"
#include "scan/Ingest.h"
#include "scan/KeyBatch.h"

#include <QTest>

#include <map>

using namespace keylens;

namespace {

constexpr std::int64_t Later = 4'000'000'000'000; // an expiry far ahead

struct Key
{
    Key(QByteArray name, bool expires = false, keyspace::KeyType type = keyspace::KeyType::String,
        QByteArray value = {}, std::int64_t readDaysAgo = -1)
        : name(std::move(name))
        , expires(expires)
        , type(type)
        , value(std::move(value))
        , readDaysAgo(readDaysAgo)
    {}
    QByteArray name;
    bool expires;
    keyspace::KeyType type;
    QByteArray value;         // its first bytes, for the value source
    std::int64_t readDaysAgo; // its idle time, in days, when measured (-1: not)
    QByteArrayList members;   // a collection's, for the value source (its first few, as SRANDMEMBER answers)
};

// A set (or sorted set, or list) without a TTL holding `members`.
Key collection(QByteArray name, QByteArrayList members, keyspace::KeyType type = keyspace::KeyType::Set)
{
    Key key(std::move(name), false, type);
    key.members = std::move(members);
    return key;
}

constexpr std::int64_t NowSeconds = 1'900'000'000;
constexpr std::int64_t Day = 86'400;

// A store filled as a scan fills it, linted with the catalogue off, the values given as a server would give them.
struct Judged
{
    keyspace::Keyspace store;
    lint::Linter linter;
    std::vector<QByteArray> asked;        // the keys whose values were read
    std::vector<QByteArray> askedMembers; // the collections whose members were read

    explicit Judged(const std::vector<Key>& keys, bool readValues = true)
        : linter(profile(), 0)
    {
        scan::KeyBatch batch;
        auto values = std::make_shared<lint::ValuePrefixes>();
        auto members = std::make_shared<lint::ValueMembers>();
        bool accessMeasured = false;
        for (const Key& key : keys) {
            keyspace::KeyInfo info = test::measuredKey(key.type, 64, key.expires ? Later : keyspace::NoExpiry);
            if (key.readDaysAgo >= 0) {
                info.access = keyspace::KeyAccess::lastAccessAt(NowSeconds - key.readDaysAgo * Day);
                accessMeasured = true;
            }
            batch.add(key.name, info);
            if (!key.value.isNull())
                values->insert(key.name, key.value);
            if (!key.members.isEmpty())
                members->insert(key.name, key.members.mid(0, lint::SampledMembers));
        }
        scan::Ingest ingest(store);
        ingest.setKeyStored([this](keyspace::NodeId node, QByteArrayView key, const keyspace::KeyInfo& info) {
            linter.keyAdded(store, node, key, info);
        });
        ingest.add(batch);
        if (accessMeasured)
            store.setColdAfter(7 * Day, NowSeconds);
        lint::ValueSource source;
        if (readValues)
            source.read = [this, values, members](const lint::ValueQuestion& question) {
                lint::ValueRead read;
                for (const QByteArray& key : question.strings) {
                    asked.push_back(key);
                    if (values->contains(key))
                        read.values.insert(key, values->value(key));
                }
                for (const auto& [key, type] : question.collections) {
                    askedMembers.push_back(key);
                    if (members->contains(key))
                        read.members.insert(key, members->value(key));
                }
                return read;
            };
        linter.setValueSource(source);
        linter.finish(store);
    }

    static lint::Profile profile()
    {
        lint::Profile profile = *lint::builtInProfile("default");
        profile.libraryCatalogue = false;
        return profile;
    }

    bool missingTtl(const QByteArray& key) const
    {
        return store.findingRules(store.find(key)) >> lint::ruleIndex(*lint::findRule("missing-ttl")) & 1;
    }
    std::size_t missingTtlCount(const QByteArray& prefix) const
    {
        std::size_t count = 0;
        for (const lint::RuleSummary& summary : linter.summaries()) {
            if (summary.rule == lint::findRule("missing-ttl"))
                for (const lint::Finding& finding : summary.examples)
                    count += finding.key.startsWith(prefix) ? 1 : 0;
        }
        return count;
    }
    QByteArrayList evidence(const QByteArray& key) const
    {
        for (const lint::RuleSummary& summary : linter.summaries()) {
            for (const lint::Finding& finding : summary.examples) {
                if (finding.key == key && summary.rule == lint::findRule("missing-ttl"))
                    return lint::evidenceOf(finding);
            }
        }
        return {};
    }
};

// A distinct hex id of `digits` digits for each n, with letters in it.
QByteArray hex(int n, int digits = 32)
{
    const QByteArray id = QByteArray::number(
        0xa000000000000000ull + std::uint64_t(n) * 0x9e3779b97f4a7c15ull % 0x0fffffffffffffffull, 16);
    return QByteArray(id + id + id).left(digits);
}

bool mentions(const QByteArrayList& evidence, QByteArrayView text)
{
    return std::any_of(evidence.begin(), evidence.end(), [&](const QByteArray& line) { return line.contains(text); });
}

} // namespace

class TestRoleEvidence : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void valueShapes_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<int>("shape");
        const auto row = [](const char* tag, QByteArray value, const char* name, lint::ValueShape shape) {
            QTest::newRow(tag) << value << QByteArray(name) << int(shape);
        };
        using S = lint::ValueShape;
        row("pickle 4", QByteArray("\x80\x04\x95\x16\x00\x00\x00", 7), "pickle", S::Serialized);
        row("pickle after a marker", QByteArray("!\x80\x05K\xa8.", 6), "pickle", S::Serialized);
        row("php", "a:2:{i:0;s:3:\"mug\";}", "PHP serialize", S::Serialized);
        row("php int", "i:42;", "PHP serialize", S::Serialized);
        row("igbinary", QByteArray("\x00\x00\x00\x02\x14\x01", 6), "igbinary", S::Serialized);
        row("java", QByteArray("\xac\xed\x00\x05sr\x00", 7), "Java serialization", S::Serialized);
        row("marshal", QByteArray("\x04\x08o: ActiveSupport", 18), "Ruby Marshal", S::Serialized);
        row("msgpack", QByteArray("\x84\xa3sid\xb4", 6), "MessagePack", S::Serialized);
        row("gzip", QByteArray("\x1f\x8b\x08\x00", 4), "gzip", S::Serialized);
        row("zlib", QByteArray("\x78\x9c\xcb\x48", 4), "zlib", S::Serialized);
        row("zstd", QByteArray("\x28\xb5\x2f\xfd\x00", 5), "zstd", S::Serialized);
        row("session json", R"({"cookie":{"originalMaxAge":86400000,"httpOnly":true},"user":7})",
            "JSON with an expiry field", S::ExpiryJson);
        row("keyv json", R"({"value":{"enabled":true},"expires":null})", "JSON with an expiry field", S::ExpiryJson);
        row("plain json", R"({"id":1,"name":"User 1","created_at":1600000000})", "JSON", S::Json);
        row("array", R"([{"id":1},{"id":2}])", "JSON", S::Json);
        row("number", "1042", "a number", S::Number);
        row("token", "a4a7b940f02b11f1839f02fc2c1d0e6a", "a random token", S::RandomToken);
        row("uuid", "2f1c8a3e-74b7-45dd-aae8-a46771fda00f", "a random token", S::RandomToken);
        row("text", "GET /api/v1/items 200 12ms", "", S::Unknown);
        row("base64 of msgpack", "hKNzaWS0REVmQ29NN3h0YzVy", "", S::Unknown);
    }
    void valueShapes()
    {
        QFETCH(QByteArray, value);
        QFETCH(QByteArray, name);
        QFETCH(int, shape);
        const lint::ValueKind kind = lint::valueKindOf(value);
        QCOMPARE(QByteArray(kind.name), name);
        QCOMPARE(int(kind.shape), shape);
    }

    void roleWords_data()
    {
        QTest::addColumn<QByteArray>("pattern");
        QTest::addColumn<QByteArray>("role");
        QTest::newRow("glued prefix") << QByteArray("shopfront-cache-<hex>") << QByteArray("cache");
        QTest::newRow("camel") << QByteArray("userCache:<int>") << QByteArray("cache");
        QTest::newRow("capitals") << QByteArray("HTTPCache:<int>") << QByteArray("cache");
        QTest::newRow("any case") << QByteArray("SESSION:<hex>") << QByteArray("session");
        QTest::newRow("inside a word") << QByteArray("mycache:<int>") << QByteArray();
        QTest::newRow("another word") << QByteArray("cachet:<int>") << QByteArray();
        QTest::newRow("placeholder") << QByteArray("user:<token>") << QByteArray();
        QTest::newRow("most specific") << QByteArray(":<int>:django.contrib.sessions.cache<token>")
                                       << QByteArray("session");
        QTest::newRow("two words") << QByteArray("api:rate:limit:<ip>") << QByteArray("rate limit");
        QTest::newRow("camel two words") << QByteArray("RateLimiter:<ip>") << QByteArray("rate limit");
        QTest::newRow("rl") << QByteArray("rl:<ip>") << QByteArray("rate limit");
        QTest::newRow("url") << QByteArray("url:<int>") << QByteArray();
        QTest::newRow("queue wins") << QByteArray("queue:cache-warmup:<int>") << QByteArray("queue");
        QTest::newRow("otp") << QByteArray("otp:+<int>") << QByteArray("temporary");
        QTest::newRow("lock") << QByteArray("locks:payment:<int>") << QByteArray("lock");
    }
    void roleWords()
    {
        QFETCH(QByteArray, pattern);
        QFETCH(QByteArray, role);
        const std::optional<lint::RoleWord> word = lint::roleOfWords(pattern);
        QCOMPARE(word ? QByteArray(lint::roleName(word->role)) : QByteArray(), role);
    }

    // cachelib's keys under an application's prefix: 800 without a TTL beside 400 with one, in one pattern.
    void aWordInAPrefixFlagsThePatternsKeysWithoutTtl()
    {
        std::vector<Key> keys;
        for (int i = 0; i < 1200; ++i)
            keys.push_back(
                {"shopfront-cache-" + hex(i), i % 3 == 0, keyspace::KeyType::String, QByteArray("!\x80\x04\x95", 4)});
        const Judged judged(keys);
        QCOMPARE(judged.missingTtlCount("shopfront-cache-"), std::size_t(800));
        const QByteArrayList evidence = judged.evidence("shopfront-cache-" + hex(1));
        QVERIFY2(evidence.contains("word: cache"), evidence.join(" | ").constData());
        QVERIFY2(evidence.contains("value: pickle"), evidence.join(" | ").constData());
        QVERIFY2(mentions(evidence, "ttl-contrast: 400 of 1,200 keys in this pattern expire"),
                 evidence.join(" | ").constData());
        QVERIFY(!judged.missingTtl("shopfront-cache-" + hex(0))); // it expires
    }

    void aPatternThatNearlyAllExpiresFlagsItsStrays()
    {
        std::vector<Key> keys;
        for (int i = 0; i < 100; ++i)
            keys.push_back({"widget:" + QByteArray::number(i) + ":render", i >= 5});
        const Judged judged(keys);
        QCOMPARE(judged.missingTtlCount("widget:"), std::size_t(5));
        QVERIFY(mentions(judged.evidence("widget:0:render"), "ttl-contrast: 95 of 100 keys in this pattern expire"));
    }

    // dogpile.cache's regions: one with an expiry, one without, the same kind of value in both.
    void aFamilysExpiringPatternsOfTheSameValuesFlagTheOneThatNeverExpires()
    {
        std::vector<Key> keys;
        for (int i = 0; i < 60; ++i)
            keys.push_back({"shop_catalogue:page|" + QByteArray::number(i), false, keyspace::KeyType::String,
                            R"({"ct": 1796420565.35, "v": 2})"});
        for (int i = 0; i < 40; ++i)
            keys.push_back({"shop_catalogue:quote|" + QByteArray::number(i), true, keyspace::KeyType::String,
                            R"({"ct": 1796420565.44, "v": 2})"});
        // Beside them, a family whose persistent profile holds other values than its expiring tokens: no finding.
        for (int i = 0; i < 60; ++i) {
            keys.push_back({"member:" + QByteArray::number(i) + ":profile", false, keyspace::KeyType::String,
                            R"({"id":1,"name":"Ann"})"});
            keys.push_back({"member:" + QByteArray::number(i) + ":verify", true, keyspace::KeyType::String, hex(i)});
        }
        const Judged judged(keys);
        QCOMPARE(judged.missingTtlCount("shop_catalogue:page|"), std::size_t(60));
        const QByteArrayList evidence = judged.evidence("shop_catalogue:page|1");
        QVERIFY2(mentions(evidence, "ttl-contrast: 40 of 40 keys in the rest of this family expire, 40 of them holding "
                                    "JSON values like these"),
                 evidence.join(" | ").constData());
        QCOMPARE(judged.missingTtlCount("member:"), std::size_t(0));
    }

    void aSerializedValueFlagsWithoutAWord()
    {
        std::vector<Key> keys;
        for (int i = 0; i < 30; ++i)
            keys.push_back({"products/" + QByteArray::number(i) + "-20261103091502000000000", false,
                            keyspace::KeyType::String, QByteArray("\x04\x08o: ActiveSupport::Cache::Entry", 34)});
        for (int i = 0; i < 30; ++i) // JSON documents kept for good: data, not a cache
            keys.push_back({"article/" + QByteArray::number(i), false, keyspace::KeyType::String,
                            R"({"title":"On keys","body":"…"})"});
        const Judged judged(keys);
        QCOMPARE(judged.missingTtlCount("products/"), std::size_t(30));
        QVERIFY(judged.evidence("products/1-20261103091502000000000").contains("value: Ruby Marshal"));
        QCOMPARE(judged.missingTtlCount("article/"), std::size_t(0));
        QVERIFY(judged.asked.size() <= 2 * lint::RoleEvidence::SamplesPerPattern); // a few per pattern, never all
    }

    // Measured idle times: keys without a TTL nothing has read for weeks, beside keys of the pattern read today, are a
    // second hint where most keys of the pattern expire; neither hint alone is enough.
    void unreadKeysBesideReadOnesCountWithAnotherHint()
    {
        std::vector<Key> keys;
        for (int i = 0; i < 12; ++i)
            keys.push_back({"report:" + QByteArray::number(i), true, keyspace::KeyType::String, {}, 0});
        for (int i = 12; i < 20; ++i)
            keys.push_back({"report:" + QByteArray::number(i), false, keyspace::KeyType::String, {}, 30});
        for (int i = 0; i < 12; ++i) // most expire, and those without a TTL are read: no finding
            keys.push_back({"invoice:" + QByteArray::number(i), true, keyspace::KeyType::String, {}, 0});
        for (int i = 12; i < 20; ++i)
            keys.push_back({"invoice:" + QByteArray::number(i), false, keyspace::KeyType::String, {}, 0});
        for (int i = 0; i < 20; ++i) // unread, but few expire: no finding
            keys.push_back({"archive:" + QByteArray::number(i), i < 2, keyspace::KeyType::String, {}, 30});
        const Judged judged(keys, false);
        QCOMPARE(judged.missingTtlCount("report:"), std::size_t(8));
        QVERIFY2(mentions(judged.evidence("report:15"), "access: 8 of 8 keys without a TTL unread for 7d, beside 12"),
                 judged.evidence("report:15").join(" | ").constData());
        QCOMPARE(judged.missingTtlCount("invoice:"), std::size_t(0));
        QCOMPARE(judged.missingTtlCount("archive:"), std::size_t(0));
    }

    // A queue's jobs are hashes by id beside its lists and sorted sets: never missing-ttl, whatever their words and
    // however many of their jobs' hashes expire.
    void aQueuesKeysAreNotFlagged()
    {
        std::vector<Key> keys;
        for (int i = 0; i < 200; ++i)
            keys.push_back({"jobs-cache-warmup:" + QByteArray::number(i), i % 10 != 0, keyspace::KeyType::Hash});
        keys.push_back({"jobs-cache-warmup:wait", false, keyspace::KeyType::List});
        keys.push_back({"jobs-cache-warmup:done", false, keyspace::KeyType::ZSet});
        for (int i = 0; i < 200; ++i)
            keys.push_back({"tasks:job:" + QByteArray::number(i), i % 10 != 0, keyspace::KeyType::Hash});
        keys.push_back({"tasks:queue:default", false, keyspace::KeyType::List});
        const Judged judged(keys);
        QCOMPARE(judged.missingTtlCount("jobs-cache-warmup"), std::size_t(0));
        QCOMPARE(judged.missingTtlCount("tasks:"), std::size_t(0));
    }

    // Symfony's tag sets, Laravel's tagged entries, an application's "keys of X" sets: a collection without a TTL
    // whose members are the names of keys that expire is an index that outlives them. Only a few members of a few of
    // them are read, and their names are looked up in the store; the fix is no bare EXPIRE.
    void anIndexOfExpiringKeysIsFlagged()
    {
        std::vector<Key> keys;
        for (int i = 0; i < 200; ++i)
            keys.push_back({"pages:page|product|" + QByteArray::number(i) + "|de", true});
        for (int i = 0; i < 50; ++i) {
            QByteArrayList members;
            for (int j = 0; j < 4; ++j)
                members << "pages:page|product|" + QByteArray::number(i * 4 + j) + "|de";
            keys.push_back(collection(QByteArray("pages:\0tags\0product-", 20) + QByteArray::number(i), members));
        }
        // A sorted set scored by expiry, whose listed entries have partly gone.
        for (int i = 0; i < 20; ++i)
            keys.push_back({"report:" + QByteArray::number(i), true});
        for (int i = 0; i < 12; ++i)
            keys.push_back(collection("reports-by-day:" + QByteArray::number(i),
                                      {"report:" + QByteArray::number(i), "report:" + QByteArray::number(i + 1),
                                       "report:" + QByteArray::number(100 + i)},
                                      keyspace::KeyType::ZSet));
        // A small list of the names of the latest ones.
        for (int i = 0; i < 12; ++i)
            keys.push_back(collection("latest-reports:" + QByteArray::number(i),
                                      {"report:" + QByteArray::number(i), "report:" + QByteArray::number(i + 2)},
                                      keyspace::KeyType::List));
        const Judged judged(keys);
        const QByteArray tagSet = QByteArray("pages:\0tags\0product-", 20) + "7";
        QVERIFY(judged.missingTtl(tagSet));
        QCOMPARE(judged.missingTtlCount("pages:"), std::size_t(50)); // the sets; the entries expire
        QVERIFY2(judged.evidence(tagSet).contains("index: 8 of 8 sampled members name keys that expire"),
                 judged.evidence(tagSet).join(" | ").constData());
        QCOMPARE(judged.missingTtlCount("reports-by-day:"), std::size_t(12));
        QVERIFY2(judged.evidence("reports-by-day:3")
                     .contains("index: 4 of 6 sampled members name keys that expire, 2 name no key (gone)"),
                 judged.evidence("reports-by-day:3").join(" | ").constData());
        QCOMPARE(judged.missingTtlCount("latest-reports:"), std::size_t(12));
        QVERIFY(judged.evidence("latest-reports:5").contains("index: 4 of 4 sampled members name keys that expire"));
        // Two collections a pattern, never every one of them.
        QVERIFY(judged.askedMembers.size() <= 3 * lint::RoleEvidence::IndexSamplesPerPattern);
        for (const lint::RuleSummary& summary : judged.linter.summaries()) {
            for (const lint::Finding& finding : summary.examples) {
                if (finding.key == tagSet && summary.rule == lint::findRule("missing-ttl")) {
                    QVERIFY(lint::fixOf(finding) != QByteArrayView(summary.rule->fix));
                    QVERIFY2(lint::fixOf(finding).contains("Prune the members"), lint::fixOf(finding).data());
                    QVERIFY(!finding.detail.contains("EXPIRE"));
                }
            }
        }
    }

    // Collections without a TTL whose members are no keys' names (a user's followers, a queue's job ids), or the names
    // of keys kept for good, or a queue's own registry of workers whose heartbeats expire: no index of expiring keys.
    void collectionsOfOtherMembersAreNoIndex()
    {
        std::vector<Key> keys;
        for (int i = 0; i < 30; ++i)
            keys.push_back({"user:" + QByteArray::number(i), false, keyspace::KeyType::Hash});
        for (int i = 0; i < 30; ++i) {
            keys.push_back(collection("user:" + QByteArray::number(i) + ":followers",
                                      {QByteArray::number(i + 1), QByteArray::number(i + 2)}));
            keys.push_back(collection("user:" + QByteArray::number(i) + ":friends",
                                      {"user:" + QByteArray::number(i + 1), "user:" + QByteArray::number(i + 2)}));
        }
        for (int i = 0; i < 20; ++i)
            keys.push_back({"worker:host-" + QByteArray::number(i), true, keyspace::KeyType::Hash});
        keys.push_back(collection("workers", {"worker:host-1", "worker:host-2", "worker:host-3"}));
        for (int i = 0; i < 20; ++i)
            keys.push_back(collection("queue:mail:" + QByteArray::number(i),
                                      {R"({"id":1,"to":"a@example.com"})", R"({"id":2})"}, keyspace::KeyType::List));
        const Judged judged(keys);
        QCOMPARE(judged.missingTtlCount("user:"), std::size_t(0));
        QCOMPARE(judged.missingTtlCount("workers"), std::size_t(0));
        QCOMPARE(judged.missingTtlCount("queue:"), std::size_t(0));
        QVERIFY(!judged.askedMembers.empty()); // read, and judged no index
    }

    // A single key named by the word is a placeholder's name or a setting's, not one of a pattern of keys that come
    // and go.
    void aLoneWordIsNoEvidence()
    {
        const Judged judged({{"tmp"}, {"cache"}, {"session_store_settings"}});
        QCOMPARE(judged.missingTtlCount(""), std::size_t(0));
    }

    // Without values (a server that could not be asked) the words and TTLs still judge.
    void wordsJudgeWithoutValues()
    {
        std::vector<Key> keys;
        for (int i = 0; i < 20; ++i)
            keys.push_back({"app:sessionStore:" + hex(i)});
        const Judged judged(keys, false);
        QCOMPARE(judged.missingTtlCount("app:sessionStore:"), std::size_t(20));
        QVERIFY(judged.evidence("app:sessionStore:" + hex(1)).contains("word: session"));
    }

    // Every finding says what it rests on, its rule's own evidence or its detail.
    void everyFindingHasEvidence()
    {
        const Judged judged({{"cache:page:1"}, {"User:1"}, {"key1"}});
        for (const lint::RuleSummary& summary : judged.linter.summaries()) {
            for (const lint::Finding& finding : summary.examples)
                QVERIFY2(!lint::evidenceOf(finding).isEmpty(), summary.rule->id);
        }
        QCOMPARE(judged.evidence("cache:page:1"), QByteArrayList{"word: cache"});
    }

    void fileSamplesFoldIds_data()
    {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<QByteArray>("kind");
        QTest::newRow("token") << QByteArray("sess:--NnmXeOlLqyJc5dV4LCj_ftm-ImJZGg") << QByteArray("sess:#");
        QTest::newRow("token too") << QByteArray("sess:TB8rO1A9n3Gq8PAcuisYmeoB7Lwmlv0O") << QByteArray("sess:#");
        QTest::newRow("words then id") << QByteArray(":1:product_17") << QByteArray(":#:product_#");
        QTest::newRow("glued") << QByteArray("shopfront-cache-3f2a9c0d1e4b5a6f") << QByteArray("shopfront-cache-#");
        QTest::newRow("path") << QByteArray("views/products/index/page-13")
                              << QByteArray("views/products/index/page-#");
        QTest::newRow("words") << QByteArray("shop_catalogue:load_page|audio 0")
                               << QByteArray("shop_catalogue:load_page|audio #");
    }
    void fileSamplesFoldIds()
    {
        QFETCH(QByteArray, key);
        QFETCH(QByteArray, kind);
        QCOMPARE(scan::FileValueSamples::kindOf(key), kind);
    }

    void fileSamplesKeepTheMembersOfAFewCollectionsPerKind()
    {
        scan::FileValueSamples samples;
        int kept = 0;
        for (int i = 0; i < 100; ++i)
            kept += samples.wantsMembers(QByteArray("tags:" + hex(i))) ? 1 : 0;
        QCOMPARE(kept, 2);
        QVERIFY(samples.wantsMembers("other:1"));
    }

    void fileSamplesKeepAFewPerKind()
    {
        scan::FileValueSamples samples;
        int kept = 0;
        for (int i = 0; i < 100; ++i)
            kept += samples.wants(QByteArray("sess:" + hex(i)), false) ? 1 : 0;
        QCOMPARE(kept, 2);
        QVERIFY(samples.wants(QByteArray("sess:" + hex(7)), true));
        QVERIFY(!samples.wants(QByteArray("sess:" + hex(8)), true));
    }
};

QTEST_GUILESS_MAIN(TestRoleEvidence)
#include "tst_roleevidence.moc"
