#include "lint/RoleEvidence.h"

#include "keyspace/Units.h"
#include "lint/RoleWords.h"
#include "lint/SegmentUnits.h"

#include <QSet>

#include <algorithm>

namespace keylens::lint {

using keyspace::Keyspace;
using keyspace::KeyType;
using keyspace::NodeId;

namespace {

// Nearly all: a pattern or family whose keys expire but for a stray few.
bool nearlyAll(std::uint64_t part, std::uint64_t whole)
{
    return whole >= 10 && part * 10 >= whole * 9;
}

// The roles whose keys should expire when their own evidence says so. A rate limit's counter without a TTL never
// starts a new window; the catalogue's rate limiters are told apart by their layout instead.
bool expiresByEvidence(LibraryRole role)
{
    return shouldExpire(role) || role == LibraryRole::RateLimit;
}

// What an index of keys that expire holds without a TTL of its own (RoleEvidence::judgeIndex); fixOf() says what to do.
constexpr const char* IndexDetail =
    "an index of keys that expire, kept without a TTL: it outlives the keys it names, and the "
    "names of those gone pile up in it";

// "1,200 of 1,800 keys in this pattern expire"
QByteArray ttlContrast(std::uint64_t withTtl, std::uint64_t known, const char* where)
{
    return "ttl-contrast: " + keyspace::formatCount(withTtl) + " of " + keyspace::formatCount(known) + " keys " +
           where + " expire";
}

// The kind most of the values read share, if one does: two thirds of them, or the only one read.
std::optional<ValueKind> agreedKind(const std::vector<ValueKind>& kinds)
{
    for (const ValueKind& candidate : kinds) {
        const auto same = std::count_if(kinds.begin(), kinds.end(), [&](const ValueKind& kind) {
            return kind.shape == candidate.shape && kind.signature == candidate.signature;
        });
        if (std::size_t(same) * 3 >= kinds.size() * 2)
            return candidate;
    }
    return std::nullopt;
}

// A kind of value specific enough that two patterns holding it hold the same thing: a serialization, or JSON objects
// with the same first field. A random token or a number is anybody's.
bool isTelling(const ValueKind& kind)
{
    return (kind.shape == ValueShape::Serialized || kind.shape == ValueShape::Json ||
            kind.shape == ValueShape::ExpiryJson) &&
           kind.signature.size() > 5;
}

// A family's name: the first level's words up to its first id (`shopfront-cache-<hex>` is `shopfront-cache`,
// `shop_catalogue` itself), or the whole level when it starts with one.
QByteArray familyName(const QByteArray& firstLevel)
{
    qsizetype end = firstLevel.indexOf('<');
    if (end < 0)
        return firstLevel;
    while (end > 0 && isInnerDelimiter(firstLevel[end - 1]))
        --end;
    return end == 0 ? firstLevel : firstLevel.first(end);
}

} // namespace

RoleEvidence::RoleEvidence(const Keyspace& store)
    : m_store(store)
    , m_accessMeasured(store.coldAfterSeconds() > 0)
{}

void RoleEvidence::addKey(NodeId key, PatternId pattern)
{
    if (pattern >= m_facts.size())
        m_facts.resize(std::max<std::size_t>(pattern + 1, m_facts.size() * 3 / 2));
    Facts& facts = m_facts[pattern];
    ++facts.keys;
    if (facts.firstKey == keyspace::InvalidNode)
        facts.firstKey = key;
    const std::int64_t expiresAt = m_store.expiresAtMs(key);
    const bool known = expiresAt != keyspace::ExpiryUnknown;
    const bool persistent = expiresAt == keyspace::NoExpiry;
    facts.ttlKnown += known ? 1 : 0;
    facts.withTtl += known && !persistent ? 1 : 0;
    const KeyType type = m_store.keyType(key);
    if (type == KeyType::String) {
        ++facts.strings;
        if (persistent && facts.persistentSampled < facts.persistent.size())
            facts.persistent[facts.persistentSampled++] = key;
        else if (known && !persistent && facts.expiring == keyspace::InvalidNode)
            facts.expiring = key;
    } else if (type == KeyType::Hash) {
        ++facts.hashes;
    } else if (type == KeyType::List || type == KeyType::ZSet || type == KeyType::Stream) {
        ++facts.queueTypes;
    }
    if (type == KeyType::Set || type == KeyType::ZSet || type == KeyType::List) {
        ++facts.collections;
        // An index of other keys is kept without a TTL (what would be flagged). A list's elements are read whole:
        // only a small one's.
        if (persistent && facts.indexSampled < facts.indexes.size() &&
            (type != KeyType::List ||
             (m_store.keyInfo(key).memoryMeasured && m_store.keyInfo(key).memoryBytes <= LargestSampledList)))
            facts.indexes[facts.indexSampled++] = key;
    }
    if (m_accessMeasured) {
        const keyspace::KeyAccess access = m_store.access(key);
        if (access.hasIdleTime()) {
            const bool cold = m_store.isCold(key);
            ++facts.accessKnown;
            facts.cold += cold ? 1 : 0;
            facts.persistentAccessKnown += persistent ? 1 : 0;
            facts.coldPersistent += persistent && cold ? 1 : 0;
        }
    }
}

void RoleEvidence::findFamilies(const PatternIndex& patterns)
{
    // A pattern's family is its first level's: patterns come after their parents, so one pass in id order finds it.
    m_family.assign(patterns.patternCount(), 0);
    QHash<QByteArray, std::uint32_t> names;
    for (PatternId pattern = 1; pattern < patterns.patternCount(); ++pattern) {
        const PatternId parent = patterns.parentOf(pattern);
        if (parent != 0) {
            m_family[pattern] = m_family[parent];
            continue;
        }
        const QByteArray name = familyName(patterns.text(pattern));
        const auto known = names.constFind(name);
        m_family[pattern] = known != names.cend() ? *known : *names.insert(name, std::uint32_t(names.size()));
    }
    m_familyKnown.assign(names.size() + 1, 0);
    m_familyTtl.assign(names.size() + 1, 0);
    m_familyExpiringKinds.assign(names.size() + 1, {});
    for (PatternId pattern = 1; pattern < std::min(m_facts.size(), m_family.size()); ++pattern) {
        m_familyKnown[m_family[pattern]] += m_facts[pattern].ttlKnown;
        m_familyTtl[m_family[pattern]] += m_facts[pattern].withTtl;
    }
}

void RoleEvidence::countNamed(PatternId pattern, const QByteArrayList& members)
{
    // Each member's name looked up in the scanned store, which knows its TTL: nothing is asked of the server.
    Named& named = m_named[pattern];
    for (const QByteArray& member : members) {
        ++named.members;
        const NodeId node = member.size() < MemberBytes ? m_store.find(member) : keyspace::InvalidNode;
        const std::int64_t expiresAt =
            node != keyspace::InvalidNode && m_store.isKey(node) ? m_store.expiresAtMs(node) : keyspace::ExpiryUnknown;
        if (node == keyspace::InvalidNode || !m_store.isKey(node))
            ++named.nothing;
        else if (expiresAt == keyspace::NoExpiry)
            ++named.persistent;
        else if (expiresAt != keyspace::ExpiryUnknown)
            ++named.expiring;
    }
}

void RoleEvidence::readValues(PatternIndex& patterns, const ValueSource& source, const std::vector<PatternId>& wanted,
                              const std::vector<PatternId>& indexes)
{
    if (source.kept || source.keptMembers) {
        // An RDB file kept a few values of each kind of key as it was read: each goes to its key's pattern.
        const QSet<PatternId> asked(wanted.begin(), wanted.end());
        if (source.kept) {
            for (auto it = source.kept->cbegin(); it != source.kept->cend(); ++it) {
                const NodeId node = m_store.find(it.key());
                if (node == keyspace::InvalidNode || !m_store.isKey(node))
                    continue;
                const PatternId pattern = patterns.patternOfKey(node);
                if (!asked.contains(pattern))
                    continue;
                Sampled& sampled = m_sampled[pattern];
                std::vector<ValueKind>& kinds =
                    m_store.expiresAtMs(node) == keyspace::NoExpiry ? sampled.persistent : sampled.expiring;
                if (kinds.size() < SamplesPerPattern)
                    kinds.push_back(valueKindOf(it.value()));
            }
        }
        if (source.keptMembers) {
            // And the first members of a few collections without a TTL of each kind.
            const QSet<PatternId> askedIndexes(indexes.begin(), indexes.end());
            QHash<PatternId, std::uint32_t> keysRead;
            for (auto it = source.keptMembers->cbegin(); it != source.keptMembers->cend(); ++it) {
                const NodeId node = m_store.find(it.key());
                if (node == keyspace::InvalidNode || !m_store.isKey(node) ||
                    m_store.expiresAtMs(node) != keyspace::NoExpiry)
                    continue;
                const PatternId pattern = patterns.patternOfKey(node);
                if (!askedIndexes.contains(pattern) || keysRead[pattern] >= IndexSamplesPerPattern)
                    continue;
                ++keysRead[pattern];
                countNamed(pattern, it.value());
            }
        }
        return;
    }
    if (!source.read)
        return;
    ValueQuestion question;
    std::vector<std::pair<PatternId, bool>> owners; // parallel to the strings: the pattern, and whether the key expires
    for (const PatternId pattern : wanted) {
        const Facts& facts = m_facts[pattern];
        for (std::uint8_t i = 0; i < facts.persistentSampled; ++i) {
            question.strings.push_back(m_store.path(facts.persistent[i]));
            owners.emplace_back(pattern, false);
        }
        if (facts.expiring != keyspace::InvalidNode) {
            question.strings.push_back(m_store.path(facts.expiring));
            owners.emplace_back(pattern, true);
        }
    }
    std::vector<PatternId> indexOwners; // parallel to the collections
    for (const PatternId pattern : indexes) {
        const Facts& facts = m_facts[pattern];
        for (std::uint8_t i = 0; i < facts.indexSampled; ++i) {
            question.collections.emplace_back(m_store.path(facts.indexes[i]), m_store.keyType(facts.indexes[i]));
            indexOwners.push_back(pattern);
        }
    }
    if (question.isEmpty())
        return;
    const ValueRead read = source.read(question);
    if (!read.unread.isEmpty()) {
        // How much of the judgement went without: the patterns none of whose values came back.
        QSet<PatternId> withValues;
        for (std::size_t i = 0; i < question.strings.size(); ++i) {
            if (read.values.contains(question.strings[i]))
                withValues.insert(owners[i].first);
        }
        for (std::size_t i = 0; i < question.collections.size(); ++i) {
            if (read.members.contains(question.collections[i].first))
                withValues.insert(indexOwners[i]);
        }
        QSet<PatternId> asked(wanted.begin(), wanted.end());
        asked.unite(QSet<PatternId>(indexes.begin(), indexes.end()));
        const std::size_t without = std::size_t(asked.size()) - std::size_t(withValues.size());
        m_notices.push_back(QStringLiteral("Values of %1 of %2 kinds of keys were not read for the evidence of what "
                                           "keys are for: %3. Their TTLs, words and types judged them alone; a cache "
                                           "or session known only by its values, or an index known only by its "
                                           "members, is not flagged.")
                                .arg(QString::fromUtf8(keyspace::formatCount(without)),
                                     QString::fromUtf8(keyspace::formatCount(std::size_t(asked.size()))), read.unread));
    }
    for (std::size_t i = 0; i < question.strings.size(); ++i) {
        const auto value = read.values.constFind(question.strings[i]);
        if (value == read.values.cend())
            continue;
        Sampled& sampled = m_sampled[owners[i].first];
        (owners[i].second ? sampled.expiring : sampled.persistent).push_back(valueKindOf(*value));
    }
    for (std::size_t i = 0; i < question.collections.size(); ++i) {
        const auto members = read.members.constFind(question.collections[i].first);
        if (members != read.members.cend())
            countNamed(indexOwners[i], *members);
    }
}

bool RoleEvidence::queueStructure(const Facts& facts, const QByteArray& text, bool ownRoleWord) const
{
    // Jobs kept as hashes by id (`bull:emails:<int>`, `rq:job:<uuid>`) beside the lists, sorted sets or streams of
    // their queue's states: in their namespace, or (unless the pattern's own words say otherwise) one level up.
    if (facts.hashes * 2 < facts.keys || !text.endsWith('>') || facts.firstKey == keyspace::InvalidNode)
        return false;
    const auto holdsQueueTypes = [&](NodeId node) {
        const keyspace::NamespaceStats stats = m_store.stats(node);
        return stats.types[std::size_t(KeyType::List)] + stats.types[std::size_t(KeyType::ZSet)] +
                   stats.types[std::size_t(KeyType::Stream)] >
               0;
    };
    const NodeId space = m_store.parent(facts.firstKey);
    if (space == Keyspace::root())
        return false;
    if (holdsQueueTypes(space))
        return true;
    const NodeId above = m_store.parent(space);
    return !ownRoleWord && above != Keyspace::root() && holdsQueueTypes(above);
}

void RoleEvidence::judgePattern(PatternId pattern, const QByteArray& text)
{
    const Facts& facts = m_facts[pattern];
    // Words name a pattern's keys only where it has ids (`cache:<int>`): a single key's name (`tmp`,
    // `session_store_settings`) says what it is about, not that it is one of many that come and go.
    std::optional<RoleWord> word = text.contains('<') ? roleOfWords(text) : std::nullopt;
    const bool ownRole = word && word->role != LibraryRole::Queue;
    if ((word && word->role == LibraryRole::Queue) || queueStructure(facts, text, ownRole)) {
        m_queueLike[pattern] = 1;
        return;
    }
    QByteArrayList evidence;
    bool strong = false;
    int weak = 0;
    std::optional<LibraryRole> role;
    if (ownRole && expiresByEvidence(word->role)) {
        evidence << "word: " + word->word;
        strong = true;
        role = word->role;
    }
    const Sampled sampled = m_sampled.value(pattern);
    const std::optional<ValueKind> kind = agreedKind(sampled.persistent);
    if (kind && (kind->shape == ValueShape::Serialized || kind->shape == ValueShape::ExpiryJson)) {
        evidence << QByteArray("value: ") + kind->name;
        strong = true;
        role = role.value_or(LibraryRole::Cache);
    } else if (kind && kind->shape == ValueShape::RandomToken) {
        evidence << QByteArray("value: ") + kind->name;
        ++weak;
    }
    // Inside the pattern.
    const std::uint32_t withoutTtl = facts.ttlKnown - facts.withTtl;
    if (nearlyAll(facts.withTtl, facts.ttlKnown)) {
        strong = true;
        evidence << ttlContrast(facts.withTtl, facts.ttlKnown, "in this pattern");
    } else if (facts.withTtl * 2 > facts.ttlKnown) {
        ++weak;
        evidence << ttlContrast(facts.withTtl, facts.ttlKnown, "in this pattern");
    } else if (facts.withTtl > 0) {
        evidence << ttlContrast(facts.withTtl, facts.ttlKnown, "in this pattern"); // said, not counted
    }
    // Across the family: patterns of the same kind of value expire, this one never does.
    const std::uint32_t family = m_family[pattern];
    const std::uint64_t othersKnown = m_familyKnown[family] - facts.ttlKnown;
    const std::uint64_t othersTtl = m_familyTtl[family] - facts.withTtl;
    if (facts.withTtl == 0 && othersTtl > 0) {
        const QByteArray contrast = ttlContrast(othersTtl, othersKnown, "in the rest of this family");
        const std::uint64_t alike =
            kind && isTelling(*kind) ? m_familyExpiringKinds[family].value(kind->signature) : std::uint64_t(0);
        if (alike >= 10) {
            strong = true;
            evidence << contrast + ", " + keyspace::formatCount(alike) + " of them holding " + kind->name +
                            " values like these (" + kind->signature + ")";
        } else if (nearlyAll(othersTtl, othersKnown)) {
            ++weak;
            evidence << contrast;
        }
    }
    // Unread keys beside read ones.
    if (m_accessMeasured && facts.persistentAccessKnown > 0 &&
        facts.coldPersistent * 2 >= facts.persistentAccessKnown && facts.accessKnown > facts.cold) {
        ++weak;
        evidence << "access: " + keyspace::formatCount(facts.coldPersistent) + " of " +
                        keyspace::formatCount(facts.persistentAccessKnown) + " keys without a TTL unread for " +
                        keyspace::formatDuration(m_store.coldAfterSeconds() * 1000) + ", beside " +
                        keyspace::formatCount(facts.accessKnown - facts.cold) + " read since";
    }
    if (withoutTtl == 0 || (!strong && weak < 2))
        return;
    if (!role && kind && kind->shape == ValueShape::RandomToken)
        role = LibraryRole::Lock; // a random token in keys most of which expire: set NX with a TTL, as locks are
    const QByteArray detail =
        role ? QByteArray("a ") + roleName(*role) +
                   " key without a TTL, by its evidence: it stays until deleted or evicted"
             : QByteArray("keys like it expire, this one does not: it stays until deleted or evicted");
    m_verdicts.insert(pattern, {detail, evidence});
}

bool RoleEvidence::judgeIndex(PatternId pattern, const QByteArray& text)
{
    const auto found = m_named.constFind(pattern);
    if (found == m_named.cend())
        return false;
    // A queue's words say its keys live as long as their work: a registry of workers whose heartbeats expire is the
    // queue's to prune.
    if (const std::optional<RoleWord> word = roleOfWords(text); word && word->role == LibraryRole::Queue)
        return false;
    const Named& named = *found;
    if (named.expiring < IndexMinimumNames || named.persistent * 10 > named.expiring ||
        named.expiring * 4 < named.members)
        return false;
    QByteArray evidence = "index: " + keyspace::formatCount(named.expiring) + " of " +
                          keyspace::formatCount(named.members) + " sampled members name keys that expire";
    if (named.persistent > 0)
        evidence += ", " + keyspace::formatCount(named.persistent) + " a key without a TTL";
    if (named.nothing > 0)
        evidence +=
            ", " + keyspace::formatCount(named.nothing) + (named.nothing == 1 ? " names" : " name") + " no key (gone)";
    m_verdicts.insert(pattern, {QByteArray(IndexDetail), {evidence}});
    return true;
}

void RoleEvidence::judge(PatternIndex& patterns, const ValueSource& values)
{
    m_facts.resize(std::max(m_facts.size(), patterns.patternCount()));
    m_queueLike.assign(patterns.patternCount(), 0);
    findFamilies(patterns);
    // The patterns that may be flagged: keys without a TTL, mostly strings or hashes (what caches, sessions and locks
    // are kept in). A queue's own lists, sorted sets and streams are its structure.
    std::vector<PatternId> candidates;
    // And the patterns of collections without a TTL that may be an index of other keys: their members are read.
    std::vector<PatternId> indexes;
    for (PatternId pattern = 1; pattern < patterns.patternCount(); ++pattern) {
        const Facts& facts = m_facts[pattern];
        if (facts.keys == 0)
            continue;
        if (facts.indexSampled > 0 && facts.collections * 2 > facts.keys)
            indexes.push_back(pattern);
        if (facts.queueTypes * 2 > facts.keys)
            m_queueLike[pattern] = 1;
        else if (facts.ttlKnown > facts.withTtl && (facts.strings + facts.hashes) * 2 > facts.keys)
            candidates.push_back(pattern);
    }
    // Values are read for the candidates that hold strings and, where one never expires, for its family's patterns
    // that do: the kind of value they hold tells whether they are the same thing. The most keys first, to a cap.
    QSet<std::uint32_t> neverExpiring;
    std::vector<PatternId> wanted;
    for (const PatternId pattern : candidates) {
        if (m_facts[pattern].persistentSampled > 0)
            wanted.push_back(pattern);
        if (m_facts[pattern].withTtl == 0)
            neverExpiring.insert(m_family[pattern]);
    }
    for (PatternId pattern = 1; pattern < patterns.patternCount(); ++pattern) {
        const Facts& facts = m_facts[pattern];
        if (facts.expiring != keyspace::InvalidNode && nearlyAll(facts.withTtl, facts.ttlKnown) &&
            neverExpiring.contains(m_family[pattern]))
            wanted.push_back(pattern);
    }
    const auto mostKeysFirst = [&](PatternId a, PatternId b) {
        return m_facts[a].keys > m_facts[b].keys || (m_facts[a].keys == m_facts[b].keys && a < b);
    };
    std::sort(wanted.begin(), wanted.end(), mostKeysFirst);
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    std::sort(indexes.begin(), indexes.end(), mostKeysFirst);
    const std::size_t sampled = wanted.size() + indexes.size();
    if (sampled > MaximumSampledPatterns) {
        m_notices.push_back(QStringLiteral("Values were read for the evidence of what keys are for in the %1 patterns "
                                           "with the most keys, of %2.")
                                .arg(MaximumSampledPatterns)
                                .arg(sampled));
        // The strings' patterns first, as before; the collections' share what is left, at least a quarter.
        const std::size_t forIndexes = std::min(
            indexes.size(), std::max(MaximumSampledPatterns / 4,
                                     MaximumSampledPatterns - std::min(wanted.size(), MaximumSampledPatterns)));
        indexes.resize(forIndexes);
        wanted.resize(std::min(wanted.size(), MaximumSampledPatterns - forIndexes));
    }
    if (!values.isEmpty() && (!wanted.empty() || !indexes.empty()))
        readValues(patterns, values, wanted, indexes);
    for (const PatternId pattern : indexes) {
        if (judgeIndex(pattern, patterns.text(pattern)))
            m_queueLike[pattern] = 0; // a sorted set or list of names of keys that expire: an index, not a queue
    }
    for (PatternId pattern = 1; pattern < patterns.patternCount(); ++pattern) {
        const Facts& facts = m_facts[pattern];
        if (facts.keys == 0 || !nearlyAll(facts.withTtl, facts.ttlKnown))
            continue;
        if (const std::optional<ValueKind> kind = agreedKind(m_sampled.value(pattern).expiring);
            kind && isTelling(*kind))
            m_familyExpiringKinds[m_family[pattern]][kind->signature] += facts.withTtl;
    }
    for (const PatternId pattern : candidates)
        judgePattern(pattern, patterns.text(pattern));
}

bool RoleEvidence::isQueueLike(PatternId pattern) const
{
    return pattern < m_queueLike.size() && m_queueLike[pattern];
}

void RoleEvidence::record(PatternIndex& patterns, const Record& record) const
{
    if (m_verdicts.isEmpty())
        return;
    const RuleInfo& missingTtl = *findRule("missing-ttl");
    QSet<PatternId> parents;
    for (auto it = m_verdicts.cbegin(); it != m_verdicts.cend(); ++it)
        parents.insert(patterns.parentOf(it.key()));
    const bool someIgnored = m_store.anyLintIgnored();
    for (NodeId space = 0; space < m_store.nodeCount(); ++space) {
        if (!m_store.hasChildren(space) || !parents.contains(patterns.patternOfNamespace(space)))
            continue;
        m_store.forEachChild(space, [&](NodeId key) {
            if (!m_store.isKey(key) || m_store.expiresAtMs(key) != keyspace::NoExpiry ||
                (someIgnored && m_store.isLintIgnored(key)))
                return;
            if (const auto verdict = m_verdicts.constFind(patterns.patternOfKey(key)); verdict != m_verdicts.cend())
                record(key, missingTtl, missingTtl.severity, verdict->detail, verdict->evidence);
        });
    }
}

} // namespace keylens::lint
