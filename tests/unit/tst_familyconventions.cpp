// Families of keys that follow a convention of their own (lint/FamilyConventions.h): a library's habit is one finding
// per family and rule, on the family's first key, with what it does, how many keys and how much memory; a key that
// breaks its own family's convention keeps its finding; a mixed family is judged word by word; the severity is info
// unless the habit costs or breaks the convention most of the keyspace follows. And the words a family is told by
// (lint/FamilyWords.h).
#include "LintedStore.h"
#include "keyspace/Keyspace.h"
#include "lint/FamilyWords.h"
#include "lint/Linter.h"
#include "report/FindingGroups.h"
#include "scan/Ingest.h"
#include "scan/KeyBatch.h"

#include <QCryptographicHash>
#include <QDate>
#include <QTest>

#include <map>

using namespace keylens;

namespace {

using test::Hour;
using test::Key;
using test::Linted;
using test::Now;

// `#` replaced by 1..count, `%` by a session id (32 hex digits).
void add(std::vector<Key>& keys, const char* format, int count, std::int64_t expiresAtMs = keyspace::NoExpiry,
         std::uint64_t memory = 64)
{
    for (int i = 1; i <= count; ++i) {
        const QByteArray session = QCryptographicHash::hash(QByteArray::number(i), QCryptographicHash::Md5).toHex();
        keys.push_back({QByteArray(format).replace("#", QByteArray::number(i)).replace("%", session), expiresAtMs,
                        keyspace::KeyType::String, memory});
    }
}

QByteArrayList wordsOf(QByteArrayView key)
{
    QByteArrayList texts;
    for (const lint::FamilyWord& word : lint::familyWordsOfKey(key, keyspace::Delimiters(':'), 12))
        texts << word.text;
    return texts;
}

// Libraries' keys, each family with its own habit, and a few keys of the profile's convention.
std::vector<Key> libraries()
{
    std::vector<Key> keys;
    add(keys, "PHPREDIS_SESSION:%", 40, Now + Hour); // upper case
    add(keys, "geo|48.#,2.#", 30);                   // '|'
    for (int i = 0; i < 25; ++i)                     // bare UUIDs
        keys.push_back({QByteArray("3f2c9a1e-7b4d-4c8e-9a1f-") + QByteArray::number(100000000000 + i)});
    add(keys, "user:#:profile", 20);
    return keys;
}

} // namespace

