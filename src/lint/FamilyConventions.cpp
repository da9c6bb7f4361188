#include "lint/FamilyConventions.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "lint/Characters.h"
#include "lint/FamilyWords.h"
#include "lint/KeyRules.h"
#include "lint/SegmentUnits.h"

#include <QHash>

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <unordered_map>

namespace keylens::lint {

namespace {

using keyspace::Keyspace;
using keyspace::NodeId;

// A family's first word and two more: `stats errors <int>` tells a library's two kinds of keys under one prefix
// apart; deeper, the words are a key's own.
constexpr qsizetype Depth = 3;

// The key-level naming rules that judge how a key is spelled, which a family may do its own way. Not those that say
// something of one key whatever its family does (placeholder-name, deep-nesting), nor the rules over
// several keys. An empty level is a slip in one key (`user::1`) but a library's notation in all of a family's
// (`rack::attack:…`, Django's `:1:` of an empty prefix).
constexpr std::array<const char*, 11> ConventionRuleIds = {
    "binary-key",   "key-length", "no-namespace",       "delimiter",        "uppercase",
    "id-first",     "mid-key-id", "special-characters", "timestamp-in-key", "cryptic-abbreviation",
    "empty-segment"};
constexpr std::size_t ConventionRules = ConventionRuleIds.size();

// The convention rules by slot, and each rule's slot.
struct Slots
{
    std::array<const RuleInfo*, ConventionRules> rule{};
    std::array<int, MaximumRules> slotOf{};
    std::uint32_t mask = 0;

    Slots()
    {
        slotOf.fill(-1);
        for (std::size_t slot = 0; slot < ConventionRules; ++slot) {
            rule[slot] = findRule(ConventionRuleIds[slot]);
            Q_ASSERT(rule[slot]);
            slotOf[ruleIndex(*rule[slot])] = int(slot);
            mask |= std::uint32_t(1) << ruleIndex(*rule[slot]);
        }
    }
};
const Slots& slots()
{
    static const Slots known;
    return known;
}

// The order of a key's words as its family reads them: its first word leads, the ids before it follow it (`123:order`
// is in the family `order`, beside `order:123`), then the rest. A key without a word is a family of its ids (a bare
// UUID). At most Depth words.
template<typename Words, typename IsId> std::vector<qsizetype> familyOrder(const Words& words, IsId&& isId)
{
    std::vector<qsizetype> order;
    qsizetype first = 0;
    while (first < qsizetype(words.size()) && isId(words[first]))
        ++first;
    if (first == qsizetype(words.size())) { // no word: its ids
        for (qsizetype i = 0; i < qsizetype(words.size()) && i < Depth; ++i)
            order.push_back(i);
        return order;
    }
    order.push_back(first);
    for (qsizetype i = 0; i < first && qsizetype(order.size()) < Depth; ++i)
        order.push_back(i);
    for (qsizetype i = first + 1; i < qsizetype(words.size()) && qsizetype(order.size()) < Depth; ++i)
        order.push_back(i);
    return order;
}

QByteArray joinedWords(const FamilyWords& words, const std::vector<qsizetype>& order, std::size_t count)
{
    QByteArray joined;
    for (std::size_t i = 0; i < count; ++i)
        joined += (i ? QByteArray(1, '\0') : QByteArray()) + words[order[i]].text;
    return joined;
}

// The severity a key's finding of a convention rule was recorded with: the one all its findings have, or else the
// one the rule gives it (KeyRules.h), as the profile has it.
Severity recordedSeverity(const Keyspace& store, NodeId node, const RuleInfo& rule, const Profile& profile)
{
    const std::array<std::uint32_t, 3> counts = store.findingsBySeverity(node);
    if (std::count(counts.begin(), counts.end(), 0u) == 2)
        return Severity(std::find_if(counts.begin(), counts.end(), [](std::uint32_t n) { return n > 0; }) -
                        counts.begin());
    const QByteArrayView id(rule.id);
    if (id == "key-length")
        return profile.severityOf(rule, keyLengthSeverity(store.pathLength(node), profile).value_or(rule.severity));
    if (id == "timestamp-in-key")
        return profile.severityOf(rule, timestampSeverity(store.expiresAtMs(node) != keyspace::NoExpiry));
    return profile.severityOf(rule);
}

} // namespace

// The families of one store, their keys and their keys' findings of the convention rules: a pass over the nodes to
// count them, and where a family folds a rule, a second one over the keys to fold their findings.
class FamilyConventions::Pass
{
public:
    Pass(const Keyspace& store, const Profile& profile, const SegmentShapes* shapes)
        : m_store(store)
        , m_profile(profile)
        , m_shapes(shapes)
    {
        m_nodes.push_back({}); // WordRoot
        m_nodes.push_back({}); // IdRoot
        m_nodes[IdRoot].wordless = true;
        m_idWord.fill(Unknown);
    }

