#include "lint/NamespaceRules.h"

#include "keyspace/Units.h"
#include "lint/Characters.h"
#include "lint/OverlayRules.h"
#include "lint/PatternIndex.h"
#include "lint/SegmentShape.h"
#include "lint/Spelling.h"

#include <QDateTime>
#include <QSet>
#include <QVarLengthArray>

#include <algorithm>
#include <map>

namespace keylens::lint {

namespace {

using keyspace::Keyspace;
using keyspace::NodeId;

bool isIdSegment(const Keyspace& store, NodeId node)
{
    return node != Keyspace::root() && isId(shapeOf(store.segment(node)));
}

// `v1`, `V12`: a version prefix, and its number.
std::optional<int> versionOf(QByteArrayView segment)
{
    if (segment.size() < 2 || segment.size() > 6 || (segment[0] != 'v' && segment[0] != 'V'))
        return std::nullopt;
    int version = 0;
    for (const char c : segment.sliced(1)) {
        if (!isDigit(c))
            return std::nullopt;
        version = version * 10 + (c - '0');
    }
    return version;
}

std::uint64_t weightOf(const Keyspace& store, NodeId node)
{
    return store.stats(node).keys + (store.isKey(node) ? 1 : 0);
}

// A node whose whole subtree breaks a rule (an environment, an old version, a synonym).
struct FlaggedNode
{
    const RuleInfo* rule;
    QByteArray detail;
};

// Misra-Gries heavy hitters over one namespace's expiry windows: with k counters, every window that
// holds more than 1/(k+1) of the keys is among the candidates (then counted exactly).
struct ExpiryVote
{
    std::vector<std::pair<std::int64_t, std::int64_t>> counters; // (window, count)

