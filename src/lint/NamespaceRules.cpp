#include "lint/NamespaceRules.h"

#include "base/SideTask.h"
#include "keyspace/KeyPath.h"
#include "keyspace/Units.h"
#include "lint/AddressGroups.h"
#include "lint/Characters.h"
#include "lint/OverlayRules.h"
#include "lint/PatternIndex.h"
#include "lint/RoleEvidence.h"
#include "lint/SegmentMarks.h"
#include "lint/SegmentShape.h"
#include "lint/Spelling.h"

#include <QDateTime>
#include <QHash>
#include <QSet>

#include <algorithm>
#include <map>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace keylens::lint {

QByteArray namingVariantDetail(const QByteArray& canonical, const QByteArray& variantsListed)
{
    return "spell it " + canonical + "; variants: " + variantsListed;
}

std::optional<QByteArray> canonicalOfNamingVariant(QByteArrayView detail)
{
    constexpr QByteArrayView Start("spell it ");
    const qsizetype end = detail.indexOf(QByteArrayView("; variants: "));
    if (!detail.startsWith(Start) || end < Start.size())
        return std::nullopt;
    return detail.sliced(Start.size(), end - Start.size()).toByteArray();
}

namespace {

using keyspace::Keyspace;
using keyspace::NodeId;

bool isIdSegment(const SegmentShapes* shapes, const Keyspace& store, NodeId node)
{
    return node != Keyspace::root() && isId(shapeOfNode(shapes, store, node));
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

// The profile's synonym groups by word: asked about every node's segment, so a lookup hashes once and
// allocates nothing (the profile's lists are scanned word by word).
class SynonymIndex
{
public:
    explicit SynonymIndex(const Profile& profile)
    {
        for (std::size_t group = 0; group < profile.synonymGroups.size(); ++group) {
            for (const QByteArray& word : profile.synonymGroups[group]) {
                m_groups.emplace(std::string_view(word.constData(), std::size_t(word.size())), Match{group, &word});
                m_longest = std::max(m_longest, word.size());
            }
        }
    }
    struct Match
    {
        std::size_t group;
        const QByteArray* word; // the profile's spelling, lower case
    };
    // The group of a segment, compared in lower case.
    std::optional<Match> groupOf(QByteArrayView segment) const
    {
        if (segment.isEmpty() || segment.size() > m_longest || isDigit(segment[0]))
            return std::nullopt;
        const LowerCase lower(segment);
        const auto it = m_groups.find(std::string_view(lower.view().data(), std::size_t(lower.view().size())));
        return it == m_groups.end() ? std::nullopt : std::optional(it->second);
    }

private:
    std::unordered_map<std::string_view, Match> m_groups; // keys view the profile's words
    qsizetype m_longest = 0;
};

// What the missing-TTL and expiry-avalanche rules ask of a key's namespace.
struct SiblingTtls
{
    std::uint32_t known = 0; // keys whose TTL was measured
    std::uint32_t withTtl = 0;
    bool asked = false;
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
    // Its keys, in the order the pass met them, while the group may still be reported (then none: it never is).
    // Kept, not looked for again under each id: that search was a hash lookup and a group rebuilt per key.
    std::vector<NodeId> nodes;
};

// Whether a pattern holds an IPv6 address that its ':' split into levels (`ip:<int>:db8:aaaa:<int>::c6`): its groups
// read as words and ids, so two addresses look like one name spelled two ways. An id placeholder stands for a group
// of its kind.
bool holdsSplitAddress(QByteArrayView pattern, char delimiter)
{
    if (delimiter != ':' || (!pattern.contains("::") && pattern.count(':') < 4))
        return false;
    std::vector<QByteArrayView> segments;
    keyspace::forEachSegment(pattern, delimiter, [&](QByteArrayView segment) {
        segments.push_back(segment == QByteArrayView("<int>")   ? QByteArrayView("2001")
                           : segment == QByteArrayView("<hex>") ? QByteArrayView("abcd")
                                                                : segment);
    });
    for (qsizetype first = 0; first < qsizetype(segments.size()); ++first) {
        if (addressRunEnd(segments, first) >= 0)
            return true;
    }
    return false;
}

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
        for (std::size_t i = first; i < end; ++i) {
            const QByteArray text = patterns.text(byHash[i].second);
            if (!holdsSplitAddress(text, delimiter))
                byWords[wordsOf(text, delimiter)].push_back(byHash[i].second);
        }
        for (auto& [words, group] : byWords) {
            if (group.size() > 1)
                groups.push_back(std::move(group));
        }
    }
    return groups;
}

