// The key-level naming rules, case by case, and every example the seeds recommend or discourage.
#include "TestKeys.h"
#include "keyspace/NamespaceStats.h"
#include "lint/KeyRules.h"
#include "lint/OverlayRules.h"
#include "lint/Profile.h"

#include <QTest>

#include <set>

using namespace keylens;

namespace {

const lint::Profile& defaultProfile()
{
    static const lint::Profile profile = *lint::builtInProfile("default");
    return profile;
}

std::set<QByteArray> rulesFiredOn(const QByteArray& key, bool expires = false,
                                  const lint::Profile& settings = defaultProfile())
{
    const keyspace::KeyInfo info =
        test::measuredKey(keyspace::KeyType::String, 64, expires ? 1'900'000'000'000 : keyspace::NoExpiry);
    std::set<QByteArray> fired;
    for (const lint::KeyFinding& finding : lint::checkKey(key, info, settings))
        fired.insert(finding.rule->id);
    return fired;
}

QByteArray joined(const std::set<QByteArray>& ids)
{
    QByteArray out;
    for (const QByteArray& id : ids)
        out += (out.isEmpty() ? "" : " ") + id;
    return out;
}

} // namespace

class TestKeyRules : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rules_data()
    {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<bool>("expires");
        QTest::addColumn<QByteArray>("fired"); // rule ids, sorted, space-separated
        const auto row = [](const char* key, const char* fired, bool expires = false) {
            QTest::newRow(key) << QByteArray(key) << expires << QByteArray(fired);
        };
        // 000: recommended, then discouraged.
        row("order:detail:10086", "");
        row("user:profile:cache:10086", "");
        row("seckill:stock:activity:1001", "");
        row("ORDER-DETAIL-10086", "delimiter uppercase");
        row("u_p_c_10086", "delimiter");
        row("key1", "placeholder-name");
        row("u:p:c:10086", "cryptic-abbreviation");
        // 001: the standard and its examples are clean in the default profile (volatile ones with a TTL).
        row("user:1001:profile", "");
        row("cache:api:users:list:page:1", "", true);
        row("queue:email:job:12345", "");
        row("rate:limit:api:ip:192.168.1.1", "", true);
        row("lock:inventory:update:sku:ABC123", "", true);
        row("session:9F2A8C1D4E6B7A30", "", true);
        row("session:abc123xyz", "", true);
        row("sess:nk-7chBTInqdSr7fhdz7eEBr6BB_VNN-", "", true);
        row("cart:24acf412-37a1-0aaf-d102-f39ba3c73049", "");
        // 001: the same user spelt seven ways.
        row("user_123", "delimiter");
        row("User:123", "uppercase");
        row("123:user:settings", "id-first");
        row("userSettings_123", "delimiter uppercase");
        row("cache_user_123", "delimiter");
        row("CACHE:USER:123", "uppercase", true);
        row("user@1001", "no-namespace special-characters");
        // 001: anti-patterns.
        row("12345", "id-first");
        row("log:2025:01:15:10:30:45:request:abc", "deep-nesting timestamp-in-key");
        row("app:prod:service:auth:user:1001:session:abc123:token:access", "deep-nesting key-length"); // 60 bytes
        // 002: time buckets are fine when they expire.
        row("pageviews:20240310", "timestamp-in-key");
        row("user:1000:logins:202403", "timestamp-in-key");
        // Volatile namespaces want a TTL; big strings are big.
        row("cache:api:users:list:page:2", "missing-ttl");
        row("session:abc123xyz:data", "missing-ttl");
        row("user:1001:sessions", ""); // `sessions` under user: is not the session namespace
        // Structure.
        row(":leading", "empty-segment");
        row("a::b", "cryptic-abbreviation empty-segment");
        // An IPv6 address's `::` is no empty segment, nor are its groups levels: one id after a word.
        row("login_fail_ip:2001:db8:aaaa:4e::35a", "", true);
        row("ratelimit:fe80::1c2:4e:fe4e:51:attempts", "", true);
        row("user:1 2", "special-characters");
        // 001: '?', '&', '=', '@' and quotes, where the pattern engine cuts a segment at them too.
        row("user:1001@home", "special-characters");
        row("search:q=shoes", "delimiter special-characters");
        row("cache:api:users?page=2&limit=20&sort=asc", "delimiter special-characters", true);
        row("report:\"monthly\"", "special-characters");
        // A percent-encoded value (catbox's, a URL cache's) is data: its letters are not words to judge.
        row("hapi-cache:user-profiles:li.wei%2B7%40example.com", "key-length", true);
        row("cache:search:XY.q%3DHello", "", true);
        row("cache:search:XY.hello", "cryptic-abbreviation uppercase", true);
        row("test:thing", "placeholder-name");
        row("temp:upload:55", "", true);
        row("tmp", "placeholder-name");
        row("settings", "no-namespace");
        row("mykey", "placeholder-name"); // the Redis documentation's example names
        row("mylist", "placeholder-name");
        row("myapp:config", "");
        row("mystery", "no-namespace");
        // Other delimiters: a key that starts with a word is not id-first, whatever joins its parts; its other
        // delimiter is the finding, wherever it stands.
        row("users/104/avatar_url", "delimiter special-characters");
        // An address inside a segment (Bottleneck's `b_<id>_settings` with an e-mail for the id): the word before it
        // is the key's start, and the '@' is the address's own.
        row("b_per-user-ada@example.com_settings", "delimiter");
        row("b_per-user-ada@example.com_settings hour", "delimiter special-characters");
        row("user:ada@example.com", "");
        row("exchange_rates/EUR/30", "delimiter special-characters uppercase");
        row("user_1792_profile", "delimiter");
        row("192.0.2.7/search/3", "delimiter id-first special-characters");
        row("cache:LIMITER/192.0.2.7/search/3/hour", "delimiter special-characters uppercase", true);
        row("feature:dark_mode", "");
        row("tmp_14", "delimiter placeholder-name");
        row("test-3", "delimiter placeholder-name");
        row("test_results", "delimiter");
    }

    void rules()
    {
        QFETCH(QByteArray, key);
        QFETCH(bool, expires);
        QFETCH(QByteArray, fired);
        QCOMPARE(joined(rulesFiredOn(key, expires)), fired);
    }

    void timeBucketsThatExpireAreOnlyInfo()
    {
        const keyspace::KeyInfo expiring = test::measuredKey(keyspace::KeyType::String, 8, 1'900'000'000'000);
        const auto findings = lint::checkKey("ratelimit:user:1000:api:20240310:hour12", expiring, defaultProfile());
        QCOMPARE(findings.size(), std::size_t(1));
        QCOMPARE(QByteArray(findings.front().rule->id), QByteArray("timestamp-in-key"));
        QCOMPARE(findings.front().severity, lint::Severity::Info);
        const auto forever =
            lint::checkKey("pageviews:20240310", test::measuredKey(keyspace::KeyType::String, 8), defaultProfile());
        QCOMPARE(forever.front().severity, lint::Severity::Warning);
    }

    // big-string waits for STRLEN (MEMORY USAGE rounds up, and counts the key's own bytes): the key-level
    // rules never say it, and only keys whose memory less their name exceeds 10 KB are asked.
    void bigStringWaitsForItsLength()
    {
        const QByteArray longName = "blob:name:" + QByteArray(16 * 1024, 'k');
        const keyspace::KeyInfo shortValue = test::measuredKey(keyspace::KeyType::String, longName.size() + 80);
        for (const auto& finding : lint::checkKey(longName, shortValue, defaultProfile()))
            QVERIFY(QByteArrayView(finding.rule->id) != "big-string");
        QVERIFY(!lint::mayBeBigKey(shortValue, std::size_t(longName.size())));
        QVERIFY(lint::mayBeBigKey(test::measuredKey(keyspace::KeyType::String, longName.size() + 11 * 1024),
                                  std::size_t(longName.size())));
        QVERIFY(!lint::mayBeBigKey(test::measuredKey(keyspace::KeyType::String, 9 * 1024), 8));
    }

    void keyLengthThresholds()
    {
        const auto severityFor = [](qsizetype length) {
            const QByteArray key = "k:" + QByteArray(length - 2, 'a');
            const auto findings = lint::checkKey(key, {}, defaultProfile());
            for (const auto& finding : findings) {
                if (QByteArray(finding.rule->id) == "key-length")
                    return int(finding.severity);
            }
            return -1;
        };
        QCOMPARE(severityFor(44), -1);
        QCOMPARE(severityFor(45), int(lint::Severity::Info));
        QCOMPARE(severityFor(101), int(lint::Severity::Warning));
        QCOMPARE(severityFor(1025), int(lint::Severity::Error));
    }

    void profilesChangeOutcomes()
    {
        lint::Profile strict = *lint::builtInProfile("strict");
        QCOMPARE(joined(rulesFiredOn("user:1001:profile", false, strict)), QByteArray("mid-key-id"));
        QCOMPARE(joined(rulesFiredOn("order:detail:10086", false, strict)), QByteArray());
        // 44 bytes is strict's limit: a warning there, an info in default.
        const QByteArray longKey = "order:detail:" + QByteArray(40, 'x');
        QCOMPARE(joined(rulesFiredOn(longKey, false, strict)), QByteArray("key-length"));
        QCOMPARE(lint::checkKey(longKey, {}, strict).front().severity, lint::Severity::Warning);
        QCOMPARE(lint::checkKey(longKey, {}, defaultProfile()).front().severity, lint::Severity::Info);

        strict.maxSegments = 4;
        QCOMPARE(joined(rulesFiredOn("a:b:c:d:e", false, strict)), QByteArray("cryptic-abbreviation deep-nesting"));

        lint::Profile aliases = defaultProfile();
        aliases.aliases = {"u", "p", "c"};
        QCOMPARE(joined(rulesFiredOn("u:p:c:10086", false, aliases)), QByteArray());

        lint::Profile quiet = defaultProfile();
        quiet.rules[lint::ruleIndex(*lint::findRule("delimiter"))].enabled = false;
        quiet.rules[lint::ruleIndex(*lint::findRule("uppercase"))].severity = lint::Severity::Error;
        QCOMPARE(joined(rulesFiredOn("ORDER-DETAIL-10086", false, quiet)), QByteArray("uppercase"));
        QCOMPARE(lint::checkKey("ORDER-DETAIL-10086", {}, quiet).front().severity, lint::Severity::Error);

        lint::Profile allowed = defaultProfile();
        allowed.allowedNamespaces = {"user", "order"};
        QCOMPARE(joined(rulesFiredOn("user:1001:profile", false, allowed)), QByteArray());
        QCOMPARE(joined(rulesFiredOn("cart:1001:items", false, allowed)), QByteArray("unknown-namespace"));

        lint::Profile volatileOnly = defaultProfile();
        volatileOnly.volatileNamespaces = {"report"};
        QCOMPARE(joined(rulesFiredOn("report:daily:7", false, volatileOnly)), QByteArray("missing-ttl"));
        QCOMPARE(joined(rulesFiredOn("cache:api:users:list:page:2", false, volatileOnly)), QByteArray());

        lint::Profile ignoring = defaultProfile();
        ignoring.ignore.emplace_back(QByteArray("bull:*"));
        QVERIFY(lint::checkKey("bull:Queue_1:wait", {}, ignoring).empty());
        QVERIFY(!lint::checkKey("bull:Queue_1:wait", {}, defaultProfile()).empty());
    }

    void binaryKeysSkipTheWordRules()
    {
        const auto fired = rulesFiredOn(QByteArray("bin:\xff\xfe:User", 11));
        QCOMPARE(joined(fired), QByteArray("binary-key"));
    }

    void everyRuleHasItsTexts()
    {
        for (const lint::RuleInfo& rule : lint::allRules()) {
            QVERIFY(QByteArrayView(rule.id).size() > 0);
            QVERIFY2(QByteArrayView(rule.rationale).size() > 20, rule.id);
            QVERIFY2(QByteArrayView(rule.fix).size() > 10, rule.id);
            QCOMPARE(lint::findRule(rule.id), &rule);
        }
        QVERIFY(!lint::findRule("no-such-rule"));
    }
};

QTEST_GUILESS_MAIN(TestKeyRules)
#include "tst_keyrules.moc"