    void add(std::int64_t window, std::size_t k)
    {
        for (auto& [candidate, count] : counters) {
            if (candidate == window) {
                ++count;
                return;
            }
        }
        if (counters.size() < k) {
            counters.emplace_back(window, 1);
            return;
        }
        for (auto& counter : counters)
            --counter.second;
        std::erase_if(counters, [](const auto& counter) { return counter.second <= 0; });
    }
};

// The exact count of keys around each candidate window, and the verdict.
struct Clump
{
    std::vector<std::pair<std::int64_t, std::uint64_t>> candidates; // (first bucket of a window, keys in it)
    std::int64_t window = 0;                                        // the first bucket of the fullest window
    std::uint64_t keys = 0;
    bool avalanche = false;
};

// Expiry times go into buckets of half the profile's window; a candidate window is two adjacent buckets
// (exactly one window wide), so a clump that straddles a bucket boundary is still seen whole.
bool inWindow(std::int64_t bucket, std::int64_t windowStart)
{
    return bucket == windowStart || bucket == windowStart + 1;
}

struct DataInKeyGroup
{
    std::uint64_t keys = 0;
    std::vector<QByteArray> values; // distinct, up to the profile's maximum + 1
};

// The patterns of keys that say the same words in two spellings or more, group by group: candidates by
// the words' hash first (sorting numbers), then the exact words of the few candidates.
std::vector<std::vector<PatternIndex::PatternId>> variantGroups(const PatternIndex& patterns, char delimiter)
{
    std::vector<std::pair<std::uint64_t, PatternIndex::PatternId>> byHash;
    for (PatternIndex::PatternId id = 1; id < patterns.patternCount(); ++id) {
        if (patterns.keys(id) > 0)
            byHash.emplace_back(patterns.wordsHash(id), id);
    }
    std::sort(byHash.begin(), byHash.end());
    std::vector<std::vector<PatternIndex::PatternId>> groups;
    for (std::size_t first = 0, end = 0; first < byHash.size(); first = end) {
        for (end = first + 1; end < byHash.size() && byHash[end].first == byHash[first].first;)
            ++end;
        if (end - first < 2)
            continue;
        std::map<QByteArray, std::vector<PatternIndex::PatternId>> byWords;
        for (std::size_t i = first; i < end; ++i)
            byWords[wordsOf(patterns.text(byHash[i].second), delimiter)].push_back(byHash[i].second);
        for (auto& [words, group] : byWords) {
            if (group.size() > 1)
                groups.push_back(std::move(group));
        }
    }
    return groups;
}

} // namespace

NamespaceRules::NamespaceRules(const Profile& profile)
    : m_profile(profile)
{}

void NamespaceRules::run(const Keyspace& store, const Record& record)
{
    const Profile& profile = m_profile;
    const std::size_t nodes = store.nodeCount();
    const char delimiter = store.delimiter();

    // 1. Subtrees flagged whole: environments, old versions, synonyms.
    QHash<NodeId, FlaggedNode> flagged;
    std::vector<bool> isFlagged(nodes, false);
    const auto flag = [&](NodeId node, const char* rule, QByteArray detail) {
        if (!profile.isEnabled(*findRule(rule)))
            return;
        flagged.insert(node, {findRule(rule), std::move(detail)});
        isFlagged[node] = true;
    };

    std::vector<NodeId> environments;
    for (const NodeId top : store.children(Keyspace::root())) {
        const QByteArray word = store.segment(top).toByteArray().toLower();
        if (store.hasChildren(top) &&
            std::find(profile.environments.begin(), profile.environments.end(), word) != profile.environments.end())
            environments.push_back(top);
    }
    if (environments.size() > 1) {
        std::sort(environments.begin(), environments.end(),
                  [&](NodeId a, NodeId b) { return weightOf(store, a) > weightOf(store, b); });
        QByteArray names;
        for (const NodeId node : environments)
            names += (names.isEmpty() ? "" : ", ") + store.segment(node).toByteArray() + delimiter;
        for (std::size_t i = 1; i < environments.size(); ++i)
            flag(environments[i], "env-prefixes", names + " share one database");
    }

    std::map<NodeId, std::vector<std::pair<int, NodeId>>> versionsByParent;
    // (namespace, synonym group) -> word -> keys; a namespace below an id level stands for all its ids.
    std::map<std::pair<std::uint64_t, std::size_t>, std::map<QByteArray, std::uint64_t>> synonyms;
    const auto synonymScope = [&](NodeId node) {
        const NodeId parent = store.parent(node);
        return isIdSegment(store, parent) ? (std::uint64_t(store.parent(parent)) << 1 | 1) : std::uint64_t(parent) << 1;
    };
    std::size_t longestSynonym = 0;
    for (const auto& group : profile.synonymGroups) {
        for (const QByteArray& word : group)
            longestSynonym = std::max<std::size_t>(longestSynonym, std::size_t(word.size()));
    }
    const auto synonymGroupOf = [&](NodeId node) -> std::optional<std::pair<std::size_t, QByteArray>> {
        const QByteArrayView segment = store.segment(node);
        if (segment.isEmpty() || std::size_t(segment.size()) > longestSynonym || isDigit(segment[0]))
            return std::nullopt;
        // Lower-cased on the stack: this runs on every node, and allocating here cost a third of the pass.
        QVarLengthArray<char, 64> lower(segment.size());
        std::transform(segment.begin(), segment.end(), lower.begin(), toLower);
        const QByteArrayView word(lower.data(), lower.size());
        const std::optional<std::size_t> group = profile.synonymGroupOf(word);
        return group ? std::optional(std::pair(*group, word.toByteArray())) : std::nullopt;
    };
    const bool checkSynonyms = profile.isEnabled(*findRule("synonym-siblings"));
    std::vector<NodeId> synonymNodes; // the nodes whose segment is in a synonym group (ids only: they are many)
    for (NodeId node = 1; node < nodes; ++node) {
        if (const std::optional<int> version = versionOf(store.segment(node)); version && store.hasChildren(node))
            versionsByParent[store.parent(node)].emplace_back(*version, node);
        if (!checkSynonyms)
            continue;
        if (const auto group = synonymGroupOf(node)) {
            synonyms[{synonymScope(node), group->first}][group->second] += weightOf(store, node);
            synonymNodes.push_back(node);
        }
    }
    for (auto& [parent, versions] : versionsByParent) {
        if (versions.size() < 2)
            continue;
        std::sort(versions.begin(), versions.end());
        const QByteArray newest = store.segment(versions.back().second).toByteArray();
        for (std::size_t i = 0; i + 1 < versions.size(); ++i)
            flag(versions[i].second, "version-prefixes",
                 store.segment(versions[i].second).toByteArray() + " beside " + newest);
    }
    if (checkSynonyms) {
        for (const NodeId node : synonymNodes) {
            const auto [groupIndex, word] = *synonymGroupOf(node);
            const auto& words = synonyms[{synonymScope(node), groupIndex}];
            if (words.size() < 2)
                continue;
            const auto mostUsed = std::max_element(words.begin(), words.end(), [](const auto& a, const auto& b) {
                return a.second < b.second || (a.second == b.second && a.first > b.first);
            });
            if (mostUsed->first != word)
                flag(node, "synonym-siblings", word + " beside " + mostUsed->first);
        }
    }

    // 2. Naming variants: patterns with the same words, grouped; every pattern but the canonical one.
    std::optional<PatternIndex> patterns;
    QHash<PatternIndex::PatternId, QByteArray> variantDetail; // pattern -> message
    QSet<PatternIndex::PatternId> variantParents;             // the patterns of the variants' namespaces
    if (profile.isEnabled(*findRule("naming-variants"))) {
        patterns.emplace(store, MaximumPatterns);
        if (patterns->isCapped())
            m_notices.push_back(QStringLiteral("naming-variants compared the first %1 distinct key patterns only")
                                    .arg(QString::fromUtf8(keyspace::formatCount(MaximumPatterns))));
        for (const std::vector<PatternIndex::PatternId>& group : variantGroups(*patterns, delimiter)) {
            struct Spelled
            {
                PatternIndex::PatternId id;
                QByteArray text;
                std::uint32_t keys;
            };
            std::vector<Spelled> spellings;
            for (const PatternIndex::PatternId id : group)
                spellings.push_back({id, patterns->text(id), patterns->keys(id)});
            std::sort(spellings.begin(), spellings.end(), [](const Spelled& a, const Spelled& b) {
                return a.keys > b.keys || (a.keys == b.keys && a.text < b.text);
            });
            const auto conventional = std::find_if(spellings.begin(), spellings.end(), [&](const Spelled& spelled) {
                return isConventionalSpelling(spelled.text, delimiter);
            });
            const QByteArray canonical = conventional != spellings.end()
                                             ? conventional->text
                                             : conventionalSpelling(spellings.front().text, delimiter);
            QByteArray listed;
            for (std::size_t i = 0; i < spellings.size() && i < 4; ++i)
                listed += (i ? ", " : "") + spellings[i].text + " (" + keyspace::formatCount(spellings[i].keys) + ')';
            if (spellings.size() > 4)
                listed += ", …";
            for (const Spelled& spelled : spellings) {
                if (spelled.text == canonical)
                    continue;
                variantDetail.insert(spelled.id, "spell it " + canonical + "; variants: " + listed);
                variantParents.insert(patterns->parentOf(spelled.id));
            }
        }
    }

    // 3. One pass over the keys: stray persistent keys, flagged subtrees, variants; votes for the next pass.
    const RuleInfo& missingTtl = *findRule("missing-ttl");
    const RuleInfo& variants = *findRule("naming-variants");
    const std::int64_t bucketMs = std::int64_t(profile.avalancheWindowSeconds) * 500;
    // A window holding more than `share` of the keys has a bucket holding more than share / 2.
    const std::size_t voteCounters = std::clamp<std::size_t>(std::size_t(2.0 / profile.avalancheShare), 1, 40);
    const bool checkAvalanche = profile.isEnabled(*findRule("expiry-avalanche"));
    const bool checkDataInKey = profile.isEnabled(*findRule("data-in-key"));
    QHash<NodeId, ExpiryVote> votes;
    std::map<std::pair<NodeId, QByteArray>, DataInKeyGroup> dataInKey;
    // A key of the `<id>:attribute:value` form whose id holds only it: its group, or nothing.
    const auto dataInKeyGroupOf = [&](NodeId key) -> std::optional<std::pair<NodeId, QByteArray>> {
        const NodeId attribute = store.parent(key);
        if (store.hasChildren(key) || attribute == Keyspace::root() || store.isKey(attribute) ||
            store.stats(attribute).childCount != 1 || isId(shapeOf(store.segment(key))) ||
            isIdSegment(store, attribute))
            return std::nullopt;
        const NodeId id = store.parent(attribute);
        if (!isIdSegment(store, id))
            return std::nullopt;
        return std::pair(store.parent(id), store.segment(attribute).toByteArray());
    };

    for (NodeId node = 1; node < nodes; ++node) {
        if (!store.isKey(node) || store.isLintIgnored(node))
            continue;
        const keyspace::KeyInfo info = store.keyInfo(node);
        const NodeId parent = store.parent(node);
        if (parent != Keyspace::root() && isStrayPersistent(info, store.stats(parent)))
            record(node, missingTtl, missingTtl.severity, "most keys beside it expire");

        for (NodeId ancestor = node; ancestor != Keyspace::root() && !flagged.isEmpty();
             ancestor = store.parent(ancestor)) {
            if (isFlagged[ancestor]) {
                const FlaggedNode& flaggedNode = flagged[ancestor];
                record(node, *flaggedNode.rule, flaggedNode.rule->severity, flaggedNode.detail);
            }
        }
        // Only a key whose namespace spells like a variant's is spelled again.
        if (!variantDetail.isEmpty() && variantParents.contains(patterns->patternOfNamespace(parent))) {
            if (const auto it = variantDetail.constFind(patterns->patternOfKey(node)); it != variantDetail.cend())
                record(node, variants, variants.severity, *it);
        }
        if (checkAvalanche && keyspace::hasExpiry(info.expiresAtMs) && parent != Keyspace::root() &&
            store.stats(parent).keysWithTtl >= profile.avalancheMinimumKeys)
            votes[parent].add(info.expiresAtMs / bucketMs, voteCounters);
        if (checkDataInKey) {
            if (auto group = dataInKeyGroupOf(node)) {
                DataInKeyGroup& entry = dataInKey[*group];
                ++entry.keys;
                const QByteArray value = store.segment(node).toByteArray();
                if (entry.values.size() <= profile.dataInKeyMaximumValues &&
                    std::find(entry.values.begin(), entry.values.end(), value) == entry.values.end())
                    entry.values.push_back(value);
            }
        }
    }

    // 4. The avalanche candidates counted exactly; then the keys of both verdicts.
    QHash<NodeId, Clump> clumps;
    for (auto it = votes.cbegin(); it != votes.cend(); ++it) {
        Clump clump;
        for (const auto& [bucket, count] : it->counters) {
            // The heavy bucket with the one before it, and with the one after it.
            for (const std::int64_t start : {bucket - 1, bucket}) {
                if (std::none_of(clump.candidates.begin(), clump.candidates.end(),
                                 [&](const auto& candidate) { return candidate.first == start; }))
                    clump.candidates.emplace_back(start, 0);
            }
        }
        clumps.insert(it.key(), std::move(clump));
    }
    votes.clear();
    std::erase_if(dataInKey, [&](const auto& group) {
        return group.second.keys < profile.dataInKeyMinimumKeys || group.second.values.size() < 2 ||
               group.second.values.size() > profile.dataInKeyMaximumValues;
    });
    if (clumps.isEmpty() && dataInKey.empty())
        return;
    for (NodeId node = 1; node < nodes && !clumps.isEmpty(); ++node) {
        if (!store.isKey(node) || store.isLintIgnored(node))
            continue;
        const std::int64_t expiresAt = store.keyInfo(node).expiresAtMs;
        if (!keyspace::hasExpiry(expiresAt))
            continue;
        if (const auto it = clumps.find(store.parent(node)); it != clumps.end()) {
            for (auto& [window, count] : it->candidates)
                count += inWindow(expiresAt / bucketMs, window) ? 1 : 0;
        }
    }
    for (auto it = clumps.begin(); it != clumps.end(); ++it) {
        const auto best = std::max_element(it->candidates.begin(), it->candidates.end(),
                                           [](const auto& a, const auto& b) { return a.second < b.second; });
        if (best == it->candidates.end())
            continue;
        it->window = best->first;
        it->keys = best->second;
        it->avalanche = double(it->keys) > profile.avalancheShare * double(store.stats(it.key()).keysWithTtl);
    }
    const RuleInfo& avalanche = *findRule("expiry-avalanche");
    const RuleInfo& dataRule = *findRule("data-in-key");
    for (NodeId node = 1; node < nodes; ++node) {
        if (!store.isKey(node) || store.isLintIgnored(node))
            continue;
        const std::int64_t expiresAt = store.keyInfo(node).expiresAtMs;
        if (const auto it = clumps.constFind(store.parent(node)); it != clumps.cend() && it->avalanche &&
                                                                  keyspace::hasExpiry(expiresAt) &&
                                                                  inWindow(expiresAt / bucketMs, it->window)) {
            const QDateTime when = QDateTime::fromMSecsSinceEpoch(it->window * bucketMs, Qt::UTC);
            record(node, avalanche, avalanche.severity,
                   QByteArray(keyspace::formatCount(it->keys) + " of " +
                              keyspace::formatCount(store.stats(store.parent(node)).keysWithTtl) +
                              " keys expire in the " + QByteArray::number(profile.avalancheWindowSeconds) + " s from " +
                              when.toString(Qt::ISODate).toUtf8()));
        }
        if (dataInKey.empty())
            continue;
        if (const auto group = dataInKeyGroupOf(node)) {
            if (const auto it = dataInKey.find(*group); it != dataInKey.end()) {
                QByteArray values;
                for (const QByteArray& value : it->second.values)
                    values += (values.isEmpty() ? "" : ", ") + value;
                record(node, dataRule, dataRule.severity, QByteArray(group->second + " takes " + values));
            }
        }
    }
}

} // namespace keylens::lint