// One run of the rules over a finished store: the steps of NamespaceRules::run, sharing the store, the
// profile and the recorder. The gathering steps only read the store and record nothing, so that two of
// them can run side by side; the recording steps come after them, on the thread that owns the store.
class Pass
{
public:
    Pass(const Keyspace& store, const SegmentShapes* shapes, const Profile& profile,
         const NamespaceRules::Record& record, std::vector<QString>& notices)
        : m_store(store)
        , m_shapes(shapes)
        , m_profile(profile)
        , m_record(record)
        , m_notices(notices)
        , m_delimiter(store.delimiter())
        , m_bucketMs(std::int64_t(profile.avalancheWindowSeconds) * 500)
    {}

    // env-prefixes: every environment but the biggest.
    void environments()
    {
        std::vector<NodeId> environments;
        for (const NodeId top : m_store.children(Keyspace::root())) {
            const LowerCase word(m_store.segment(top));
            if (m_store.hasChildren(top) && std::find(m_profile.environments.begin(), m_profile.environments.end(),
                                                      word.view()) != m_profile.environments.end())
                environments.push_back(top);
        }
        if (environments.size() < 2)
            return;
        std::sort(environments.begin(), environments.end(),
                  [&](NodeId a, NodeId b) { return weightOf(m_store, a) > weightOf(m_store, b); });
        QByteArray names;
        for (const NodeId node : environments)
            names += (names.isEmpty() ? "" : ", ") + m_store.segment(node).toByteArray() + m_delimiter;
        for (std::size_t i = 1; i < environments.size(); ++i)
            flag(environments[i], *findRule("env-prefixes"), names + " share one database");
    }

    // version-prefixes (every version but the newest under one parent) and synonym-siblings (every word
    // of a synonym group but the most used among siblings), in one pass over the nodes.
    void versionsAndSynonyms()
    {
        std::map<NodeId, std::vector<std::pair<int, NodeId>>> versionsByParent;
        const RuleInfo& versionRule = *findRule("version-prefixes");
        const RuleInfo& synonymRule = *findRule("synonym-siblings");
        const bool checkSynonyms = m_profile.isEnabled(synonymRule);
        const SynonymIndex synonymIndex(m_profile);
        // (scope, group) -> the group's words used there, with their keys.
        std::unordered_map<SynonymScope, std::vector<std::pair<const QByteArray*, std::uint64_t>>, SynonymScopeHash>
            synonyms;
        std::vector<NodeId> synonymNodes; // node ids only: they may be a good share of the keyspace
        // Few segments are versions or synonyms: each distinct one is asked once, and a node's bytes are read only
        // when its segment may be one.
        const std::vector<bool> mayMatter = markSegments(m_store, [&](QByteArrayView segment) {
            return versionOf(segment) || (checkSynonyms && synonymIndex.groupOf(segment));
        });
        for (NodeId node = 1; node < m_store.nodeCount(); ++node) {
            if (!mayMatter[m_store.segmentId(node)])
                continue;
            const QByteArrayView segment = m_store.segment(node);
            if (m_store.hasChildren(node)) {
                if (const std::optional<int> version = versionOf(segment))
                    versionsByParent[m_store.parent(node)].emplace_back(*version, node);
            }
            if (!checkSynonyms)
                continue;
            if (const auto match = synonymIndex.groupOf(segment)) {
                auto& words = synonyms[{synonymScope(node), match->group}];
                auto it = std::find_if(words.begin(), words.end(),
                                       [&](const auto& used) { return used.first == match->word; });
                if (it == words.end())
                    it = words.insert(words.end(), {match->word, 0});
                it->second += weightOf(m_store, node);
                synonymNodes.push_back(node);
            }
        }
        for (auto& [parent, versions] : versionsByParent) {
            if (versions.size() < 2)
                continue;
            std::sort(versions.begin(), versions.end());
            const QByteArray newest = m_store.segment(versions.back().second).toByteArray();
            for (std::size_t i = 0; i + 1 < versions.size(); ++i)
                flag(versions[i].second, versionRule,
                     m_store.segment(versions[i].second).toByteArray() + " beside " + newest);
        }
        QHash<std::pair<const QByteArray*, const QByteArray*>, QByteArray> details; // built once per pair of words
        for (const NodeId node : synonymNodes) {
            const SynonymIndex::Match match = *synonymIndex.groupOf(m_store.segment(node));
            const auto& words = synonyms[{synonymScope(node), match.group}];
            if (words.size() < 2)
                continue;
            const auto mostUsed = std::max_element(words.begin(), words.end(), [](const auto& a, const auto& b) {
                return a.second < b.second || (a.second == b.second && *a.first > *b.first);
            });
            if (mostUsed->first == match.word)
                continue;
            QByteArray& detail = details[{match.word, mostUsed->first}];
            if (detail.isEmpty())
                detail = *match.word + " beside " + *mostUsed->first;
            flag(node, synonymRule, detail);
        }
    }

