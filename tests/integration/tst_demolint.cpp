// keylens-cli lint on the demo keyspace against what the demo plants, written down here from the demo's
// families (not from the linter): every planted mistake reported, no clean key flagged. A mistake a whole family
// makes the same way (its habit: `userSettings_<id>` joined by '_', every `log:` key a time) and an expiry burst are
// reported once for the family (lint/FamilyConventions.h, one finding per namespace): found where a key of the family
// has it. The TTLs, the string lengths and the collection sizes come from the server with plain commands. It prints,
// per rule, the keys found, missed and falsely flagged.
#include "CliRunner.h"
#include "PlainClient.h"
#include "TestServer.h"
#include "demo/DemoKeyspace.h"
#include "redis/Connection.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include <cstdio>
#include <map>
#include <set>

using namespace keylens;

namespace {

using Rules = std::set<QByteArray>;

struct Facts
{
    long long pttl = -1; // -1: no TTL
    long long size = -1; // STRLEN, or the collection's length
    bool string = false;
};

// What the demo means each key to be, by its family (see src/demo/DemoKeyspace.cpp).
struct Family
{
    QRegularExpression pattern;
    Rules rules;
    Rules once = {}; // of `rules`, those reported once for the family (its habit, or a burst)
};

const std::vector<Family>& families()
{
    static const std::vector<Family> list = [] {
        std::vector<Family> out;
        const auto add = [&](const char* pattern, Rules rules, Rules once = {}) {
            out.push_back({QRegularExpression(QStringLiteral("^(?:%1)$").arg(QString::fromUtf8(pattern)),
                                              QRegularExpression::DotMatchesEverythingOption),
                           std::move(rules), std::move(once)});
        };
        // The well-kept part.
        add(R"(user:\d+:(profile|settings|sessions|notifications)|feed:user:\d+)", {});
        add(R"(session:[0-9a-f]{32})", {}); // a TTL with 5 minutes of jitter
        add(R"(cart:[0-9a-f-]{36})", {});   // a quarter without TTL: not a volatile namespace
        add(R"(product:SKU\d+(:categories)?|order:\d+:detail|queue:email:job:\d+)", {});
        add(R"(tenant:(acme|globex|initech):user:\d+:profile|prod:user:\d+:profile)", {});
        add(R"(counter:pageviews:article:\d+|bull:email:\d+)", {});
        // BullMQ's completed set of 2,000 jobs: a queue that keeps every finished job.
        add(R"(bull:email:completed)", {"unbounded-history"});
        add(R"(queue:email:(processing|failed)|bull:email:(wait|id|meta)|queue:default|stat:(processed|failed))", {});
        add(R"(events:(orders|audit)|feature:flags|config:app(:v2)?|deploy:last|lock:cron:nightly)", {});
        add(R"(\{user\d+\}:cart|email:john@example\.com|用户:\d+:资料|emoji:🚀:launch|pageviews:2024)", {});
        // Written in one go with one TTL: they all expire in the same minute.
        add(R"(sess:[A-Za-z0-9_-]{32}|cache:api:users:list:page:\d+|rate:limit:api:(user:\d+|ip:[\d.]+))",
            {"expiry-avalanche"}, {"expiry-avalanche"});
        add(R"(lock:order:process:\d+|otp:\+1555\d+)", {"expiry-avalanche"}, {"expiry-avalanche"});
        // The planted mistakes.
        add(R"(cache:db:query:[0-9a-f]{40})", {"key-length"}, {"key-length"}); // and missing-ttl without one (below)
        add(R"(CACHE:USER:\d+)", {"uppercase", "naming-variants", "missing-ttl"});
        add(R"(cache_user_\d+|user_\d+)", {"delimiter", "naming-variants"});
        add(R"(userSettings_\d+)", {"delimiter", "uppercase", "naming-variants"}, {"delimiter", "uppercase"});
        add(R"(User:\d+(:Profile)?)", {"uppercase", "naming-variants"});
        add(R"(\d+:user:settings)", {"id-first", "naming-variants"});
        add(R"(\d+)", {"id-first"}, {"id-first"});
        add(R"(log:2025(:\d\d){5}:request:\d+)", {"deep-nesting", "timestamp-in-key"}, {"timestamp-in-key"});
        add(R"(user:\d+:plan:(pro|free))", {"data-in-key"});
        add(R"(app:prod:service:auth:user:\d+:session:[0-9a-f]{12}:token:access)", {"deep-nesting", "key-length"},
            {"key-length"});
        add(R"(u:p:c:\d+)", {"cryptic-abbreviation"}, {"cryptic-abbreviation"});
        add(R"(staging:user:\d+:profile)", {"env-prefixes"});
        add(R"(temp:import:\d+)", {"missing-ttl"});
        add(R"(img:thumb:\d+)", {}); // big-string when over 10 KB (below)
        add(R"(queue:email:pending|leaderboard:global|user:index:email|users:all)", {"big-collection"});
        add(R"(leaderboard:weekly:2024-W10|pageviews:20240310|pageviews:202403)", {"timestamp-in-key"});
        add(R"(maintenance)", {"no-namespace"});
        // Celery's broker keys (its queue and the binding set that names it): the library's layout, exempt
        // from the naming rules.
        add(R"(celery|_kombu\.binding\.celery)", {});
        add(R"(key1|test|tmp|foo|asdf|mykey)", {"placeholder-name"});
        add(R"(cache:report:monthly)", {"big-string", "missing-ttl"});
        add(R"(cache:homepage)", {"big-string"});
        add(R"(key with spaces|"quoted")", {"no-namespace", "special-characters"});
        add(R"(path/like/key)", {"delimiter", "special-characters"});
        add(R"(:leading:delimiter|trailing:delimiter:|double::delimiter)", {"empty-segment"});
        add(R"(cache:render:q{500})", {"key-length"});
        add(R"(blob:name:k{16384})", {"key-length"});
        return out;
    }();
    return list;
}

// The family the demo writes a key in, or nullptr.
const Family* familyOf(const QByteArray& key)
{
    const QString text = QString::fromUtf8(key);
    for (const Family& family : families()) {
        if (family.pattern.match(text).hasMatch())
            return &family;
    }
    return nullptr;
}

// The rules a key should break, or nothing when no family knows it.
std::optional<Rules> expectedRules(const QByteArray& key, const Facts& facts, bool* unsure)
{
    *unsure = false;
    if (key == QByteArray("bin:\xff\xfe\x00\x01", 8) || key == "tab\tkey" || key == "line1\nline2")
        return Rules{"binary-key"};
    if (key == "session:\xc3\x28-not-utf8")
        return Rules{"binary-key", "missing-ttl"};
    const QString text = QString::fromUtf8(key);
    for (const Family& family : families()) {
        if (!family.pattern.match(text).hasMatch())
            continue;
        Rules rules = family.rules;
        if (key.startsWith("cache:db:query:") && facts.pttl < 0)
            rules.insert("missing-ttl");
        if (key.startsWith("img:thumb:")) {
            // MEMORY USAGE is the value plus a few dozen bytes of overhead: near 10 KB either verdict is fair.
            if (facts.size > 10 * 1024 + 64)
                rules.insert("big-string");
            *unsure = std::abs(facts.size - 10 * 1024) <= 64;
        }
        return rules;
    }
    return std::nullopt;
}

} // namespace