    void count(const std::vector<NodeId>& skipped)
    {
        gather(skipped);
        total();
        m_anyFolds = decide();
    }

    FamilyFolding fold(const FoldedSink& folded)
    {
        FamilyFolding out = m_anyFolds ? emit(folded) : FamilyFolding{};
        if (m_capped)
            out.notices.push_back(
                QStringLiteral("More than %1 families of keys: the keys of the rest were judged one by one.")
                    .arg(FamilyConventions::MaximumFamilies));
        m_familyOfNamespace = {};
        m_skipped = {};
        return out;
    }

private:
    static constexpr std::uint32_t WordRoot = 0, IdRoot = 1; // below them: a key's first word; ids before any word
    static constexpr std::uint32_t Unknown = 0xffffffffu;
    // A namespace's family, by its index: two bytes for each (the families are at most MaximumFamilies).
    using FamilyIndex = std::uint16_t;
    static constexpr FamilyIndex Skipped = 0xffff;
    static_assert(FamilyConventions::MaximumFamilies <= Skipped);
    struct Family
    {
        std::uint32_t parent = 0;
        std::uint32_t word = 0;
        std::uint8_t depth = 0;
        bool wordless = false;
        std::uint16_t ownFolds = 0; // slots folded here
        std::uint16_t folds = 0;    // slots folded here or above
        std::uint32_t keys = 0;     // its own, then its subtree's
        std::array<std::uint32_t, ConventionRules> ruleKeys{};
    };
    // A folded (family, rule)'s keys, for its finding.
    struct Folded
    {
        std::uint64_t keys = 0;
        std::uint64_t memoryBytes = 0;
        std::uint64_t measured = 0;
        std::uint64_t nameBytes = 0;     // of all its keys: a name's length needs no MEMORY USAGE
        std::uint64_t measuredNames = 0; // of the measured keys, beside their memory
        std::uint64_t persistent = 0;
        std::uint64_t ttlUnknown = 0; // PTTL denied or failed: neither expiring nor not
        NodeId first = keyspace::InvalidNode;
        Severity worst = Severity::Info;
    };
    struct SegmentWords
    {
        keyspace::SegmentId segment = Unknown;
        std::array<std::uint32_t, 2 * Depth> words{};
        std::uint8_t count = 0;
    };
    struct Memo
    {
        std::uint64_t key = ~std::uint64_t(0);
        std::uint32_t child = 0;
    };
    static constexpr unsigned MemoBits = 8;

    std::uint32_t wordId(const QByteArray& text, bool id)
    {
        const auto known = m_wordIds.constFind(text);
        if (known != m_wordIds.cend())
            return *known;
        const auto word = std::uint32_t(m_words.size());
        m_words.push_back(text);
        m_wordIsId.push_back(id);
        m_wordIds.insert(text, word);
        return word;
    }