    // The patterns for naming-variants, and the role evidence's facts gathered as they are built.
    void buildPatterns()
    {
        if (m_profile.isEnabled(*findRule("missing-ttl"))) {
            RoleEvidence& evidence = m_evidence.emplace(m_store);
            m_patterns.emplace(
                m_store, NamespaceRules::MaximumPatterns, m_shapes,
                [&evidence](NodeId key, PatternIndex::PatternId pattern) { evidence.addKey(key, pattern); });
        } else if (m_profile.isEnabled(*findRule("naming-variants"))) {
            m_patterns.emplace(m_store, NamespaceRules::MaximumPatterns, m_shapes);
        }
    }

    // naming-variants: the patterns with the same words, grouped; the keys of every pattern but the
    // canonical one.
    void namingVariants()
    {
        if (!m_patterns || !m_profile.isEnabled(*findRule("naming-variants")))
            return;
        if (m_patterns->isCapped())
            m_notices.push_back(QStringLiteral("naming-variants compared the first %1 distinct key patterns only")
                                    .arg(QString::fromUtf8(keyspace::formatCount(NamespaceRules::MaximumPatterns))));
        for (const std::vector<PatternIndex::PatternId>& group : variantGroups(*m_patterns, m_delimiter)) {
            struct Spelled
            {
                PatternIndex::PatternId id;
                QByteArray text;
                std::uint32_t keys;
            };
            std::vector<Spelled> spellings;
            for (const PatternIndex::PatternId id : group)
                spellings.push_back({id, m_patterns->text(id), m_patterns->keys(id)});
            std::sort(spellings.begin(), spellings.end(), [](const Spelled& a, const Spelled& b) {
                return a.keys > b.keys || (a.keys == b.keys && a.text < b.text);
            });
            const auto conventional = std::find_if(spellings.begin(), spellings.end(), [&](const Spelled& spelled) {
                return isConventionalSpelling(spelled.text, m_delimiter);
            });
            const QByteArray canonical = conventional != spellings.end()
                                             ? conventional->text
                                             : conventionalSpelling(spellings.front().text, m_delimiter);
            QByteArray listed;
            for (std::size_t i = 0; i < spellings.size() && i < 4; ++i)
                listed += (i ? ", " : "") + spellings[i].text + " (" + keyspace::formatCount(spellings[i].keys) + ')';
            if (spellings.size() > 4)
                listed += ", …";
            for (const Spelled& spelled : spellings) {
                if (spelled.text == canonical)
                    continue;
                m_variantDetail.insert(spelled.id, namingVariantDetail(canonical, listed));
                m_variantParents.insert(m_patterns->parentOf(spelled.id));
            }
        }
        if (m_variantDetail.isEmpty())
            return;
        // Only the keys of a namespace that spells like a variant's are spelled again.
        const RuleInfo& rule = *findRule("naming-variants");
        for (NodeId node = 0; node < m_store.nodeCount(); ++node) {
            if (!m_store.hasChildren(node) || !m_variantParents.contains(m_patterns->patternOfNamespace(node)))
                continue;
            m_store.forEachChild(node, [&](NodeId key) {
                if (!m_store.isKey(key))
                    return;
                if (const auto it = m_variantDetail.constFind(m_patterns->patternOfKey(key));
                    it != m_variantDetail.cend())
                    m_record(key, rule, rule.severity, *it, {});
            });
        }
    }

