// The linter on a messy keyspace of our own making: 100,000 keys, most of them clean, the rest each breaking one
// convention that the seeds (shared/seeds) warn against, made by a seeded generator from word lists the rules do not
// know. Each anti-pattern's keys must get its rule (recall), clean keys no warning, and a key no rule it must not get
// (a cached page's query is no data in its name). The generator is not tuned to the rules: its words, ids and shapes
// are drawn at random, and a key's truth is how it was made.
#include "TestKeys.h"
#include "keyspace/Keyspace.h"
#include "lint/KeyPattern.h"
#include "lint/Linter.h"

#include <QTest>

#include <map>
#include <random>
#include <set>

using namespace keylens;

namespace {

const std::vector<QByteArray> Entities{"customer", "order",     "invoice", "product", "shipment", "account",
                                       "payment",  "review",    "coupon",  "basket",  "ticket",   "employee",
                                       "supplier", "warehouse", "article", "booking"};
const std::vector<QByteArray> Attributes{"profile", "settings", "items",   "history", "address",  "status",
                                         "balance", "comments", "summary", "details", "contacts", "preferences"};

class Generator
{
public:
    explicit Generator(std::uint32_t seed)
        : m_random(seed)
    {}

    QByteArray pick(const std::vector<QByteArray>& words) { return words[below(words.size())]; }
    std::size_t below(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(m_random); }
    QByteArray id() { return QByteArray::number(qulonglong(1000 + below(9'000'000))); }
    QByteArray hex(int digits)
    {
        QByteArray out;
        for (int i = 0; i < digits; ++i)
            out += "0123456789abcdef"[below(16)];
        return out;
    }
    QByteArray upperFirst(QByteArray word)
    {
        word[0] = char(word[0] - 'a' + 'A');
        return word;
    }

private:
    std::mt19937 m_random;
};

struct Made
{
    QByteArray key;
    QByteArray rule; // the rule its anti-pattern breaks (`a|b`: either); empty for a clean key
    std::int64_t expiresAtMs = keyspace::NoExpiry;
    QByteArray notRule = {}; // a rule it must not get: a false alarm where it does
};

// Characters the seeds tell to keep out of names (001: "avoid user@1001 or user/1001"; spaces, quotes), in the places
// keys carry them, whether or not the pattern engine cuts a segment at them.
QByteArray withSpecialCharacters(Generator& g, const QByteArray& entity, const QByteArray& id,
                                 const QByteArray& attribute)
{
    switch (g.below(6)) {
    case 0:
        return entity + ":" + id + ":" + attribute + " copy";
    case 1:
        return entity + "@" + id + ":" + attribute;
    case 2:
        return entity + ":" + id + ":\"" + attribute + "\"";
    case 3:
        return entity + ":" + id + ":" + attribute + "?v=" + QByteArray::number(qulonglong(g.below(3)));
    case 4:
        return entity + ":" + id + ":" + attribute + "&lang=en";
    default:
        return entity + ":" + id + ":" + attribute + "='" + g.pick(Attributes) + "'";
    }
}

// One key of an anti-pattern, as the seeds describe it.
Made antiPattern(Generator& g, int which)
{
    const QByteArray entity = g.pick(Entities), attribute = g.pick(Attributes), id = g.id();
    switch (which) {
    case 0: // no delimiter at all: either rule says it (the issue's floor counts both)
        return {entity + id + attribute, "no-namespace|delimiter"};
    case 1: // another delimiter where ':' belongs
        return {entity + "_" + id + "_" + attribute, "delimiter"};
    case 2:
        return {g.upperFirst(entity) + ":" + id + ":" + attribute, "uppercase"};
    case 3:
        return {withSpecialCharacters(g, entity, id, attribute), "special-characters"};
    case 4:
        return {entity + "::" + id + ":" + attribute, "empty-segment"};
    case 5:
        return {"app:" + entity + ":" + id + ":" + attribute + ":archive:" + g.pick(Attributes) + ":" +
                    g.pick(Attributes) + ":" + g.pick(Attributes),
                "deep-nesting"};
    case 6:
        return {id + ":" + entity + ":" + attribute, "id-first"};
    case 7:
        return {entity + ":" + id + ":" + attribute + ":" + QByteArray(120, 'x').replace(0, 20, g.hex(20)),
                "key-length"};
    case 8: // a cache entry that never expires
        return {"cache:" + entity + ":" + id + ":" + attribute, "missing-ttl"};
    case 9: { // a cached page that carries its query: special characters, but the parameters are no data in the name
        const QByteArray query = "page=" + QByteArray::number(qulonglong(1 + g.below(3))) +
                                 "&limit=20&sort=" + (g.below(2) ? "asc" : "desc");
        return {"cache:" + entity + ":" + id + ":" + attribute + ":" + query, "special-characters", keyspace::NoExpiry,
                "data-in-key"};
    }
    default: // a placeholder name
        return {QByteArray(g.below(2) ? "tmp_" : "test:") + id, "placeholder-name"};
    }
}
constexpr int AntiPatterns = 11;

Made clean(Generator& g, std::int64_t nowMs)
{
    const QByteArray entity = g.pick(Entities), attribute = g.pick(Attributes);
    Made made{entity + ":" + g.id() + ":" + attribute, {}};
    if (g.below(3) == 0) // some of them expire, spread over a day
        made.expiresAtMs = nowMs + 60'000 + std::int64_t(g.below(86'400'000));
    return made;
}

} // namespace