    // The family below `parent` that adds `word`; `parent` itself once the table is full.
    std::uint32_t child(std::uint32_t parent, std::uint32_t word)
    {
        const std::uint64_t key = std::uint64_t(parent) << 32 | word;
        // Most nodes ask what their neighbours asked (`user <int>` for every id, then `profile` below each): a small
        // memo before the table.
        Memo& memo = m_childMemo[(key * 0x9e3779b97f4a7c15u) >> (64 - MemoBits)];
        if (memo.key == key)
            return memo.child;
        if (const auto known = m_children.find(key); known != m_children.end()) {
            memo = {key, known->second};
            return known->second;
        }
        if (m_nodes.size() >= FamilyConventions::MaximumFamilies) {
            m_capped = true;
            return parent;
        }
        Family family;
        family.parent = parent;
        family.word = word;
        family.depth = std::uint8_t(m_nodes[parent].depth + 1);
        family.wordless = m_nodes[parent].wordless;
        const auto id = std::uint32_t(m_nodes.size());
        m_nodes.push_back(family);
        m_children.emplace(key, id);
        return id;
    }

    // The family a key is in once `word` follows what it has read as `at` (see familyOrder).
    std::uint32_t extend(std::uint32_t at, std::uint32_t word)
    {
        if (!m_nodes[at].wordless || m_wordIsId[word])
            return m_nodes[at].depth < Depth ? child(at, word) : at;
        // The first word: it leads, the ids read before it follow.
        std::vector<std::uint32_t> ids;
        for (std::uint32_t up = at; up != IdRoot && up != WordRoot; up = m_nodes[up].parent)
            ids.push_back(m_nodes[up].word);
        std::uint32_t family = child(WordRoot, word);
        for (auto id = ids.rbegin(); id != ids.rend() && m_nodes[family].depth < Depth; ++id)
            family = child(family, *id);
        return family;
    }

    const SegmentWords& wordsOf(NodeId node)
    {
        // Words repeat (`profile` under a million ids), names of their own do not: a small cache by segment, each
        // segment in one slot, a newcomer taking it over.
        const keyspace::SegmentId segment = m_store.segmentId(node);
        SegmentWords& slot = m_segmentWords[segment & (m_segmentWords.size() - 1)];
        if (slot.segment == segment)
            return slot;
        FamilyWords words;
        appendFamilyWords(m_store.segment(node), shapeOfNode(m_shapes, m_store, node), words, 2 * Depth);
        slot.segment = segment;
        slot.count = 0;
        for (const FamilyWord& word : words)
            slot.words[slot.count++] = wordId(word.text, word.id);
        return slot;
    }

    // The family a node is in, its parent's being `at`.
    std::uint32_t familyOf(NodeId node, std::uint32_t at)
    {
        if (!m_nodes[at].wordless && m_nodes[at].depth >= Depth)
            return at; // the family is told: the node's words need not be read
        const Shape shape = shapeOfNode(m_shapes, m_store, node);
        if (isId(shape) && shape != Shape::Token) { // a token may hold words (FamilyWords.h)
            std::uint32_t& word = m_idWord[std::size_t(shape)];
            if (word == Unknown)
                word = wordId(sharedPlaceholder(shape), true);
            return extend(at, word);
        }
        const SegmentWords& words = wordsOf(node);
        for (std::uint8_t i = 0; i < words.count; ++i)
            at = extend(at, words.words[i]);
        return at;
    }

    // Each key's family, in one pass over the nodes, parents before their children (a child is added after its parent):
    // each namespace's family kept by its index. The first pass tells them; the second reads them again, and only
    // keys' own segments are read (a cache holds the words that repeat).
    template<typename OnKey> void forEachKey(OnKey&& onKey)
    {
        const bool someIgnored = m_store.anyLintIgnored();
        for (NodeId node = 1; node < m_store.nodeCount(); ++node) {
            const FamilyIndex above = m_familyOfNamespace[m_store.namespaceIndex(m_store.parent(node))];
            const bool isKey = m_store.isKey(node);
            const bool isNamespace = m_store.hasChildren(node);
            if (above == Skipped || (!m_skipped.empty() && m_skipped[node]) || (!isKey && !isNamespace))
                continue; // its namespace's entry stays Skipped
            if (isNamespace && !m_namespacesKnown)
                m_familyOfNamespace[m_store.namespaceIndex(node)] = FamilyIndex(familyOf(node, above));
            if (!isKey || (someIgnored && m_store.isLintIgnored(node)))
                continue;
            const std::uint32_t bits = m_store.findingRules(node) & slots().mask;
            if (m_namespacesKnown && (bits == 0 || m_foldedAnywhere == 0))
                continue; // the second pass wants keys with a finding to fold
            const std::uint32_t family =
                isNamespace ? m_familyOfNamespace[m_store.namespaceIndex(node)] : familyOf(node, above);
            onKey(node, family, bits);
        }
        m_namespacesKnown = true;
    }