    // What keys are for, from their own evidence: may read a few values of the server's (RoleEvidence.h).
    void judgeRoles(const ValueSource& values)
    {
        if (!m_evidence || !m_patterns)
            return;
        m_evidence->judge(*m_patterns, values);
        m_notices.insert(m_notices.end(), m_evidence->notices().begin(), m_evidence->notices().end());
    }

    // The subtrees flagged whole (environments, old versions, synonyms), and stray persistent keys.
    void recordGathered()
    {
        for (const Flag& flagged : m_flags)
            recordSubtree(flagged.node, *flagged.rule, flagged.detail);
        m_flags.clear();
        const RuleInfo& missingTtl = *findRule("missing-ttl");
        NodeId parent = keyspace::InvalidNode;
        QByteArrayList evidence;
        for (const NodeId node : m_strayPersistent) {
            // A queue's keys live as long as their jobs, however many of the keys beside them expire.
            if (m_evidence && m_patterns && m_evidence->isQueueLike(m_patterns->patternOfKey(node)))
                continue;
            if (m_store.parent(node) != parent) { // in node order: siblings mostly together, their sums asked once
                parent = m_store.parent(node);
                const keyspace::NamespaceStats siblings = m_store.stats(parent);
                evidence = {"ttl-contrast: " + keyspace::formatCount(siblings.keysWithTtl) + " of " +
                            keyspace::formatCount(siblings.keysTtlKnown()) + " keys beside it expire"};
            }
            m_record(node, missingTtl, missingTtl.severity, "most keys beside it expire", evidence);
        }
        m_strayPersistent.clear();
        if (m_evidence && m_patterns)
            m_evidence->record(*m_patterns, m_record);
        coldData();
    }

    // cold-data: every cold key; a warning where its namespace holds much memory cold, both in share and in size.
    void coldData()
    {
        const RuleInfo& rule = *findRule("cold-data");
        const QByteArray idle = keyspace::formatDuration(m_store.coldAfterSeconds() * 1000);
        NodeId parent = keyspace::InvalidNode;
        Severity severity = rule.severity;
        QByteArray detail;
        for (const NodeId node : m_coldKeys) {
            if (m_store.parent(node) != parent) { // the keys come in node order: siblings mostly together
                parent = m_store.parent(node);
                const keyspace::NamespaceStats stats = m_store.stats(parent);
                const double share = stats.coldShare().value_or(0.0);
                const bool heavy =
                    share >= m_profile.coldDataShare && stats.coldMemoryBytes >= m_profile.coldDataMinimumBytes;
                severity = heavy ? std::max(Severity::Warning, rule.severity) : rule.severity;
                detail = "nothing has read these keys in " + idle + ": expire or delete them";
                if (stats.memoryBytes > 0)
                    detail += " (" + keyspace::formatBytes(stats.coldMemoryBytes) + " cold beside them, " +
                              keyspace::formatPercent(share) + " of their namespace's memory)";
            }
            m_record(node, rule, severity, detail, {});
        }
        m_coldKeys.clear();
    }