class TestSyntheticRecall : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void recallPerAntiPatternAndCleanKeysStayClean()
    {
        const std::int64_t nowMs = QDateTime::currentMSecsSinceEpoch();
        Generator g(20261204);
        std::vector<Made> keys;
        for (int i = 0; i < 100'000; ++i) // one key in four breaks a convention
            keys.push_back(g.below(4) == 0 ? antiPattern(g, int(g.below(AntiPatterns))) : clean(g, nowMs));

        keyspace::Keyspace store;
        lint::Linter linter(*lint::builtInProfile("default"), 0);
        std::vector<keyspace::NodeId> nodes;
        for (const Made& made : keys) {
            const keyspace::KeyInfo info = test::measuredKey(keyspace::KeyType::String, 80, made.expiresAtMs);
            keyspace::NodeId node = keyspace::InvalidNode;
            const bool added = store.insert(made.key, info, &node) == keyspace::Keyspace::Insert::Added;
            if (added)
                linter.keyAdded(store, node, made.key, info);
            nodes.push_back(added ? node : keyspace::InvalidNode); // a duplicate key counts once
        }
        linter.finish(store);

        // A rule's finding may stand for the keys of its pattern (ten or more long names of one pattern are one
        // key-length finding, lint/LengthPatterns.h): a key of a pattern such a finding covers has it too. Every key
        // over the threshold is counted once: on its own, or among the keys its pattern's finding covers.
        std::map<std::size_t, std::set<QByteArray>> coveredPatterns; // rule index -> patterns
        std::uint64_t longKeys = 0, longCounted = 0;
        const std::size_t keyLength = lint::ruleIndex(*lint::findRule("key-length"));
        for (const lint::CoveredFinding& covered : linter.coveredFindings()) {
            if (covered.rule != keyLength)
                continue;
            coveredPatterns[covered.rule].insert(lint::patternOfKey(store.path(covered.node), store.delimiters()));
            longCounted += covered.keys - 1; // its own key is counted below
        }
        for (keyspace::NodeId node = 1; node < store.nodeCount(); ++node) {
            if (!store.isKey(node) || store.pathLength(node) <= linter.profile().keyLengthInfo)
                continue;
            ++longKeys;
            longCounted += store.findingRules(node) >> keyLength & 1;
        }
        QCOMPARE(longCounted, longKeys);
        const auto coveredBy = [&](const QByteArray& key, std::size_t rule) {
            const auto patterns = coveredPatterns.find(rule);
            return patterns != coveredPatterns.end() &&
                   patterns->second.count(lint::patternOfKey(key, store.delimiters())) > 0;
        };

        std::map<QByteArray, std::pair<std::size_t, std::size_t>> recall;      // rule -> (found, made)
        std::map<QByteArray, std::pair<std::size_t, std::size_t>> falseAlarms; // rule -> (got, keys that must not)
        std::size_t cleanKeys = 0, cleanWarned = 0;
        for (std::size_t i = 0; i < keys.size(); ++i) {
            if (nodes[i] == keyspace::InvalidNode)
                continue;
            const std::uint32_t rules = store.findingRules(nodes[i]);
            if (keys[i].rule.isEmpty()) {
                ++cleanKeys;
                // Info is advice; a warning or an error on a clean key is a false alarm.
                bool warned = false;
                for (std::size_t rule = 0; rule < lint::allRules().size(); ++rule) {
                    if ((rules >> rule & 1) && lint::allRules()[rule].severity != lint::Severity::Info)
                        warned = true;
                }
                cleanWarned += warned ? 1 : 0;
                continue;
            }
            if (!keys[i].notRule.isEmpty()) {
                auto& [got, kept] = falseAlarms[keys[i].notRule];
                ++kept;
                got += rules >> lint::ruleIndex(*lint::findRule(keys[i].notRule.constData())) & 1;
            }
            auto& [found, made] = recall[keys[i].rule];
            ++made;
            bool said = false;
            for (const QByteArray& rule : keys[i].rule.split('|')) {
                const std::size_t index = lint::ruleIndex(*lint::findRule(rule.constData()));
                said = said || (rules >> index & 1) || coveredBy(keys[i].key, index);
            }
            found += said ? 1 : 0;
        }
        for (const auto& [rule, counts] : recall) {
            const double share = 100.0 * double(counts.first) / double(counts.second);
            qInfo("%-20s recall %5.1f%% (%zu of %zu)", rule.constData(), share, counts.first, counts.second);
            QVERIFY2(share >= 95.0, rule.constData());
        }
        for (const auto& [rule, counts] : falseAlarms) {
            const double share = 100.0 * double(counts.first) / double(counts.second);
            qInfo("%-20s false alarms %5.2f%% (%zu of %zu keys that must not get it)", rule.constData(), share,
                  counts.first, counts.second);
            QVERIFY2(share <= 1.0, rule.constData());
        }
        const double cleanAlarms = 100.0 * double(cleanWarned) / double(cleanKeys);
        qInfo("clean keys with a warning: %.2f%% (%zu of %zu)", cleanAlarms, cleanWarned, cleanKeys);
        QVERIFY(cleanAlarms <= 1.0);
    }
};

QTEST_GUILESS_MAIN(TestSyntheticRecall)
#include "tst_syntheticrecall.moc"