    void gather(const std::vector<NodeId>& skippedNodes)
    {
        if (!skippedNodes.empty()) {
            m_skipped.assign(m_store.nodeCount(), false);
            for (const NodeId node : skippedNodes)
                m_skipped[node] = true;
        }
        m_familyOfNamespace.assign(m_store.namespaceCount(), Skipped);
        if (!m_familyOfNamespace.empty())
            m_familyOfNamespace[m_store.namespaceIndex(Keyspace::root())] = IdRoot;
        forEachKey([&](NodeId, std::uint32_t family, std::uint32_t bits) {
            ++m_keys;
            Family& counted = m_nodes[family];
            ++counted.keys;
            if (bits == 0) {
                ++m_cleanKeys;
                return;
            }
            for (std::uint32_t rest = bits; rest != 0; rest &= rest - 1)
                ++counted.ruleKeys[std::size_t(slots().slotOf[std::size_t(std::countr_zero(rest))])];
        });
    }

    // Each family's counts made its subtree's (children come after their parents).
    void total()
    {
        for (std::size_t id = m_nodes.size() - 1; id > IdRoot; --id) {
            const std::uint32_t parent = m_nodes[id].parent;
            if (parent <= IdRoot)
                continue;
            m_nodes[parent].keys += m_nodes[id].keys;
            for (std::size_t slot = 0; slot < ConventionRules; ++slot)
                m_nodes[parent].ruleKeys[slot] += m_nodes[id].ruleKeys[slot];
        }
    }

    // A family folds a rule where nine keys in ten break it, unless a family above it folds it already. True when one
    // does.
    bool decide()
    {
        for (std::size_t id = IdRoot + 1; id < m_nodes.size(); ++id) {
            Family& family = m_nodes[id];
            const std::uint16_t above = family.parent > IdRoot ? m_nodes[family.parent].folds : 0;
            if (family.keys >= FamilyConventions::MinimumKeys) {
                for (std::size_t slot = 0; slot < ConventionRules; ++slot) {
                    const std::uint32_t breaking = family.ruleKeys[slot];
                    if (!(above >> slot & 1) && breaking > 0 &&
                        double(breaking) >= FamilyConventions::ConsistentShare * double(family.keys))
                        family.ownFolds |= std::uint16_t(1u << slot);
                }
            }
            family.folds = above | family.ownFolds;
            m_foldedAnywhere |= family.ownFolds;
        }
        return m_foldedAnywhere != 0;
    }

