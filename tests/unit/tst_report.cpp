#include "TestKeys.h"
#include "lint/Linter.h"
#include "report/FindingGroups.h"
#include "report/JsonReport.h"
#include "report/JsonWriter.h"
#include "report/TextReport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <set>

using namespace keylens;
using keyspace::KeyInfo;
using keyspace::KeyType;

namespace {

// The default profile, every key judged on its own: the groups below are of the keys' own findings (a family's own
// convention, folded into one finding, is tst_familyconventions').
lint::Profile keyByKey()
{
    lint::Profile profile = *lint::builtInProfile("default");
    profile.foldFamilies = false;
    return profile;
}

using keylens::test::measuredKey;

// 30 namespaces n0..n29 where n<i> holds i+1 keys of 100 bytes; plus a binary namespace and loose keys.
keyspace::Keyspace sampleKeyspace()
{
    keyspace::Keyspace store;
    for (int i = 0; i < 30; ++i) {
        for (int k = 0; k <= i; ++k)
            store.insert(QByteArray("n" + QByteArray::number(i) + ":sub" + QByteArray::number(k % 3) + ":" +
                                    QByteArray::number(k)),
                         measuredKey(KeyType::Hash, 100, k % 2 ? 1'000'000 + k * 1000 : keyspace::NoExpiry));
    }
    store.insert(QByteArray("bin\xff:1", 6), measuredKey(KeyType::String, 10'000'000));
    store.insert("loose", measuredKey(KeyType::String, 5));
    store.insert("another", measuredKey(KeyType::List, 7));
    return store;
}

scan::ScanSummary summary()
{
    scan::ScanSummary result;
    result.complete = true;
    result.server.address = QStringLiteral("127.0.0.1:6379");
    result.server.redisVersion = QStringLiteral("7.0.15");
    result.server.dbsize = 468;
    result.durationMs = 100;
    result.keysSeen = 468;
    return result;
}

} // namespace