    // One pass over the keys: stray persistent keys found, expiry windows voted on and data-in-key groups
    // gathered, for the verdicts after it.
    void keys()
    {
        const bool checkStray = m_profile.isEnabled(*findRule("missing-ttl"));
        // A window holding more than `share` of the keys has a bucket holding more than share / 2.
        const std::size_t voteCounters = std::clamp<std::size_t>(std::size_t(2.0 / m_profile.avalancheShare), 1, 40);
        const bool checkAvalanche = m_profile.isEnabled(*findRule("expiry-avalanche"));
        const bool checkDataInKey = m_profile.isEnabled(*findRule("data-in-key"));
        const bool checkCold = m_profile.isEnabled(*findRule("cold-data")) && m_store.coldAfterSeconds() > 0;
        // A small namespace adds its children up when asked for its stats: asked once per namespace, not once per key.
        std::vector<SiblingTtls> siblingTtls(checkStray || checkAvalanche ? m_store.namespaceCount() : 0);
        const auto ttlsOf = [&](NodeId parent) -> const SiblingTtls& {
            SiblingTtls& ttls = siblingTtls[m_store.namespaceIndex(parent)];
            if (!ttls.asked) {
                const keyspace::NamespaceStats stats = m_store.stats(parent);
                ttls = {stats.keysTtlKnown(), stats.keysWithTtl, true};
            }
            return ttls;
        };
        const bool someIgnored = m_store.anyLintIgnored();
        for (NodeId node = 1; node < m_store.nodeCount(); ++node) {
            if (!m_store.isKey(node) || (someIgnored && m_store.isLintIgnored(node)))
                continue;
            // The expiry alone: the whole KeyInfo is four arrays' cache misses per key, a third of this pass.
            const std::int64_t expiresAtMs = m_store.expiresAtMs(node);
            const NodeId parent = m_store.parent(node);
            if (checkStray && parent != Keyspace::root() && expiresAtMs == keyspace::NoExpiry &&
                isStrayPersistent({.expiresAtMs = expiresAtMs}, ttlsOf(parent).known, ttlsOf(parent).withTtl))
                m_strayPersistent.push_back(node);
            if (checkCold && m_store.isCold(node))
                m_coldKeys.push_back(node);
            if (checkAvalanche && keyspace::hasExpiry(expiresAtMs) && parent != Keyspace::root() &&
                ttlsOf(parent).withTtl >= m_profile.avalancheMinimumKeys)
                m_votes[parent].add(expiresAtMs / m_bucketMs, voteCounters);
            if (checkDataInKey) {
                if (const auto group = dataInKeyGroupOf(node)) {
                    DataInKeyGroup& entry = m_dataInKey[*group];
                    ++entry.keys;
                    // Only while the group may still be reported: one with too many values never is.
                    if (entry.values.size() <= m_profile.dataInKeyMaximumValues) {
                        const QByteArrayView value = m_store.segment(node);
                        if (std::find(entry.values.begin(), entry.values.end(), value) == entry.values.end())
                            entry.values.push_back(value.toByteArray());
                        if (entry.values.size() <= m_profile.dataInKeyMaximumValues)
                            entry.nodes.push_back(node);
                        else
                            entry.nodes = {};
                    }
                }
            }
        }
    }