class TestDemoLint : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyPlantedMistakeAndNoCleanKey()
    {
        demo::RedisServerProcess server;
        KEYLENS_START_SERVER(server);
        {
            auto connection = redis::Connection::open(server.connectionOptions());
            QVERIFY(connection.ok());
            demo::DemoOptions options;
            options.keys = 50'000;
            QVERIFY(demo::seedDemoKeyspace(**connection, options).ok());
        }
        const auto run = test::runCli({QStringLiteral("lint"), QStringLiteral("-p"), QString::number(server.port()),
                                       QStringLiteral("--format"), QStringLiteral("json"),
                                       QStringLiteral("--max-examples"), QStringLiteral("0")});
        QCOMPARE(run.exitCode, 1); // the demo has error-level findings (a 16 KB key name)
        std::map<QByteArray, Rules> flagged;
        for (const QJsonValue& value :
             QJsonDocument::fromJson(run.out).object()[QStringLiteral("findings")].toArray()) {
            const QJsonObject finding = value.toObject();
            const QByteArray key =
                finding.contains(QStringLiteral("key_base64"))
                    ? QByteArray::fromBase64(finding[QStringLiteral("key_base64")].toString().toLatin1())
                    : finding[QStringLiteral("key")].toString().toUtf8();
            flagged[key].insert(finding[QStringLiteral("rule")].toString().toUtf8());
        }

        // The rules said of a family once, on one of its keys.
        std::map<const Family*, Rules> flaggedFamilies;
        for (const auto& [key, rules] : flagged) {
            if (const Family* family = familyOf(key))
                flaggedFamilies[family].insert(rules.begin(), rules.end());
        }

        // The truth: every key, its TTL and its size, by plain pipelined commands.
        test::PlainClient client(server.port());
        const std::vector<QByteArray> keys = client.allKeys();
        QCOMPARE(qlonglong(keys.size()), client.integer({"DBSIZE"}));
        std::vector<std::vector<QByteArray>> pttl, types;
        for (const QByteArray& key : keys)
            pttl.push_back({"PTTL", key});
        const std::vector<long long> ttls = client.pipelineIntegers(pttl);
        std::map<QByteArray, Facts> facts;
        for (std::size_t i = 0; i < keys.size(); ++i) {
            Facts& fact = facts[keys[i]];
            fact.pttl = ttls[i] >= 0 ? ttls[i] : -1;
            if (keys[i].startsWith("img:thumb:"))
                fact.size = client.integer({"STRLEN", keys[i]});
        }

        struct Tally
        {
            int found = 0, missed = 0, falselyFlagged = 0;
            std::vector<QByteArray> examples;
        };
        std::map<QByteArray, Tally> tally;
        std::vector<QByteArray> unknown;
        int unsureKeys = 0;
        for (const QByteArray& key : keys) {
            bool unsure = false;
            const std::optional<Rules> expected = expectedRules(key, facts[key], &unsure);
            if (!expected) {
                unknown.push_back(key);
                continue;
            }
            if (unsure) {
                ++unsureKeys;
                continue;
            }
            const Rules& got = flagged[key];
            const Family* family = familyOf(key);
            for (const QByteArray& rule : *expected) {
                Tally& t = tally[rule];
                const bool once = family && family->once.count(rule);
                if (got.count(rule) || (once && flaggedFamilies[family].count(rule))) {
                    ++t.found;
                } else {
                    ++t.missed;
                    if (t.examples.size() < 3)
                        t.examples.push_back("missed " + key.left(60));
                }
            }
            for (const QByteArray& rule : got) {
                if (!expected->count(rule)) {
                    Tally& t = tally[rule];
                    ++t.falselyFlagged;
                    if (t.examples.size() < 3)
                        t.examples.push_back("false " + key.left(60));
                }
            }
        }

        std::printf("%-22s %8s %8s %8s\n", "rule", "found", "missed", "false");
        int missed = 0, falselyFlagged = 0;
        for (const auto& [rule, t] : tally) {
            std::printf("%-22s %8d %8d %8d\n", rule.constData(), t.found, t.missed, t.falselyFlagged);
            for (const QByteArray& example : t.examples)
                std::printf("    %s\n", example.constData());
            missed += t.missed;
            falselyFlagged += t.falselyFlagged;
        }
        std::printf("%zu keys, %d near a threshold left out\n", keys.size(), unsureKeys);
        for (const QByteArray& key : unknown)
            qWarning("no family for %s", key.toPercentEncoding(":_-").constData());
        QVERIFY2(unknown.empty(), "keys the demo does not describe");
        QCOMPARE(missed, 0);
        QCOMPARE(falselyFlagged, 0);
        // Every rule the demo plants is among them.
        for (const char* rule :
             {"expiry-avalanche", "naming-variants", "data-in-key", "env-prefixes", "big-collection",
              "unbounded-history", "big-string", "binary-key", "missing-ttl", "cryptic-abbreviation"})
            QVERIFY2(tally[rule].found > 0, rule);
    }
};

QTEST_GUILESS_MAIN(TestDemoLint)
#include "tst_demolint.moc"