class TestReport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // JSON strings decode to the key's exact characters, and what prints as nothing or reorders the text is escaped
    // so that a person reading the file sees it: U+202E would show "evil\u202etxt.exe" as "evilexe.txt".
    void jsonEscapesInvisibleAndBidiCharacters()
    {
        const QByteArray override = "evil\xe2\x80\xaetxt.exe";
        QCOMPARE(report::JsonWriter::quoted(override), QByteArray("\"evil\\u202etxt.exe\""));
        const QByteArray tag = "a\xf3\xa0\x81\x81"
                               "b"; // U+E0041, a tag character: a surrogate pair
        QCOMPARE(report::JsonWriter::quoted(tag), QByteArray("\"a\\udb40\\udc41b\""));
        QCOMPARE(report::JsonWriter::quoted("caf\xc3\xa9"), QByteArray("\"caf\xc3\xa9\"")); // visible: as it is
        for (const QByteArray& text : {override, tag}) {
            const QJsonDocument decoded = QJsonDocument::fromJson("[" + report::JsonWriter::quoted(text) + "]");
            QCOMPARE(decoded.array().first().toString().toUtf8(), text);
        }
    }

    void widthSumsTheRestIntoOthers()
    {
        const auto store = sampleKeyspace();
        report::ReportOptions options;
        options.width = 5;
        options.depth = 2;
        const auto built = report::buildReport(store, summary(), 0, options, 0);
        QCOMPARE(built.namespaces.size(), 5u);
        QCOMPARE(QByteArray(built.namespaces[0].path), QByteArray("bin\xff:", 5)); // biggest by memory first
        QCOMPARE(built.namespaces[1].path, QByteArray("n29:"));
        QCOMPARE(built.others.namespaces, 26u); // 31 namespaces, 5 shown
        std::uint64_t shownKeys = 0;
        for (const auto& entry : built.namespaces)
            shownKeys += entry.stats.keys;
        QCOMPARE(shownKeys + built.others.keys + built.keysWithoutDelimiter.keys, std::uint64_t(store.keyCount()));
        // Depth 2: n29: lists its sub-namespaces, which list nothing further.
        QCOMPARE(built.namespaces[1].children.size(), 3u);
        QVERIFY(built.namespaces[1].children[0].children.empty());
        QCOMPARE(built.keysWithoutDelimiter.keys, 2u);
    }

    // Of namespaces of equal memory, the one with more keys comes first, then the names in byte order; only the widest
    // are listed, and what is left over is summed whatever its order.
    void equalNamespacesAreOrderedByKeysThenName()
    {
        keyspace::Keyspace store;
        store.insert("b:1", measuredKey(KeyType::String, 100));
        store.insert("a:1", measuredKey(KeyType::String, 100));
        store.insert("c:1", measuredKey(KeyType::String, 50));
        store.insert("c:2", measuredKey(KeyType::String, 50));
        store.insert("e:1", measuredKey(KeyType::String, 10));
        store.insert("d:1", measuredKey(KeyType::String, 20));
        report::ReportOptions options;
        options.width = 3;
        options.depth = 1;
        const auto built = report::buildReport(store, summary(), 0, options, 0);
        QCOMPARE(built.namespaces.size(), 3u);
        QCOMPARE(built.namespaces[0].path, QByteArray("c:"));
        QCOMPARE(built.namespaces[1].path, QByteArray("a:"));
        QCOMPARE(built.namespaces[2].path, QByteArray("b:"));
        QCOMPARE(built.namespaces[0].stats.keys, 2u);
        QCOMPARE(built.namespaces[0].stats.memoryBytes, 100u);
        QCOMPARE(built.others.namespaces, 2u);
        QCOMPARE(built.others.keys, 2u);
        QCOMPARE(built.others.memoryBytes, 30u);
    }

    void jsonHasTheDocumentedFields()
    {
        const auto store = sampleKeyspace();
        report::ReportOptions options;
        options.top = 3;
        const auto built = report::buildReport(store, summary(), 2, options, 1'000'000);
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(report::toJson(built), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonObject root = document.object();
        QCOMPARE(root[QStringLiteral("tool")].toString(), QStringLiteral("keylens"));
        QCOMPARE(root[QStringLiteral("schema")].toInt(), 1);
        for (const char* field : {"address", "redis_version", "db", "dbsize", "used_memory"})
            QVERIFY2(root[QStringLiteral("server")].toObject().contains(QLatin1String(field)), field);
        for (const char* field :
             {"complete", "keys", "vanished", "duration_ms", "keys_per_second", "memory_measured", "notices"})
            QVERIFY2(root[QStringLiteral("scan")].toObject().contains(QLatin1String(field)), field);
        const QJsonObject totals = root[QStringLiteral("totals")].toObject();
        QCOMPARE(totals[QStringLiteral("keys")].toInteger(), qint64(store.keyCount()));
        QCOMPARE(totals[QStringLiteral("keys_with_ttl")].toInteger() +
                     totals[QStringLiteral("keys_without_ttl")].toInteger(),
                 qint64(store.keyCount()));
        QCOMPARE(totals[QStringLiteral("types")].toObject()[QStringLiteral("hash")].toInteger(), 465);
        QCOMPARE(root[QStringLiteral("scan")].toObject()[QStringLiteral("duplicates")].toInteger(), 2);

        const QJsonArray namespaces = root[QStringLiteral("namespaces")].toArray();
        QVERIFY(!namespaces.isEmpty());
        const QJsonObject binary = namespaces[0].toObject();
        QCOMPARE(binary[QStringLiteral("path")].toString(), QStringLiteral("bin\\xff:"));
        QCOMPARE(QByteArray::fromBase64(binary[QStringLiteral("path_base64")].toString().toLatin1()),
                 QByteArray("bin\xff:", 5));
        const QJsonObject n29 = namespaces[1].toObject();
        QCOMPARE(n29[QStringLiteral("name")].toString(), QStringLiteral("n29"));
        QCOMPARE(n29[QStringLiteral("keys")].toInteger(), 30);
        QCOMPARE(n29[QStringLiteral("memory_bytes")].toInteger(), 3000);
        QCOMPARE(n29[QStringLiteral("keys_with_ttl")].toInteger(), 15);
        QCOMPARE(n29[QStringLiteral("ttl_min_ms")].toInteger(), 1000); // expiry 1,001,000 reported at 1,000,000
        QVERIFY(n29[QStringLiteral("children")].isArray());
        QVERIFY(!binary.contains(QStringLiteral("ttl_min_ms")) || binary[QStringLiteral("ttl_min_ms")].isNull());
        for (int i = 1; i < namespaces.size(); ++i)
            QVERIFY(namespaces[i - 1].toObject()[QStringLiteral("memory_bytes")].toInteger() >=
                    namespaces[i].toObject()[QStringLiteral("memory_bytes")].toInteger());

        const QJsonArray top = root[QStringLiteral("top_keys")].toArray();
        QCOMPARE(top.size(), 3);
        QCOMPARE(top[0].toObject()[QStringLiteral("memory_bytes")].toInteger(), 10'000'000);
        QCOMPARE(top[0].toObject()[QStringLiteral("ttl_ms")].toInteger(), -1);
        QCOMPARE(QByteArray::fromBase64(top[0].toObject()[QStringLiteral("key_base64")].toString().toLatin1()),
                 QByteArray("bin\xff:1", 6));
    }

    void unmeasuredMemoryIsNull()
    {
        const auto store = sampleKeyspace();
        auto noMemory = summary();
        noMemory.memoryMeasured = false;
        const auto built = report::buildReport(store, noMemory, 0, {}, 0);
        const QJsonObject root = QJsonDocument::fromJson(report::toJson(built)).object();
        QVERIFY(root[QStringLiteral("totals")].toObject()[QStringLiteral("memory_bytes")].isNull());
        QVERIFY(root[QStringLiteral("namespaces")].toArray()[0].toObject()[QStringLiteral("memory_bytes")].isNull());
        QVERIFY(report::toText(built).contains("Memory: not measured"));
    }

    void suggestsAnotherDelimiter()
    {
        keyspace::Keyspace store;
        for (int i = 0; i < 40; ++i)
            store.insert(QByteArray("user_" + QByteArray::number(i) + "_profile"), measuredKey(KeyType::Hash, 10));
        for (int i = 0; i < 10; ++i)
            store.insert(QByteArray("user:" + QByteArray::number(i)), measuredKey(KeyType::Hash, 10));
        const auto built = report::buildReport(store, summary(), 0, {}, 0);
        QCOMPARE(built.suggestedDelimiter, '_');
        QVERIFY(report::toText(built).contains("try --delimiter '_'"));

        const auto wellKept = report::buildReport(sampleKeyspace(), summary(), 0, {}, 0);
        QCOMPARE(wellKept.suggestedDelimiter, '\0');
    }

    // Findings grouped by rule and by their keys' patterns: each recorded finding in exactly one group, a namespace
    // folded once however deep (a key of 20,000 segments), and a key's pattern read back by its bytes.
    void findingGroupsHoldEveryFindingOnce()
    {
        keyspace::Keyspace store;
        lint::Linter linter(keyByKey(), 0);
        const auto add = [&](const QByteArray& key) {
            keyspace::NodeId node = keyspace::InvalidNode;
            const keyspace::KeyInfo info = measuredKey(KeyType::String, 50);
            if (store.insert(key, info, &node) == keyspace::Keyspace::Insert::Added)
                linter.keyAdded(store, node, key, info);
        };
        for (int i = 0; i < 30; ++i)
            add("User:" + QByteArray::number(i));
        for (int i = 0; i < 12; ++i)
            add("CACHE_USER_" + QByteArray::number(i));
        const QByteArray deep = "DEEP" + QByteArray(20'000, ':') + "x";
        add(deep);
        linter.finish(store);

        report::FindingGroups groups(store, linter.libraries());
        std::uint64_t grouped = 0;
        std::set<QByteArray> patterns;
        for (const report::FindingGroup& group : groups.groups()) {
            grouped += group.keys;
            patterns.insert(group.pattern);
            QVERIFY(group.memory.known());
            QCOMPARE(group.memory.bytes, group.keys * 50);
        }
        QCOMPARE(grouped, linter.findings());
        QCOMPARE(groups.patternCount(), std::uint64_t(patterns.size()));
        QCOMPARE(groups.patternOf("User:7"), QByteArray("User:<int>"));
        QCOMPARE(groups.patternOf("CACHE_USER_3"), QByteArray("CACHE_USER_<int>"));
        QCOMPARE(groups.patternOf(deep), deep); // words and empty segments: itself
        QVERIFY(groups.patternOf("not:a:key").isEmpty());
        const auto uppercase = std::find_if(groups.groups().begin(), groups.groups().end(), [](const auto& group) {
            return QByteArrayView(group.rule->id) == "uppercase" && group.pattern == "User:<int>";
        });
        QVERIFY(uppercase != groups.groups().end());
        QCOMPARE(uppercase->keys, 30u);
    }

    // A big store is grouped in two halves on two threads and merged: the groups must be those of one pass over it
    // (the Findings panel's stepwise grouping), pattern by pattern, with each key's finding counted once.
    void findingGroupsInHalvesAreThoseOfOnePass()
    {
        keyspace::Keyspace store;
        lint::Linter linter(keyByKey(), 0);
        const auto add = [&](const QByteArray& key, const keyspace::KeyInfo& info) {
            keyspace::NodeId node = keyspace::InvalidNode;
            if (store.insert(key, info, &node) == keyspace::Keyspace::Insert::Added)
                linter.keyAdded(store, node, key, info);
        };
        keyspace::KeyInfo unmeasured;
        unmeasured.type = KeyType::String;
        // A Rails cache without TTLs: missing-ttl on a library's keys, at both ends of the store.
        const auto railsCache = [&](int i) {
            add("views/products/index:8a1f2e3d4c5b6a79/products/" + QByteArray::number(i) + "-20240310120000000000",
                measuredKey(KeyType::String, 80));
        };
        for (int i = 0; i < 40; ++i)
            railsCache(i);
        // Patterns in both halves, in the first only and in the second only; measured and unmeasured keys.
        for (int i = 0; i < 70'000; ++i) {
            add("User:" + QByteArray::number(i) + ":Profile", measuredKey(KeyType::Hash, 100 + i % 7));
            add("user_" + QByteArray::number(i) + "_settings", i % 3 ? measuredKey(KeyType::String, 30) : unmeasured);
            add(i < 35'000 ? "OldCache:" + QByteArray::number(i) : "NewCache:" + QByteArray::number(i),
                measuredKey(KeyType::String, 10));
        }
        for (int i = 40; i < 80; ++i)
            railsCache(i);
        linter.finish(store);
        QVERIFY(store.nodeCount() > 200'000); // past the size grouped in halves

        report::FindingGroups halves(store, linter.libraries());
        report::FindingGroups onePass(store, linter.libraries(), report::FindingGroups::Stepwise{});
        QVERIFY(onePass.step(store.nodeCount()));
        QCOMPARE(halves.groups().size(), onePass.groups().size());
        QVERIFY(halves.groups().size() >= 5);
        std::uint64_t grouped = 0;
        for (std::size_t i = 0; i < halves.groups().size(); ++i) {
            const report::FindingGroup& a = halves.groups()[i];
            const report::FindingGroup& b = onePass.groups()[i];
            QCOMPARE(QByteArrayView(a.rule->id), QByteArrayView(b.rule->id));
            QCOMPARE(a.pattern, b.pattern);
            QCOMPARE(a.keys, b.keys);
            QCOMPARE(a.memory.bytes, b.memory.bytes);
            QCOMPARE(a.memory.keys, b.memory.keys);
            QCOMPARE(a.memory.unmeasured, b.memory.unmeasured);
            QCOMPARE(a.library, b.library);
            grouped += a.keys;
        }
        QCOMPARE(grouped, linter.findings());
        QCOMPARE(halves.patternCount(), onePass.patternCount());
        QCOMPARE(halves.patternOf("NewCache:69999"), QByteArray("NewCache:<int>"));
        const auto userProfiles = std::find_if(halves.groups().begin(), halves.groups().end(), [](const auto& group) {
            return QByteArrayView(group.rule->id) == "uppercase" && group.pattern == "User:<int>:Profile";
        });
        QVERIFY(userProfiles != halves.groups().end());
        QCOMPARE(userProfiles->keys, 70'000u);
        QVERIFY(std::any_of(halves.groups().begin(), halves.groups().end(),
                            [](const auto& group) { return group.library && group.keys == 80; }));
    }

    void emptyKeyspaceSaysSo()
    {
        const keyspace::Keyspace empty;
        auto emptyServer = summary();
        emptyServer.server.dbsize = 0;
        const QByteArray text = report::toText(report::buildReport(empty, emptyServer, 0, {}, 0));
        QVERIFY(text.contains("No keys: the database is empty."));
        QVERIFY(!text.contains("NAMESPACE"));
        QVERIFY(!text.contains("string")); // no type mix made up for zero keys

        auto filtered = summary(); // DBSIZE 468, but nothing matched
        QVERIFY(report::toText(report::buildReport(empty, filtered, 0, {}, 0)).contains("No key matched"));
    }

    void textTableIsSortedAndAligned()
    {
        const auto store = sampleKeyspace();
        report::ReportOptions options;
        options.width = 3;
        const QByteArray text = report::toText(report::buildReport(store, summary(), 0, options, 0));
        QVERIFY(text.contains("NAMESPACE"));
        const qsizetype binary = text.indexOf("bin\\xff:");
        const qsizetype n29 = text.indexOf("n29:");
        const qsizetype n28 = text.indexOf("n28:");
        QVERIFY(binary > 0 && n29 > binary && n28 > n29);
        QVERIFY(text.contains("… 28 more namespaces"));
        QVERIFY(text.contains("(keys without ':')"));
        // Numbers are right-aligned: the KEYS column ends at the same offset on every table row.
        const QList<QByteArray> lines = text.split('\n');
        qsizetype headerAt = -1;
        for (qsizetype i = 0; i < lines.size(); ++i) {
            if (lines[i].startsWith("NAMESPACE"))
                headerAt = i;
        }
        QVERIFY(headerAt >= 0);
        const qsizetype keysEnd = lines[headerAt].indexOf("KEYS") + 4;
        QVERIFY(lines[headerAt + 1].startsWith("(all keys)"));
        QCOMPARE(lines[headerAt + 1].mid(keysEnd - 3, 3), QByteArray("468"));
    }
};

QTEST_APPLESS_MAIN(TestReport)
#include "tst_report.moc"