    // expiry-avalanche: the voted windows counted exactly, namespace by namespace; the first key in the
    // fullest window of a namespace where it holds more than the profile's share.
    void avalanches()
    {
        const RuleInfo& avalanche = *findRule("expiry-avalanche");
        for (auto vote = m_votes.cbegin(); vote != m_votes.cend(); ++vote) {
            const NodeId parent = vote.key();
            // The heavy buckets, each with the one before it and with the one after it.
            std::vector<std::pair<std::int64_t, std::uint64_t>> candidates; // (first bucket of a window, keys)
            for (const auto& [bucket, count] : vote->counters) {
                for (const std::int64_t start : {bucket - 1, bucket}) {
                    if (std::none_of(candidates.begin(), candidates.end(),
                                     [&](const auto& candidate) { return candidate.first == start; }))
                        candidates.emplace_back(start, 0);
                }
            }
            m_store.forEachChild(parent, [&](NodeId node) {
                if (!m_store.isKey(node) || m_store.isLintIgnored(node))
                    return;
                const std::int64_t expiresAt = m_store.expiresAtMs(node);
                if (keyspace::hasExpiry(expiresAt)) {
                    for (auto& [window, count] : candidates)
                        count += inWindow(expiresAt / m_bucketMs, window) ? 1 : 0;
                }
            });
            const auto best = std::max_element(candidates.begin(), candidates.end(),
                                               [](const auto& a, const auto& b) { return a.second < b.second; });
            const std::uint64_t withTtl = m_store.stats(parent).keysWithTtl;
            if (best == candidates.end() || double(best->second) <= m_profile.avalancheShare * double(withTtl))
                continue;
            // One finding for the namespace, on its first key in the window: the burst is one thing to fix (jitter
            // where they are written), and a finding per key made a namespace of one library's sessions a thousand.
            const std::int64_t window = best->first;
            NodeId first = keyspace::InvalidNode;
            std::uint64_t memoryBytes = 0;
            m_store.forEachChild(parent, [&](NodeId node) {
                if (!m_store.isKey(node) || m_store.isLintIgnored(node))
                    return;
                const std::int64_t expiresAt = m_store.expiresAtMs(node);
                if (keyspace::hasExpiry(expiresAt) && inWindow(expiresAt / m_bucketMs, window)) {
                    first = std::min(first, node);
                    memoryBytes += m_store.keyInfo(node).memoryBytes;
                }
            });
            const QDateTime when = QDateTime::fromMSecsSinceEpoch(window * m_bucketMs, Qt::UTC);
            QByteArray detail = keyspace::formatCount(best->second) + " of " + keyspace::formatCount(withTtl) +
                                " keys of " + m_store.namespacePrefix(parent) + "…";
            if (memoryBytes > 0)
                detail += " (" + keyspace::formatBytes(memoryBytes) + ")";
            detail += " expire in the " + QByteArray::number(m_profile.avalancheWindowSeconds) + " s from " +
                      when.toString(Qt::ISODate).toUtf8();
            m_record(first, avalanche, avalanche.severity, detail, {});
        }
        m_votes.clear();
    }

    // data-in-key: the groups with enough keys and few enough distinct values; each of their keys.
    void dataInKey()
    {
        const RuleInfo& rule = *findRule("data-in-key");
        for (const auto& [key, entry] : m_dataInKey) {
            if (entry.keys < m_profile.dataInKeyMinimumKeys || entry.values.size() < 2 ||
                entry.values.size() > m_profile.dataInKeyMaximumValues)
                continue;
            // Named, not bound: clang 14 cannot capture a structured binding in a lambda.
            const std::pair<NodeId, QByteArray>& group = key;
            const QByteArray attribute = group.second.sliced(group.second.indexOf('\0') + 1);
            QByteArray values;
            for (const QByteArray& value : entry.values)
                values += (values.isEmpty() ? "" : ", ") + value;
            const QByteArray detail = attribute + " takes " + values;
            for (const NodeId node : entry.nodes)
                m_record(node, rule, rule.severity, detail, {});
        }
    }

private:
    struct SynonymScope
    {
        std::uint64_t scope;
        std::size_t group;
        bool operator==(const SynonymScope&) const = default;
    };
    struct SynonymScopeHash
    {
        std::size_t operator()(const SynonymScope& scope) const { return qHash(scope.scope, scope.group); }
    };

    // A node whose whole subtree breaks a rule: an environment, an old version, a synonym.
    struct Flag
    {
        NodeId node;
        const RuleInfo* rule;
        QByteArray detail; // shared by the nodes flagged for one reason
    };
    void flag(NodeId node, const RuleInfo& rule, const QByteArray& detail)
    {
        if (m_profile.isEnabled(rule))
            m_flags.push_back({node, &rule, detail});
    }

    // Records a finding on every key of the node's subtree (the node included), without recursion.
    void recordSubtree(NodeId node, const RuleInfo& rule, const QByteArray& detail)
    {
        m_stack.assign(1, node);
        while (!m_stack.empty()) {
            const NodeId at = m_stack.back();
            m_stack.pop_back();
            if (m_store.isKey(at))
                m_record(at, rule, rule.severity, detail, {});
            m_store.forEachChild(at, [&](NodeId child) { m_stack.push_back(child); });
        }
    }