    FamilyFolding emit(const FoldedSink& sink)
    {
        FamilyFolding out;
        std::map<std::pair<std::uint32_t, std::size_t>, Folded> folded; // (family, slot): ordered, so is the output
        forEachKey([&](NodeId node, std::uint32_t family, std::uint32_t bits) {
            const std::uint16_t folds = m_nodes[family].folds;
            if (folds == 0)
                return;
            for (std::uint32_t rest = bits; rest != 0; rest &= rest - 1) {
                const auto index = std::size_t(std::countr_zero(rest));
                const auto slot = std::size_t(slots().slotOf[index]);
                if (!(folds >> slot & 1))
                    continue;
                std::uint32_t at = family;
                while (!(m_nodes[at].ownFolds >> slot & 1))
                    at = m_nodes[at].parent;
                const RuleInfo& rule = allRules()[index];
                const Severity severity = recordedSeverity(m_store, node, rule, m_profile);
                sink({node, std::uint8_t(index), std::uint8_t(severity)});
                Folded& sum = folded[{at, slot}];
                ++sum.keys;
                const keyspace::KeyInfo info = m_store.keyInfo(node);
                const std::uint64_t nameBytes = m_store.pathLength(node);
                sum.nameBytes += nameBytes;
                if (info.memoryMeasured) {
                    ++sum.measured;
                    sum.memoryBytes += info.memoryBytes;
                    sum.measuredNames += nameBytes;
                }
                sum.persistent += info.expiresAtMs == keyspace::NoExpiry ? 1 : 0;
                sum.ttlUnknown += info.expiresAtMs == keyspace::ExpiryUnknown ? 1 : 0;
                sum.first = std::min(sum.first, node);
                sum.worst = std::max(sum.worst, severity);
            }
        });
        // Most keys follow the profile: the application's own convention, which a family's habit breaks.
        const bool keyspaceHasConvention = m_keys > 0 && 2 * m_cleanKeys > m_keys;
        std::map<QByteArray, std::uint32_t> foldedWords;
        for (const auto& [at, sum] : folded) {
            const RuleInfo& rule = *slots().rule[at.second];
            const QByteArray key = m_store.path(sum.first);
            const FamilyWords words = familyWordsOfKey(key, m_store.delimiters(), 4 * Depth);
            const std::vector<qsizetype> order = familyOrder(words, [](const FamilyWord& word) { return word.id; });
            const std::size_t depth = std::min<std::size_t>(m_nodes[at.first].depth, order.size());
            bool costs = false;
            QByteArray detail = familyName(key, words, order, depth) + ": " + keysAndMemory(sum, at.first) +
                                " follow a convention of their own: " + habit(rule, key, sum, &costs);
            if (keyspaceHasConvention)
                detail += "; most keys of this keyspace follow the profile's";
            out.findings.push_back({sum.first,
                                    &rule,
                                    costs || keyspaceHasConvention ? sum.worst : Severity::Info,
                                    detail,
                                    sum.keys,
                                    {sum.memoryBytes, sum.keys, sum.keys - sum.measured}});
            foldedWords[joinedWords(words, order, depth)] |= std::uint32_t(1) << ruleIndex(rule);
        }
        out.foldedWords.assign(foldedWords.begin(), foldedWords.end());
        return out;
    }

    // The family as its first key spells it, ids as their placeholders: `PHPREDIS…`, `STATS.errors…`, `<uuid>`.
    static QByteArray familyName(const QByteArray& key, const FamilyWords& words, const std::vector<qsizetype>& order,
                                 std::size_t depth)
    {
        qsizetype end = 0;
        for (std::size_t i = 0; i < depth; ++i)
            end = std::max(end, words[order[i]].end);
        QByteArray name;
        qsizetype at = 0;
        for (const FamilyWord& word : words) {
            if (word.start >= end)
                break;
            if (!word.id)
                continue;
            name += keyspace::escapeLikeRedisCli(QByteArrayView(key).sliced(at, word.start - at)) + word.text;
            at = word.end;
        }
        name += keyspace::escapeLikeRedisCli(QByteArrayView(key).sliced(at, std::max(at, end) - at));
        return end < key.size() ? name + "…" : name;
    }

    QByteArray keysAndMemory(const Folded& sum, std::uint32_t family) const
    {
        const std::uint64_t all = m_nodes[family].keys;
        QByteArray text =
            sum.keys == all
                ? QByteArray("all " + keyspace::formatCount(all) + " keys")
                : QByteArray(keyspace::formatCount(sum.keys) + " of its " + keyspace::formatCount(all) + " keys");
        if (sum.measured > 0)
            text += " (" + keyspace::formatBytes(sum.memoryBytes) + ")";
        return text;
    }