class TestFamilyConventions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Words whatever joins them and whatever their case; ids as placeholders; a number of a few digits is part of its
    // word, a longer one an id glued to it.
    void aFamilyIsToldByItsWords()
    {
        QCOMPARE(wordsOf("userSettings_17"), (QByteArrayList{"user", "settings", "<int>"}));
        QCOMPARE(wordsOf("User:17:Profile"), (QByteArrayList{"user", "<int>", "profile"}));
        QCOMPARE(wordsOf("user17profile"), (QByteArrayList{"user17profile"}));
        QCOMPARE(wordsOf("order1234567profile"), (QByteArrayList{"order", "<int>", "profile"}));
        QCOMPARE(wordsOf("myapp:v3:XMLHttpCache"), (QByteArrayList{"myapp", "v3", "xml", "http", "cache"}));
        QCOMPARE(wordsOf("123:order:profile"), (QByteArrayList{"<int>", "order", "profile"}));
        QCOMPARE(wordsOf("3f2c9a1e-7b4d-4c8e-9a1f-100000000000"), (QByteArrayList{"<uuid>"}));
        QCOMPARE(wordsOf("BACKOFFICE_SESS_03a9oa7118l1vo7lbuopo546oh7hq9jg"),
                 (QByteArrayList{"backoffice", "sess", "<token>"}));
        QCOMPARE(wordsOf("geo|48.5,2.7").front(), QByteArray("geo"));
        QCOMPARE(wordsOf("用户:1001:资料"), (QByteArrayList{"用户", "<int>", "资料"}));
    }

    // Each library's habit is one finding, on its family's first key, that says what it does, on how many keys and how
    // much memory; information, since most keys here follow no convention of the profile's.
    void aLibrarysHabitIsOneFinding()
    {
        const Linted linted(libraries());
        const lint::Finding uppercase = linted.only("uppercase");
        QVERIFY2(uppercase.detail.startsWith("PHPREDIS…: all 40 keys (2.50 KiB) follow a convention of their own: "
                                             "words in upper case"),
                 uppercase.detail.constData());
        QCOMPARE(uppercase.severity, lint::Severity::Info);
        QVERIFY(linted.flagged(uppercase.key, "uppercase"));
        const QByteArray first =
            "PHPREDIS_SESSION:" + QCryptographicHash::hash("1", QCryptographicHash::Md5).toHex(); // the first key
        QCOMPARE(uppercase.key, first);
        QVERIFY2(linted.only("delimiter").detail.contains("words joined by '|'"),
                 linted.only("delimiter").detail.constData());
        QVERIFY2(linted.only("id-first").detail.startsWith("<uuid>: all 25 keys"),
                 linted.only("id-first").detail.constData());
        QCOMPARE(linted.linter.findings(lint::Severity::Warning), 0u);
        // The store's counts are the linter's: the tree's colours follow.
        QCOMPARE(linted.store.stats(keyspace::Keyspace::root()).findings[std::size_t(lint::Severity::Info)],
                 linted.linter.findings(lint::Severity::Info));
    }

    // Where most keys follow the profile, a family that does not breaks the application's convention: its finding
    // keeps the severity its keys had.
    void aHabitAgainstTheKeyspacesConventionIsAWarning()
    {
        std::vector<Key> keys;
        add(keys, "user:#:profile", 200);
        add(keys, "LEGACY_SESS_#", 30);
        const Linted linted(keys);
        const lint::Finding uppercase = linted.only("uppercase");
        QCOMPARE(uppercase.severity, lint::Severity::Warning);
        QVERIFY2(uppercase.detail.contains("most keys of this keyspace follow the profile's"),
                 uppercase.detail.constData());
        QCOMPARE(linted.count("delimiter"), 1u);
    }

    // A key that breaks its own family's convention keeps its own finding, and a family of fewer than ten keys is
    // judged key by key.
    void oddKeysAndSmallFamiliesKeepTheirFindings()
    {
        std::vector<Key> keys;
        add(keys, "geo|48.#,2.#", 30);
        keys.push_back({"GEO|1.5,2.5"});
        add(keys, "OLD_CACHE_#", 9);
        const Linted linted(keys);
        QVERIFY(linted.flagged("GEO|1.5,2.5", "uppercase"));
        QCOMPARE(linted.count("uppercase"), 10u); // the odd key and the nine
        QCOMPARE(linted.count("delimiter"), 1u + 9u);
    }

    // A family whose keys are of two kinds is judged word by word: upper case is the family's, '.' only its errors'.
    void aMixedFamilyIsJudgedWordByWord()
    {
        std::vector<Key> keys;
        add(keys, "STATS.errors.#", 20, Now + Hour);
        add(keys, "STATS:uv:#", 20);
        const Linted linted(keys);
        QVERIFY2(linted.only("uppercase").detail.startsWith("STATS…: all 40 keys"),
                 linted.only("uppercase").detail.constData());
        QVERIFY2(linted.only("delimiter").detail.startsWith("STATS.errors…: all 20 keys"),
                 linted.only("delimiter").detail.constData());
    }

    // key-length costs where the names are a third of the keys' memory; time buckets, where most never expire.
    void aHabitThatCostsIsAWarning()
    {
        const QByteArray longName = "report:" + QByteArray(110, 'x') + ":#";
        std::vector<Key> heavy, light;
        add(heavy, longName.constData(), 20, keyspace::NoExpiry, 200);
        add(light, longName.constData(), 20, keyspace::NoExpiry, 10'000);
        QCOMPARE(Linted(heavy).only("key-length").severity, lint::Severity::Warning);
        QCOMPARE(Linted(light).only("key-length").severity, lint::Severity::Info);

        std::vector<Key> expiring, kept;
        for (int day = 0; day < 20; ++day) { // daily reports: report.20240301, report.20240302…
            const QByteArray key = "report." + QDate(2024, 3, 1).addDays(day).toString(u"yyyyMMdd").toLatin1();
            expiring.push_back({key, Now + Hour});
            kept.push_back({key});
        }
        QCOMPARE(Linted(expiring).only("timestamp-in-key").severity, lint::Severity::Info);
        const lint::Finding forever = Linted(kept).only("timestamp-in-key");
        QCOMPARE(forever.severity, lint::Severity::Warning);
        QVERIFY2(forever.detail.contains("20 of them without a TTL"), forever.detail.constData());
    }

    // What was not measured is not said: a family whose TTLs PTTL could not read is not "all expiring", and a name's
    // length needs no MEMORY USAGE.
    void whatWasNotMeasuredIsNotSaid()
    {
        std::vector<Key> unknown;
        for (int day = 0; day < 20; ++day) {
            const QByteArray key = "report." + QDate(2024, 3, 1).addDays(day).toString(u"yyyyMMdd").toLatin1();
            unknown.push_back({key, keyspace::ExpiryUnknown});
        }
        const lint::Finding times = Linted(unknown).only("timestamp-in-key");
        QVERIFY2(times.detail.contains("not measured") && !times.detail.contains("expiring"), times.detail.constData());

        std::vector<Key> unmeasured;
        const QByteArray longName = "report:" + QByteArray(110, 'x') + ":#";
        for (int i = 1; i <= 20; ++i)
            unmeasured.push_back({QByteArray(longName).replace("#", QByteArray::number(i + 10)), keyspace::NoExpiry,
                                  keyspace::KeyType::String, 0, false});
        const lint::Finding length = Linted(unmeasured).only("key-length");
        QVERIFY2(length.detail.contains("names of 120 bytes on average"), length.detail.constData());
        QVERIFY2(!length.detail.contains("of their memory"), length.detail.constData());
    }

    // An empty level in all of a family's keys is its notation (`rack::attack:…`): one finding, not one a key.
    void aFamilysEmptyLevelsAreOneFinding()
    {
        std::vector<Key> keys;
        add(keys, "shop::offers:#:card", 30, Now + Hour);
        add(keys, "user:#:profile", 40, Now + Hour);
        const Linted linted(keys);
        const lint::Finding empty = linted.only("empty-segment");
        QVERIFY2(empty.detail.contains("empty levels"), empty.detail.constData());
    }

    // A key changed or written after the scan is judged as its family was: the family's finding stays one.
    void editsKeepTheFamilysFinding()
    {
        Linted linted(libraries());
        const QByteArray first = linted.only("uppercase").key;
        const keyspace::NodeId node = linted.store.find(first);
        const keyspace::KeyInfo info = test::measuredKey(keyspace::KeyType::String, 64, Now + 2 * Hour);
        linted.linter.keyChanged(linted.store, node, info);
        linted.store.updateKey(node, info);
        QCOMPARE(linted.count("uppercase"), 1u);
        QVERIFY(linted.flagged(first, "uppercase"));

        const QByteArray late = "PHPREDIS_SESSION:0123456789abcdef0123456789abcdef";
        keyspace::NodeId added = keyspace::InvalidNode;
        QCOMPARE(linted.store.insert(late, info, &added), keyspace::Keyspace::Insert::Added);
        linted.linter.keyAdded(linted.store, added, late, info);
        QCOMPARE(linted.count("uppercase"), 1u);
        QCOMPARE(linted.store.stats(keyspace::Keyspace::root()).findings[std::size_t(lint::Severity::Info)],
                 linted.linter.findings(lint::Severity::Info));
    }

    // A family's one finding stands for its keys: the findings' groups (the JSON report's "groups", the Findings
    // panel's patterns) count them and their memory, not the one key it is recorded on.
    void aFamilysFindingCountsItsKeysInTheGroups()
    {
        const Linted linted(libraries());
        const report::FindingGroups groups(linted.store, linted.linter.libraries(), nullptr,
                                           linted.linter.coveredFindings());
        const auto uppercase =
            std::find_if(groups.groups().begin(), groups.groups().end(),
                         [](const report::FindingGroup& group) { return group.rule == lint::findRule("uppercase"); });
        QVERIFY(uppercase != groups.groups().end());
        QCOMPARE(uppercase->keys, std::uint64_t(40));
        QCOMPARE(uppercase->memory.bytes, std::uint64_t(40 * 64));
        QCOMPARE(uppercase->memory.keys, std::uint64_t(40));
        QCOMPARE(linted.count("uppercase"), 1u); // still one finding
        // Stepwise (the window's), the same.
        report::FindingGroups stepwise(linted.store, linted.linter.libraries(), report::FindingGroups::Stepwise{},
                                       linted.linter.coveredFindings());
        while (!stepwise.step(7)) {
        }
        QCOMPARE(stepwise.groups().size(), groups.groups().size());
        for (std::size_t i = 0; i < groups.groups().size(); ++i)
            QCOMPARE(stepwise.groups()[i].keys, groups.groups()[i].keys);
    }

    // Long names are a pattern's habit: where ten or more keys of one pattern are over the threshold (here half of its
    // keys, so its family does not fold them), they are one finding, that says how many, the longest and what cutting
    // them would save; a pattern of fewer keys keeps a finding a key. A long key of the pattern written after the scan
    // is judged as its pattern was.
    void longNamesOfOnePatternAreOneFinding()
    {
        std::vector<Key> keys;
        for (int i = 0; i < 20; ++i) // 5 + 7 + 33 = 45 bytes
            keys.push_back({"user:" + QByteArray::number(3000000 + i) + ":recently_viewed_products_listing"});
        for (int i = 0; i < 20; ++i) // 5 + 2 + 33 = 40 bytes
            keys.push_back({"user:" + QByteArray::number(10 + i) + ":recently_viewed_products_listing"});
        for (int i = 0; i < 9; ++i) // 9 long names of another pattern, beside 81 short ones: one finding each
            keys.push_back({"order:" + QByteArray::number(3000000 + i) + ":shipping_address_history_xyz_ab"});
        for (int i = 0; i < 81; ++i)
            keys.push_back({"order:" + QByteArray::number(i) + ":shipping_address_history_xyz_ab"});
        Linted linted(keys);
        QCOMPARE(linted.count("key-length"), 1u + 9u);
        const auto summary = linted.summary("key-length");
        QVERIFY(summary);
        const auto folded = std::find_if(summary->examples.begin(), summary->examples.end(),
                                         [](const lint::Finding& finding) { return finding.key.startsWith("user:"); });
        QVERIFY(folded != summary->examples.end());
        QCOMPARE(folded->key, QByteArray("user:3000000:recently_viewed_products_listing"));
        QCOMPARE(folded->detail,
                 QByteArray("user:<int>:recently_viewed_products_listing: 20 keys longer than 44 bytes, "
                            "up to 45 bytes; cut to 44 bytes, their names would take 20 B less "
                            "(their memory: 1.25 KiB)"));
        QCOMPARE(folded->severity, lint::Severity::Info);
        QVERIFY(!linted.flagged("user:3000003:recently_viewed_products_listing", "key-length"));
        QVERIFY(linted.flagged("order:3000003:shipping_address_history_xyz_ab", "key-length"));
        const report::FindingGroups groups(linted.store, linted.linter.libraries(), nullptr,
                                           linted.linter.coveredFindings());
        std::map<QByteArray, std::uint64_t> keysByPattern;
        for (const report::FindingGroup& group : groups.groups()) {
            if (group.rule == lint::findRule("key-length"))
                keysByPattern[group.pattern] = group.keys;
        }
        QCOMPARE(keysByPattern["user:<int>:recently_viewed_products_listing"], std::uint64_t(20));
        QCOMPARE(keysByPattern["order:<int>:shipping_address_history_xyz_ab"], std::uint64_t(9));
        // The store's counts are the linter's.
        QCOMPARE(linted.store.stats(keyspace::Keyspace::root()).findings[std::size_t(lint::Severity::Info)],
                 linted.linter.findings(lint::Severity::Info));

        const QByteArray late = "user:3000099:recently_viewed_products_listing";
        const keyspace::KeyInfo info = test::measuredKey(keyspace::KeyType::String, 64, keyspace::NoExpiry);
        keyspace::NodeId added = keyspace::InvalidNode;
        QCOMPARE(linted.store.insert(late, info, &added), keyspace::Keyspace::Insert::Added);
        linted.linter.keyAdded(linted.store, added, late, info);
        QCOMPARE(linted.count("key-length"), 1u + 9u);

        // The window's way (judge on a worker, apply in slices): the same findings and groups.
        Linted gui(keys, *lint::builtInProfile("default"), false);
        lint::Judgement judgement = gui.linter.judge(gui.store);
        while (!gui.linter.apply(gui.store, judgement, 5)) {
        }
        QCOMPARE(gui.count("key-length"), 1u + 9u);
        QVERIFY(!gui.flagged("user:3000003:recently_viewed_products_listing", "key-length"));
        const report::FindingGroups guiGroups(gui.store, gui.linter.libraries(), nullptr, gui.linter.coveredFindings());
        QCOMPARE(guiGroups.groups().size(), groups.groups().size());
    }

    // The profile may judge every key on its own.
    void aProfileMayJudgeKeyByKey()
    {
        lint::Profile profile = *lint::builtInProfile("default");
        profile.foldFamilies = false;
        const Linted linted(libraries(), profile);
        QCOMPARE(linted.count("uppercase"), 40u);
        QCOMPARE(linted.count("id-first"), 25u);
        std::vector<Key> keys;
        for (int i = 0; i < 20; ++i)
            keys.push_back({"user:" + QByteArray::number(3000000 + i) + ":recently_viewed_products_listing"});
        QCOMPARE(Linted(keys, profile).count("key-length"), 20u);
    }
};

QTEST_GUILESS_MAIN(TestFamilyConventions)
#include "tst_familyconventions.moc"