    // Synonyms are compared among siblings, a namespace below an id level standing for all its ids.
    std::uint64_t synonymScope(NodeId node) const
    {
        const NodeId parent = m_store.parent(node);
        return isIdSegment(m_shapes, m_store, parent) ? (std::uint64_t(m_store.parent(parent)) << 1 | 1)
                                                      : std::uint64_t(parent) << 1;
    }

    // A key of the `<id>:attribute:value` form whose id holds only it: its group (the namespace above the
    // ids, the attribute), or nothing.
    std::optional<std::pair<NodeId, QByteArray>> dataInKeyGroupOf(NodeId key) const
    {
        const NodeId attribute = m_store.parent(key);
        if (m_store.hasChildren(key) || attribute == Keyspace::root() || m_store.isKey(attribute) ||
            m_store.nextSibling(m_store.firstChild(attribute)) != keyspace::InvalidNode ||
            isId(shapeOfNode(m_shapes, m_store, key)) || isIdSegment(m_shapes, m_store, attribute))
            return std::nullopt;
        const NodeId id = m_store.parent(attribute);
        if (!isIdSegment(m_shapes, m_store, id))
            return std::nullopt;
        // `page=2&limit=20&sort=asc`: the parameters a cache key carries name a variant of what it caches; they are
        // no value kept in the name.
        if (m_store.segment(key).contains('='))
            return std::nullopt;
        // Judged on the pattern, not one namespace: the word above the scope may vary, so that
        // `feature:<name>:user:<id>:enabled:<true|false>` is one group over every feature name. The group is the
        // scope's grandparent, the scope's own name and the attribute.
        const NodeId scope = m_store.parent(id);
        NodeId above = scope;
        for (int up = 0; up < 2 && above != Keyspace::root(); ++up)
            above = m_store.parent(above);
        return std::pair(above, m_store.segment(scope).toByteArray() + '\0' + m_store.segment(attribute).toByteArray());
    }

    const Keyspace& m_store;
    const SegmentShapes* m_shapes; // or none: each segment is classified when asked
    const Profile& m_profile;
    const NamespaceRules::Record& m_record;
    std::vector<QString>& m_notices;
    const char m_delimiter;
    // Expiry times go into buckets of half the profile's window (see inWindow).
    const std::int64_t m_bucketMs;
    std::vector<NodeId> m_stack; // recordSubtree's, kept to reuse its capacity

    std::vector<Flag> m_flags;
    std::vector<NodeId> m_strayPersistent;
    std::vector<NodeId> m_coldKeys; // in node order

    std::optional<PatternIndex> m_patterns;
    std::optional<RoleEvidence> m_evidence;                     // with missing-ttl
    QHash<PatternIndex::PatternId, QByteArray> m_variantDetail; // pattern -> message
    QSet<PatternIndex::PatternId> m_variantParents;             // the patterns of the variants' namespaces
    QHash<NodeId, ExpiryVote> m_votes;                          // by namespace
    std::map<std::pair<NodeId, QByteArray>, DataInKeyGroup> m_dataInKey;
};

} // namespace

NamespaceRules::NamespaceRules(const Profile& profile, ValueSource values)
    : m_profile(profile)
    , m_values(std::move(values))
{}

void NamespaceRules::run(const Keyspace& store, const Record& record, const std::function<void()>& beforeRecording,
                         const SegmentShapes* shapes)
{
    Pass pass(store, shapes, m_profile, record, m_notices);
    // The patterns and the other gathering passes only read the store, and each writes its own members: side by side
    // they take the time of the longest (the scan is over, so the second core has nothing else to do). Three, not
    // two: the keys' pass alone was a third of the time after a million-key scan, with a core idle.
    base::SideTask patterns([&pass] { pass.buildPatterns(); });
    pass.environments(); // flags first, as the versions and synonyms do after it
    base::SideTask versionsAndSynonyms([&pass] { pass.versionsAndSynonyms(); });
    pass.keys();
    versionsAndSynonyms.wait();
    patterns.wait();
    pass.judgeRoles(m_values);
    if (beforeRecording)
        beforeRecording();
    pass.recordGathered();
    pass.namingVariants();
    pass.avalanches();
    pass.dataInKey();
}

} // namespace keylens::lint