    // What the family does, in a few words, and whether it costs.
    QByteArray habit(const RuleInfo& rule, const QByteArray& key, const Folded& sum, bool* costs) const
    {
        const QByteArrayView id(rule.id);
        if (id == "delimiter") {
            const char primary = m_store.delimiters().primary();
            const auto joiner =
                std::find_if(key.begin(), key.end(), [&](char c) { return isInnerDelimiter(c) && c != primary; });
            if (joiner == key.end())
                return "another delimiter than '" + QByteArray(1, primary) + "'";
            return "words joined by '" + QByteArray(1, *joiner) + "'";
        }
        if (id == "uppercase")
            return "words in upper case";
        if (id == "id-first")
            return "names that start with an id";
        if (id == "mid-key-id")
            return "ids in the middle of their names";
        if (id == "binary-key")
            return "bytes that are not text in their names";
        if (id == "cryptic-abbreviation")
            return "one- and two-letter words";
        if (id == "special-characters")
            return "characters that need quoting";
        if (id == "no-namespace")
            return "names without a namespace";
        if (id == "empty-segment")
            return "empty levels ('" + QByteArray(2, m_store.delimiters().primary()) + "') in their names";
        if (id == "timestamp-in-key") {
            *costs = 2 * sum.persistent >= sum.keys; // they pile up
            if (sum.ttlUnknown == sum.keys)
                return "times in their names (their TTLs were not measured)";
            QByteArray text =
                sum.persistent == 0 && sum.ttlUnknown == 0
                    ? QByteArray("times in their names, all of them expiring")
                    : "times in their names, " + keyspace::formatCount(sum.persistent) + " of them without a TTL";
            if (sum.ttlUnknown > 0)
                text += " (" + keyspace::formatCount(sum.ttlUnknown) + " not measured)";
            return text;
        }
        // key-length
        QByteArray text =
            "names of " + keyspace::formatCount(sum.keys ? sum.nameBytes / sum.keys : 0) + " bytes on average";
        if (sum.measured > 0 && sum.memoryBytes > 0) {
            const double share = double(sum.measuredNames) / double(sum.memoryBytes);
            *costs = share >= FamilyConventions::CostlyNameShare;
            text += ", " + keyspace::formatPercent(share) + " of their memory";
        }
        return text;
    }

    const Keyspace& m_store;
    const Profile& m_profile;
    const SegmentShapes* m_shapes;
    std::vector<Family> m_nodes;
    std::unordered_map<std::uint64_t, std::uint32_t> m_children; // parent << 32 | word -> family
    QHash<QByteArray, std::uint32_t> m_wordIds;
    std::vector<QByteArray> m_words;
    std::vector<bool> m_wordIsId;
    std::array<std::uint32_t, std::size_t(Shape::Count)> m_idWord; // an id shape's placeholder, as a word
    std::vector<SegmentWords> m_segmentWords = std::vector<SegmentWords>(1 << 12); // 128 KiB
    std::array<Memo, 1 << MemoBits> m_childMemo{};
    std::vector<FamilyIndex> m_familyOfNamespace;
    std::vector<bool> m_skipped; // by node, when any is
    bool m_namespacesKnown = false;
    std::uint16_t m_foldedAnywhere = 0; // slots some family folds
    std::uint64_t m_keys = 0;
    std::uint64_t m_cleanKeys = 0;
    bool m_capped = false;
    bool m_anyFolds = false;
};

std::uint32_t familyConventionRules()
{
    return slots().mask;
}

std::uint32_t FamilyFolding::foldedRules(QByteArrayView key, const keyspace::Delimiters& delimiters) const
{
    if (foldedWords.empty())
        return 0;
    const FamilyWords words = familyWordsOfKey(key, delimiters, 4 * Depth);
    const std::vector<qsizetype> order = familyOrder(words, [](const FamilyWord& word) { return word.id; });
    std::uint32_t rules = 0;
    for (std::size_t depth = 1; depth <= order.size(); ++depth) {
        const QByteArray joined = joinedWords(words, order, depth);
        const auto it = std::lower_bound(foldedWords.begin(), foldedWords.end(), joined,
                                         [](const auto& entry, const QByteArray& text) { return entry.first < text; });
        if (it != foldedWords.end() && it->first == joined)
            rules |= it->second;
    }
    return rules;
}

FamilyConventions::FamilyConventions(const keyspace::Keyspace& store, const Profile& profile,
                                     const std::vector<keyspace::NodeId>& skipped, const SegmentShapes* shapes)
    : m_pass(std::make_unique<Pass>(store, profile, shapes))
{
    m_pass->count(skipped);
}

FamilyConventions::~FamilyConventions() = default;

FamilyFolding FamilyConventions::fold(const FoldedSink& folded)
{
    return m_pass->fold(folded);
}

} // namespace keylens::lint
