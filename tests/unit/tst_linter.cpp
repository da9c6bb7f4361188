// The Linter on in-memory stores: each namespace-level rule on keyspaces built to trigger it and on ones
// built not to, big collections, ignored keys, one finding per key and rule, and the store's per-node
// totals agreeing with the linter's own counts.
#include "LintedStore.h"
#include "keyspace/Keyspace.h"
#include "lint/Linter.h"
#include "lint/Profile.h"
#include "lint/SegmentShapes.h"
#include "lint/Spelling.h"
#include "scan/Ingest.h"
#include "scan/KeyBatch.h"

#include <QTest>

#include <bit>
#include <map>
#include <thread>

using namespace keylens;

namespace {

using test::Hour;
using test::Key;
using test::Linted;
using test::Now;

void add(std::vector<Key>& keys, const char* format, int count, std::int64_t expiresAtMs = keyspace::NoExpiry,
         int first = 1)
{
    for (int i = first; i < first + count; ++i)
        keys.push_back({QByteArray(format).replace("#", QByteArray::number(i)), expiresAtMs});
}

} // namespace

class TestLinter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The migration plan a naming-variants finding makes: each variant's key in the canonical spelling, its ids
    // carried over in order.
    void namingVariantsPlanRenames()
    {
        QCOMPARE(lint::respell("User_42", "user:<int>", ':').value_or("?"), QByteArray("user:42"));
        QCOMPARE(lint::respell("userSettings_7", "user:<int>:settings", ':').value_or("?"),
                 QByteArray("user:7:settings"));
        QVERIFY(!lint::respell("User_42", "user:<uuid>", ':')); // no place for its id
        std::vector<Key> keys;
        add(keys, "user:#", 300);
        add(keys, "User_#", 40, keyspace::NoExpiry, 1000);
        add(keys, "user:#:settings", 200);
        add(keys, "userSettings_#", 20, keyspace::NoExpiry, 5000);
        Linted linted(keys);
        const auto renames = linted.linter.namingVariantRenames(linted.store);
        QCOMPARE(renames.size(), std::size_t(60));
        std::map<QByteArray, QByteArray> plan;
        for (const auto& [node, renamed] : renames)
            plan[linted.store.path(node)] = renamed;
        QCOMPARE(plan.at("User_1007"), QByteArray("user:1007"));
        QCOMPARE(plan.at("userSettings_5003"), QByteArray("user:5003:settings"));
        for (const auto& [from, to] : plan)
            QVERIFY2(linted.store.find(to) == keyspace::InvalidNode || !linted.store.isKey(linted.store.find(to)),
                     to.constData()); // no target is a key already
    }

    // Keys deleted or changed through Keylens take their findings along: the linter's counts, the store's per-node
    // counts and the keys' own bits stay in agreement, with nothing counted below zero.
    void removedAndChangedKeysTakeTheirFindingsAlong()
    {
        std::vector<Key> keys;
        add(keys, "user:#:profile", 300);
        add(keys, "User_#", 40);        // naming-variants
        add(keys, "cache:item:#", 200); // missing-ttl on some
        add(keys, "cache:item:#", 20, Now + 3'600'000, 1000);
        add(keys, "very long key name that goes on and on with spaces #", 30); // key-level rules
        Linted linted(keys);
        QVERIFY(linted.linter.findings() > 0);
        keyspace::Keyspace& store = linted.store;
        const auto ownFindings = [&] {
            std::uint64_t sum = 0;
            for (keyspace::NodeId node = 1; node < store.nodeCount(); ++node)
                if (store.isKey(node))
                    sum += std::popcount(store.findingRules(node));
            return sum;
        };
        QCOMPARE(linted.linter.findings(), ownFindings());
        int i = 0;
        for (const Key& key : keys) {
            const keyspace::NodeId node = store.find(key.name);
            if (++i % 2 == 0) {
                linted.linter.keyRemoved(store, node);
                store.removeKey(node);
                QCOMPARE(store.findingRules(node), 0u);
            } else if (i % 3 == 0) {
                keyspace::KeyInfo info = store.keyInfo(node);
                info.expiresAtMs = Now + 60'000; // a TTL set: missing-ttl, where it was key-level, goes
                linted.linter.keyChanged(store, node, info);
                store.updateKey(node, info);
            }
        }
        const std::uint64_t left = ownFindings();
        QCOMPARE(linted.linter.findings(), left);
        const auto& root = store.stats(keyspace::Keyspace::root());
        QCOMPARE(std::uint64_t(root.findings[0]) + root.findings[1] + root.findings[2], left);
        for (keyspace::NodeId node = 0; node < store.nodeCount(); ++node)
            for (const std::uint32_t count : store.stats(node).findings)
                QVERIFY(count < 1'000'000); // nothing wrapped below zero
        std::uint64_t bySummaries = 0;
        for (const lint::RuleSummary& summary : linted.linter.summaries()) {
            bySummaries += summary.bySeverity[0] + summary.bySeverity[1] + summary.bySeverity[2];
            for (const lint::Finding& example : summary.examples)
                QVERIFY(store.isKey(store.find(example.key))); // no example of a deleted key
        }
        QCOMPARE(bySummaries, left);
    }

    void namingVariantsNameTheCanonicalSpelling()
    {
        std::vector<Key> keys;
        add(keys, "user:#", 10);
        add(keys, "User:#", 3);
        add(keys, "user_#", 2);
        add(keys, "order:#", 5); // another thing, spelt one way
        const Linted linted(keys);
        QCOMPARE(linted.count("naming-variants"), 5u);
        QVERIFY(linted.flagged("User:2", "naming-variants"));
        QVERIFY(linted.flagged("user_1", "naming-variants"));
        QVERIFY(!linted.flagged("user:1", "naming-variants"));
        QVERIFY(!linted.flagged("order:1", "naming-variants"));
        const QByteArray detail = linted.detailOf("naming-variants");
        QVERIFY2(detail.startsWith("spell it user:<int>"), detail.constData());
        QVERIFY2(detail.contains("User:<int> (3)") && detail.contains("user_<int> (2)"), detail.constData());
    }

    // The same words in another order are another thing (a rate from EUR to GBP is not one from GBP to EUR); an id
    // moved between the same words is the same thing spelled another way.
    void wordsInAnotherOrderAreNoVariant()
    {
        std::vector<Key> keys;
        add(keys, "rate:EUR_GBP:#", 4);
        add(keys, "rate:GBP_EUR:#", 4);
        add(keys, "user:#:settings", 6);
        add(keys, "userSettings_#", 2);
        const Linted linted(keys);
        QVERIFY(!linted.flagged("rate:EUR_GBP:1", "naming-variants"));
        QVERIFY(!linted.flagged("rate:GBP_EUR:1", "naming-variants"));
        QVERIFY(linted.flagged("userSettings_1", "naming-variants"));
        QCOMPARE(linted.count("naming-variants"), 2u);
    }

    // A key is no spelling of its own child (`STATS:uv:<date>` and the page "/" below it, `STATS:uv:<date>:/`), and
    // two IPv6 addresses split into levels by their ':' are two addresses, not one name spelled two ways.
    void noVariantOfItsChildOrOfAnotherAddress()
    {
        std::vector<Key> keys;
        add(keys, "STATS:uv:2026100#", 5);
        add(keys, "STATS:uv:2026100#:/", 5);
        add(keys, "login_fail_ip:2001:db8:aaaa:1#::b0", 5);
        add(keys, "login_fail_ip:2001:db8:aaaa:b0::1#", 5);
        const Linted linted(keys);
        QCOMPARE(linted.count("naming-variants"), 0u);
    }

    void namingVariantsWithoutAConventionalSpellingProposeOne()
    {
        std::vector<Key> keys;
        add(keys, "userSettings_#", 4);
        add(keys, "USER-SETTINGS-#", 2);
        const Linted linted(keys);
        // Neither follows the convention: both are variants of user:settings:<int>.
        QCOMPARE(linted.count("naming-variants"), 6u);
        QVERIFY2(linted.detailOf("naming-variants").startsWith("spell it user:settings:<int>"),
                 linted.detailOf("naming-variants").constData());
    }

    void synonymSiblingsFlagTheLessUsedWord()
    {
        std::vector<Key> keys;
        add(keys, "product:#:detail", 6);
        add(keys, "product:#:info", 2, keyspace::NoExpiry, 7);
        add(keys, "product:#:price", 8);
        const Linted linted(keys);
        QCOMPARE(linted.count("synonym-siblings"), 2u);
        QVERIFY(linted.flagged("product:7:info", "synonym-siblings"));
        QVERIFY(!linted.flagged("product:1:detail", "synonym-siblings"));

        std::vector<Key> clean;
        add(clean, "product:#:detail", 6);
        add(clean, "product:#:price", 6);
        QCOMPARE(Linted(clean).count("synonym-siblings"), 0u);
    }

    void environmentAndVersionPrefixes()
    {
        std::vector<Key> keys;
        add(keys, "prod:user:#", 5);
        add(keys, "staging:user:#", 2);
        add(keys, "api:v1:route:#", 3);
        add(keys, "api:v2:route:#", 5);
        const Linted linted(keys);
        QCOMPARE(linted.count("env-prefixes"), 2u);
        QVERIFY(linted.flagged("staging:user:1", "env-prefixes"));
        QCOMPARE(linted.count("version-prefixes"), 3u);
        QVERIFY(linted.flagged("api:v1:route:1", "version-prefixes"));
        QVERIFY(!linted.flagged("api:v2:route:1", "version-prefixes"));

        std::vector<Key> one;
        add(one, "prod:user:#", 5);
        add(one, "api:v2:route:#", 5);
        const Linted clean(one);
        QCOMPARE(clean.count("env-prefixes"), 0u);
        QCOMPARE(clean.count("version-prefixes"), 0u);
    }

    void dataInKey()
    {
        std::vector<Key> keys;
        for (int id = 1; id <= 30; ++id)
            keys.push_back({"account:" + QByteArray::number(id) + ":plan:" + (id % 3 ? "pro" : "free")});
        const Linted linted(keys);
        QCOMPARE(linted.count("data-in-key"), 30u);

        // Attributes, not values: every id holds all of them.
        std::vector<Key> attributes;
        add(attributes, "account:#:plan", 30);
        add(attributes, "account:#:email", 30);
        QCOMPARE(Linted(attributes).count("data-in-key"), 0u);

        // Judged on the pattern: a boolean across every feature's users, few keys under each feature name.
        std::vector<Key> features;
        for (const char* name : {"dark_mode", "beta_search", "new_checkout", "fast_cart", "wide_layout"}) {
            for (int id = 1; id <= 4; ++id)
                features.push_back({QByteArray("feature:") + name + ":user:" + QByteArray::number(id) +
                                    ":enabled:" + (id % 2 ? "true" : "false")});
        }
        QCOMPARE(Linted(features).count("data-in-key"), 20u);
    }

    void expiryAvalancheNeedsOneWindowWithoutJitter()
    {
        std::vector<Key> same;
        add(same, "cache:page:#", 200, Now + Hour);
        add(same, "user:#", 10);
        const Linted avalanche(same);
        // One finding for the namespace, on its first key, that says how many keys expire together.
        QCOMPARE(avalanche.count("expiry-avalanche"), 1u);
        QVERIFY(avalanche.flagged("cache:page:1", "expiry-avalanche"));
        QVERIFY2(avalanche.detailOf("expiry-avalanche").startsWith("200 of 200 keys of cache:page:"),
                 avalanche.detailOf("expiry-avalanche").constData());

        std::vector<Key> jittered;
        for (int i = 0; i < 200; ++i)
            jittered.push_back({"cache:page:" + QByteArray::number(i), Now + Hour + std::int64_t(i) * 97'000});
        QCOMPARE(Linted(jittered).count("expiry-avalanche"), 0u);

        // A clump of 20 s across a boundary of the half-window buckets is one clump.
        const std::int64_t boundary = (Now / 30'000 + 10) * 30'000;
        std::vector<Key> straddling;
        for (int i = 0; i < 200; ++i)
            straddling.push_back({"cache:page:" + QByteArray::number(i), boundary - 10'000 + std::int64_t(i) * 100});
        QCOMPARE(Linted(straddling).count("expiry-avalanche"), 1u);

        // Spread evenly over 150 s: no 60 s holds more than half.
        std::vector<Key> spread;
        for (int i = 0; i < 200; ++i)
            spread.push_back({"cache:page:" + QByteArray::number(i), boundary + std::int64_t(i) * 750});
        QCOMPARE(Linted(spread).count("expiry-avalanche"), 0u);

        std::vector<Key> few; // below min_keys: too few to matter
        add(few, "cache:page:#", 20, Now + Hour);
        QCOMPARE(Linted(few).count("expiry-avalanche"), 0u);
    }

    void strayPersistentKey()
    {
        std::vector<Key> keys;
        add(keys, "token:#", 30, Now + Hour);
        keys.push_back({"token:forever"});
        const Linted linted(keys);
        QVERIFY(linted.flagged("token:forever", "missing-ttl"));
        QCOMPARE(linted.count("missing-ttl"), 1u);

        std::vector<Key> mixed; // half expire: a persistent key is not stray
        add(mixed, "token:#", 10, Now + Hour);
        add(mixed, "token:p#", 10);
        QCOMPARE(Linted(mixed).count("missing-ttl"), 0u);
    }

    void bigCollectionFromItsLength()
    {
        const std::vector<Key> keys = {{"feed:global", keyspace::NoExpiry, keyspace::KeyType::List, 200'000},
                                       {"feed:small", keyspace::NoExpiry, keyspace::KeyType::List, 200'000}};
        Linted linted(keys);
        QCOMPARE(linted.count("big-collection"), 0u); // not known before the counts arrive
        linted.linter.lengthKnown(linted.store, linted.store.find("feed:global"), 5'001);
        linted.linter.lengthKnown(linted.store, linted.store.find("feed:small"), 5'000);
        linted.linter.lengthKnown(linted.store, linted.store.find("feed:global"), 9'000); // again: once
        QCOMPARE(linted.count("big-collection"), 1u);
        QVERIFY(linted.flagged("feed:global", "big-collection"));
    }

    void bigStringFromItsLength()
    {
        const std::vector<Key> keys = {{"blob:big", keyspace::NoExpiry, keyspace::KeyType::String, 12 * 1024},
                                       {"blob:rounded", keyspace::NoExpiry, keyspace::KeyType::String, 12 * 1024}};
        Linted linted(keys);
        QCOMPARE(linted.count("big-string"), 0u); // MEMORY USAGE alone does not say
        linted.linter.lengthKnown(linted.store, linted.store.find("blob:big"), 10 * 1024 + 1);
        linted.linter.lengthKnown(linted.store, linted.store.find("blob:rounded"), 9 * 1024); // allocator rounding
        QCOMPARE(linted.count("big-string"), 1u);
        QVERIFY(linted.flagged("blob:big", "big-string"));
        QCOMPARE(linted.count("big-collection"), 0u);
    }

    void ignoredKeysAreNeverFlagged()
    {
        std::vector<Key> keys;
        add(keys, "bull:Email-Queue:#", 5); // uppercase, and variants of each other below
        add(keys, "bull_email_queue_#", 5);
        lint::Profile profile = *lint::builtInProfile("default");
        profile.ignore.emplace_back("bull:*");
        const Linted linted(keys, profile);
        QVERIFY(!linted.flagged("bull:Email-Queue:1", "uppercase"));
        QCOMPARE(linted.store.findingRules(linted.store.find("bull:Email-Queue:1")), 0u);
        QVERIFY(linted.flagged("bull_email_queue_1", "delimiter"));
        QCOMPARE(linted.count("uppercase"), 0u);

        const Linted unignored(keys);
        QCOMPARE(unignored.count("uppercase"), 5u);
    }

    void oneFindingPerKeyAndRule()
    {
        Linted linted({{"User:1"}});
        const keyspace::NodeId node = linted.store.find("User:1");
        QCOMPARE(linted.count("uppercase"), 1u);
        const lint::RuleInfo& uppercase = *lint::findRule("uppercase");
        linted.linter.record(linted.store, node, uppercase, lint::Severity::Warning, "again");
        linted.linter.record(linted.store, node, uppercase, lint::Severity::Error, "and again");
        QCOMPARE(linted.count("uppercase"), 1u);
        QCOMPARE(linted.linter.findings(), 1u);
    }

    // The tree's findings column sums the store's per-node counts; they must be the linter's.
    void storeTotalsAgreeWithTheLinter()
    {
        std::vector<Key> keys;
        add(keys, "User:#", 7);
        add(keys, "user:#", 20);
        add(keys, "cache:page:#", 150, Now + Hour);
        add(keys, "session:#", 4);
        add(keys, "LEGACY_SESS_#", 150); // a family's own convention: its keys' findings folded into one
        keys.push_back({"key1"});
        keys.push_back({"log:2025:01:15:10:30:45:request:abc"});
        const Linted linted(keys);
        const keyspace::NamespaceStats& root = linted.store.stats(keyspace::Keyspace::root());
        QCOMPARE(root.findings[0] + root.findings[1] + root.findings[2], linted.linter.findings());
        for (const lint::Severity severity : {lint::Severity::Info, lint::Severity::Warning, lint::Severity::Error})
            QCOMPARE(root.findings[std::size_t(severity)], linted.linter.findings(severity));
        QVERIFY(linted.linter.findings() > 20);
        QVERIFY(linted.count("uppercase") < 10);
    }

    // The GUI judges on a worker thread and records the verdicts in slices: the same findings, key by key,
    // as finish() on one thread.
    void judgedOnAnotherThreadAndAppliedInSlicesAsFinished()
    {
        std::vector<Key> keys;
        add(keys, "user:#:profile", 30);
        add(keys, "User:#:profile", 5, keyspace::NoExpiry, 100); // naming-variants
        add(keys, "user:#:detail", 10);
        add(keys, "user:#:info", 3, keyspace::NoExpiry, 200); // synonym-siblings
        add(keys, "prod:app:#", 20);
        add(keys, "staging:app:#", 5); // env-prefixes
        add(keys, "v1:item:#", 5);
        add(keys, "v2:item:#", 8);                  // version-prefixes
        add(keys, "cache:page:#", 150, Now + Hour); // expiry-avalanche
        add(keys, "LEGACY_SESS_#", 150);            // a family's own convention
        keys.push_back({"cache:page:forever"});     // missing-ttl
        for (int id = 1; id <= 30; ++id)            // data-in-key
            keys.push_back({"account:" + QByteArray::number(id) + ":plan:" + (id % 3 ? "pro" : "free")});
        Linted finished(keys);
        Linted sliced(keys, *lint::builtInProfile("default"), false);

        lint::Judgement judgement;
        std::thread worker([&] { judgement = sliced.linter.judge(sliced.store); });
        worker.join();
        QVERIFY(!sliced.linter.isFinished());
        QVERIFY(judgement.verdicts.size() + judgement.retractions.size() > 150);
        int slices = 1;
        while (!sliced.linter.apply(sliced.store, judgement, 7))
            ++slices;
        QVERIFY(slices > 20);
        QVERIFY(sliced.linter.isFinished());

        QCOMPARE(sliced.byRule(), finished.byRule());
        for (const char* rule : {"naming-variants", "synonym-siblings", "env-prefixes", "version-prefixes",
                                 "expiry-avalanche", "missing-ttl", "data-in-key", "uppercase"})
            QVERIFY2(finished.count(rule) > 0, rule); // every namespace-level rule took part, and the families
        QCOMPARE(sliced.store.nodeCount(), finished.store.nodeCount());
        for (keyspace::NodeId node = 1; node < finished.store.nodeCount(); ++node) {
            const QByteArray path = finished.store.path(node);
            QCOMPARE(sliced.store.findingRules(sliced.store.find(path)), finished.store.findingRules(node));
        }
        const keyspace::NodeId root = keyspace::Keyspace::root();
        QCOMPARE(sliced.store.stats(root).findings, finished.store.stats(root).findings);
    }

    void finishedTwiceCountsOnce()
    {
        std::vector<Key> keys;
        add(keys, "user:#", 10);
        add(keys, "User:#", 3);
        Linted linted(keys);
        const std::uint64_t once = linted.linter.findings();
        linted.linter.finish(linted.store);
        QCOMPARE(linted.linter.findings(), once);
    }

    // The key checks' details view the key's bytes (no copy per finding): the linter must keep its own copy, as the
    // ingest reuses its buffers for the next keys.
    void findingDetailsOutliveTheKeysBytes()
    {
        keyspace::Keyspace store;
        lint::Linter linter(*lint::builtInProfile("default"), 0);
        QByteArray key("User:17:Profile Page");
        const keyspace::KeyInfo info = test::measuredKey(keyspace::KeyType::String, 40);
        keyspace::NodeId node = keyspace::InvalidNode;
        QVERIFY(store.insert(key, info, &node) == keyspace::Keyspace::Insert::Added);
        linter.keyAdded(store, node, key, info);
        key.fill('x'); // the bytes the details were read from, overwritten
        std::map<QByteArray, QByteArray> details;
        for (const lint::RuleSummary& rule : linter.summaries()) {
            for (const lint::Finding& example : rule.examples)
                details[rule.rule->id] = example.detail;
        }
        QCOMPARE(details["uppercase"], QByteArray("User"));
        QCOMPARE(details["special-characters"], QByteArray("Profile Page"));
        QCOMPARE(linter.summaries().front().examples.front().key, QByteArray("User:17:Profile Page"));
    }

    // keylens-cli lint hands the key checks the shapes its table holds for the key's path: every key must get the
    // findings, details included, that classifying its own bytes gives; on one delimiter and on several.
    void knownShapesChangeNoKeyFinding_data()
    {
        QTest::addColumn<QByteArray>("delimiters");
        QTest::newRow(":") << QByteArray(":");
        QTest::newRow(":/") << QByteArray(":/");
    }
    void knownShapesChangeNoKeyFinding()
    {
        QFETCH(QByteArray, delimiters);
        std::vector<QByteArray> keys = {
            "login_fail_ip:2001:db8::1",
            "rl:2001:db8:0:0:0:0:0:7:minute",
            "LIMITER/10.0.0.7/search/17/3/hour",
            "users/104/avatar_url",
            "user_1792_profile",
            "tmp_14",
            "feature:dark:user:9:enabled:true",
            "session:Zm9vYmFy_-x9Qk2PqLrT",
            "a::b",
            "cache:CustomerProfile:77",
            "log:2025:01:15:errors",
            "celery-task-meta-0b7f2a1c-6d3e-4f8a-9b2c-1d4e5f6a7b8c",
            "v1:user:1",
            "mykey",
            "bin\xff\x01:x",
            "u:ab:cd",
            "order 17 copy",
            "sku:SKU120279:price",
            "2024-03-10:report",
            "mail:ada@example.com:inbox",
            "x/y.z-w|v",
            // Plain words (lower-case letters and digits, three bytes or more) beside their near misses.
            "abc:de:fgh",
            "ab:v2api:x1",
            "test3:profile",
            "demo",
            "data:settings",
            "2025:01:archive",
            "sessions:tmp:Abc",
            "",
            QByteArray(300, 'k') + ":1",
        };
        for (int i = 0; i < 300; ++i) { // shapes repeat over many keys, as in a real keyspace
            keys.push_back("user:" + QByteArray::number(i) + ":settings");
            keys.push_back("Order_" + QByteArray::number(i * 7919) + "_Items");
            keys.push_back("img/" + QByteArray::number(i) + "/thumb.png");
        }
        lint::Profile profile = *lint::builtInProfile("default");
        profile.delimiters = *keyspace::Delimiters::ofBytes(delimiters);
        keyspace::Keyspace withTable(profile.delimiters), without(profile.delimiters);
        lint::Linter tabled(profile, 0), classifying(profile, 0);
        lint::SegmentShapes shapes;
        for (const QByteArray& key : keys) {
            const keyspace::KeyInfo info = test::measuredKey(keyspace::KeyType::String, 40);
            keyspace::NodeId node = keyspace::InvalidNode;
            if (withTable.insert(key, info, &node) == keyspace::Keyspace::Insert::Added) {
                shapes.catchUp(withTable);
                tabled.keyAdded(withTable, node, key, info, &shapes);
            }
            if (without.insert(key, info, &node) == keyspace::Keyspace::Insert::Added)
                classifying.keyAdded(without, node, key, info);
        }
        QVERIFY(classifying.findings() > 600); // uppercase, delimiter, id-first…: the keys do get findings
        QCOMPARE(tabled.findings(), classifying.findings());
        const std::vector<lint::RuleSummary> a = tabled.summaries(), b = classifying.summaries();
        QCOMPARE(a.size(), b.size());
        for (std::size_t rule = 0; rule < a.size(); ++rule) {
            QCOMPARE(QByteArrayView(a[rule].rule->id), QByteArrayView(b[rule].rule->id));
            QCOMPARE(a[rule].examples.size(), b[rule].examples.size());
            for (std::size_t i = 0; i < a[rule].examples.size(); ++i) {
                QCOMPARE(a[rule].examples[i].key, b[rule].examples[i].key);
                QCOMPARE(a[rule].examples[i].detail, b[rule].examples[i].detail);
                QCOMPARE(a[rule].examples[i].severity, b[rule].examples[i].severity);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestLinter)
#include "tst_linter.moc"
