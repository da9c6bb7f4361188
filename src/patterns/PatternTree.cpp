#include "patterns/PatternTree.h"

#include "lint/AddressGroups.h"
#include "lint/SegmentShape.h"
#include "lint/SegmentUnits.h"
#include "patterns/SplitAddresses.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace keylens::patterns {

namespace {

// A node's segment units, with the first group of an IPv6 address that the store's ':' split cut from the words
// before it: `LIMITER/fe80` goes on as `fe80::1c2:…` in the levels below, so `fe80` is a unit of its own (a number
// such as `2001` is one already).
lint::SegmentUnits unitsOf(const keyspace::Keyspace& store, keyspace::NodeId node)
{
    lint::SegmentUnits units = lint::segmentUnits(store.segment(node));
    const lint::SegmentUnit last = units.back();
    if (!store.delimiters().contains(':') || !last.folded.isNull() || !store.hasChildren(node))
        return units;
    const QByteArrayView group = lint::tailPiece(last.text);
    const qsizetype cut = last.text.size() - group.size();
    if (cut <= 1 || group.isEmpty() || !lint::isAddressGroup(group))
        return units;
    units.removeLast();
    units.append({last.text.first(cut - 1), {}, last.text[cut - 1]});
    units.append({group, {}, last.delimiterAfter});
    return units;
}

// One sibling as its parent's split sees it.
struct Level
{
    keyspace::NodeId node = 0;
    char joiner = 0;        // the delimiter before it: none inside a segment (below a partial level)
    QByteArrayView literal; // in the store's segment: a partial unit with the delimiter after it
    QByteArray folded;      // null for a word: words never collapse
    bool partial = false;
    bool address = false;       // the end of an IPv6 address split over levels: always a placeholder
    std::uint16_t nextUnit = 0; // a partial level's next unit
    QByteArray series;          // lint::numberedSeries of a word's literal, null for none
};

// Siblings that differ only in a number glued to one word (`user257_…`, `tenant77-…`, `more4x10001`) are a numbered
// series where at least this many share the word: more than any list of names with numbers (`v1`, `v2`, `sha1`,
// `sha256`, `h264`) a parent has.
constexpr std::size_t MinSeriesSiblings = 10;

// A word and raw bytes (`sess<binary>`): a digest's first bytes may be letters or inner delimiters, read as the
// word's (`sessq<binary>`, `sessX.b<binary>` beside it). Where a sibling's word is this one's cut short, and more
// siblings share it, that is the word: the one most siblings share wins.
void mergeBinaryStems(std::vector<Level>& levels)
{
    // A random byte is a letter or an inner delimiter one time in four: a run of twelve, once in sixteen million.
    constexpr std::size_t MaxDigestBytesRead = 12;
    const QByteArrayView binary = lint::placeholder(lint::Shape::Binary);
    const auto stemOf = [binary](const QByteArray& folded) {
        return folded.size() > binary.size() && folded.endsWith(binary)
                   ? std::string_view(folded.constData(), std::size_t(folded.size() - binary.size()))
                   : std::string_view();
    };
    std::unordered_map<std::string_view, std::size_t> stems; // views into the levels' labels, changed only below
    for (const Level& level : levels)
        if (const std::string_view stem = stemOf(level.folded); !stem.empty())
            ++stems[stem];
    if (stems.size() < 2)
        return;
    std::vector<std::pair<std::size_t, std::size_t>> cuts; // level, its word's length
    for (std::size_t i = 0; i < levels.size(); ++i) {
        const std::string_view stem = stemOf(levels[i].folded);
        if (stem.empty())
            continue;
        std::size_t best = 0, bestSiblings = stems[stem];
        for (std::size_t cut = stem.size() > MaxDigestBytesRead ? stem.size() - MaxDigestBytesRead : 1;
             cut < stem.size(); ++cut) {
            const auto shorter = stems.find(stem.substr(0, cut));
            if (shorter != stems.end() && shorter->second > bestSiblings) {
                best = cut;
                bestSiblings = shorter->second;
            }
        }
        if (best > 0)
            cuts.emplace_back(i, best);
    }
    for (const auto& [level, cut] : cuts)
        levels[level].folded = levels[level].folded.first(qsizetype(cut)).append(binary);
}

} // namespace

PatternTree::PatternTree(const keyspace::Keyspace& store, Options options)
    : m_store(&store)
    , m_options(options)
    , m_folded(store.nodeCount())
{
    m_patternOf.resize(store.nodeCount()); // Root: zero
    m_patterns.push_back({Root, {}, false, {keyspace::Keyspace::root()}, 0, {}, {}, {}});
    // Level by level: a pattern's children are known once all its members are.
    std::vector<PatternId> level{Root};
    std::vector<PatternId> next;
    while (!level.empty()) {
        next.clear();
        for (const PatternId pattern : level) {
            if (m_options.cancelled && m_options.cancelled->load(std::memory_order_relaxed))
                return;
            split(pattern, next);
        }
        level.swap(next);
    }
}

PatternTree::PatternTree(const keyspace::Keyspace& store, LiveTag)
    : m_store(&store)
    , m_live(true)
{
    m_patternOf.resize(1);
    m_patterns.push_back({Root, {}, false, {keyspace::Keyspace::root()}, 0, {}, {}, {}});
}

PatternTree PatternTree::folding(const keyspace::Keyspace& store)
{
    return PatternTree(store, LiveTag{});
}

void PatternTree::extend(std::size_t until)
{
    Q_ASSERT(m_live);
    m_patternOf.resize(until); // new nodes' patterns are Root (zero) until folded
    for (; m_folded < until; ++m_folded) {
        const auto node = keyspace::NodeId(m_folded);
        const PatternId parent = m_patternOf[m_store->parent(node)];
        // Live, a level is spelled as the other patterns spell it (lint::patternOf, the one notation): the siblings
        // that the exact tree weighs are not all known yet.
        const QByteArrayView segment = m_store->segment(node);
        const QByteArray spelled = lint::patternOf(segment);
        const bool placeholder = spelled != segment;
        const std::uint32_t label = m_labels.idOf(spelled);
        const std::uint64_t key = std::uint64_t(parent) << 32 | label;
        const char joiner = m_store->joiner(node);
        auto& byLabel = m_childByLabel[joiner];
        auto it = byLabel.find(key);
        if (it == byLabel.end()) {
            const auto child = PatternId(m_patterns.size());
            m_patterns.push_back({parent, m_labels.label(label), placeholder, {}, 0, {}, {}, {}, joiner});
            m_patterns[parent].children.push_back(child);
            it = byLabel.emplace(key, child).first;
        }
        Pattern& pattern = m_patterns[it->second];
        pattern.membersAhead.makeRoom(pattern.members, 1);
        pattern.members.push_back(node);
        m_patternOf[node] = it->second;
    }
}

std::optional<PatternTree::PatternId> PatternTree::find(QByteArrayView text) const
{
    const Prefix prefix = longestPrefix(text);
    if (prefix.length != text.size())
        return std::nullopt;
    return prefix.pattern;
}

PatternTree::Prefix PatternTree::longestPrefix(QByteArrayView text) const
{
    // Down from the root, each level's joiner and label a prefix of what is left: a partial level's label carries
    // its own inner delimiter, a whole one is followed by a store delimiter (or ends the text). The longest wins.
    Prefix prefix;
    while (prefix.length < text.size()) {
        const QByteArrayView left = text.sliced(prefix.length);
        std::optional<PatternId> best;
        qsizetype bestLength = 0;
        for (const PatternId child : m_patterns[prefix.pattern].children) {
            const Pattern& candidate = m_patterns[child];
            const qsizetype joinerLength = candidate.joiner != 0 ? 1 : 0;
            if ((joinerLength > 0 && !left.startsWith(candidate.joiner)) ||
                !left.sliced(joinerLength).startsWith(candidate.label))
                continue;
            const qsizetype length = joinerLength + candidate.label.size();
            const QByteArrayView rest = left.sliced(length);
            const bool fits = candidate.nextUnit > 0 || rest.isEmpty() || m_store->delimiters().contains(rest.front());
            if (fits && (!best || length > bestLength)) {
                best = child;
                bestLength = length;
            }
        }
        if (!best)
            break;
        prefix.pattern = *best;
        prefix.length += bestLength;
    }
    return prefix;
}

void PatternTree::split(PatternId pattern, std::vector<PatternId>& next)
{
    // A whole level's children are its members' children in the store, from their first unit; a partial level's
    // are its own members, one unit further into their segments.
    const Pattern& parent = m_patterns[pattern];
    std::vector<std::pair<keyspace::NodeId, std::uint16_t>> kids; // with the unit each is folded from
    if (parent.nextUnit > 0)
        for (std::size_t i = 0; i < parent.members.size(); ++i)
            kids.emplace_back(parent.members[i], parent.memberUnits.empty() ? parent.nextUnit : parent.memberUnits[i]);
    else
        for (const keyspace::NodeId member : parent.members)
            m_store->forEachChild(member, [&](keyspace::NodeId child) { kids.emplace_back(child, 0); });
    if (kids.empty())
        return;
    std::sort(kids.begin(), kids.end()); // the order they were found in, across members
    // Views where they can be (the store's segment bytes, the levels' folded labels): a level of a million
    // siblings allocated two byte arrays each, and that was most of a pattern tree's time.
    std::vector<Level> levels;
    levels.reserve(kids.size());
    // The levels inside a split address: they take the pattern of the address's first end.
    std::vector<std::pair<std::size_t, std::vector<keyspace::NodeId>>> insideAddresses;
    std::unordered_map<std::string_view, std::size_t> sharing; // folded label -> siblings that share it
    std::size_t foldable = 0;                                  // siblings with a folded label
    const auto view = [](QByteArrayView bytes) { return std::string_view(bytes.data(), std::size_t(bytes.size())); };
    for (const auto& [kid, unitIndex] : kids) {
        const QByteArrayView segment = m_store->segment(kid);
        const lint::SegmentUnits units = unitsOf(*m_store, kid);
        const lint::SegmentUnit& unit = units[std::min<qsizetype>(unitIndex, units.size() - 1)];
        const bool partial = unitIndex + 1 < units.size() && unitIndex + 1 < 0xffff;
        if (!partial && lint::isAddressGroup(unit.text) && m_store->hasChildren(kid)) {
            if (std::optional<SplitAddress> address = splitAddressFrom(*m_store, kid, unit.text)) {
                insideAddresses.emplace_back(levels.size(), std::move(address->inside));
                for (const AddressEnd& end : address->ends) {
                    Level level;
                    level.node = end.node;
                    level.joiner = unitIndex == 0 ? m_store->joiner(kid) : 0;
                    level.folded = lint::sharedPlaceholder(end.prefix ? lint::Shape::Cidr : lint::Shape::Ip);
                    level.partial = end.nextUnit > 0;
                    level.address = true;
                    level.nextUnit = end.nextUnit;
                    if (level.partial)
                        level.folded.append(end.delimiterAfter);
                    levels.push_back(std::move(level));
                }
                continue;
            }
        }
        Level level;
        level.node = kid;
        level.joiner = unitIndex == 0 ? m_store->joiner(kid) : 0;
        level.partial = partial;
        level.nextUnit = partial ? std::uint16_t(unitIndex + 1) : 0;
        const qsizetype from = unit.text.data() - segment.data();
        if (!level.partial) { // the rest of the segment (all of it, past a cap on the units)
            level.literal = segment.sliced(from);
            level.folded = units.size() == 1 ? unit.folded : lint::foldedSegment(level.literal);
        } else {
            level.literal = segment.sliced(from, unit.text.size() + 1); // the inner delimiter follows the unit
            if (!unit.folded.isNull())
                level.folded = QByteArray(unit.folded).append(unit.delimiterAfter);
        }
        // A word, or a numbered code folded on its own (`more4x<int>`): the series it may belong to.
        if (level.folded.isNull() || !level.folded.startsWith('<'))
            level.series = lint::numberedSeries(level.literal);
        levels.push_back(std::move(level));
    }
    mergeBinaryStems(levels);
    std::unordered_map<std::string_view, std::size_t> series; // numbered series -> siblings in it
    for (const Level& level : levels) {
        if (!level.folded.isEmpty()) {
            ++foldable;
            if (!level.address) // an address is a placeholder whatever its siblings
                ++sharing[view(level.folded)];
        }
        if (!level.series.isNull())
            ++series[view(level.series)];
    }
    // Where most siblings are ids of some shape, the odd ones of another shape are ids too (a 12-digit session id
    // among hex ones), not words to list one by one.
    const bool mostlyIds = foldable * 2 > levels.size();
    // This pattern's children by label, the partial ones apart (`user_` goes on, a key named `user_` does not), and
    // those after different delimiters apart.
    std::unordered_map<int, std::unordered_map<std::string_view, PatternId>> byLabel;
    for (const Level& level : levels) {
        // Where the exact tree must differ from the one notation (lint::patternOf, which the live tree, the index, the
        // findings' groups and live::patternOfKey spell): a level is folded only where its siblings share the fold,
        // so that a sparse id among words (`config:42` beside `config:timeout`) stays the literal it reads as.
        // tst_patterntree::theExactTreeKeepsASparseIdLiteral holds both sides of it.
        const std::size_t shared = level.folded.isEmpty() ? 0 : sharing[view(level.folded)];
        bool collapse = level.address ||
                        (shared > 0 && (shared > m_options.collapseAbove || shared * 2 > levels.size() || mostlyIds));
        QByteArrayView label = collapse ? QByteArrayView(level.folded) : level.literal;
        if (!level.series.isNull()) {
            const std::size_t inSeries = series[view(level.series)];
            if (inSeries >= MinSeriesSiblings && inSeries > (collapse ? shared : 1)) {
                label = level.series;
                collapse = true;
            }
        }
        auto& children = byLabel[(level.partial ? 0x100 : 0) | static_cast<unsigned char>(level.joiner)];
        auto it = children.find(view(label));
        if (it == children.end()) {
            const auto child = PatternId(m_patterns.size());
            m_patterns.push_back(
                {pattern, label.toByteArray(), collapse, {}, level.nextUnit, {}, {}, {}, level.joiner});
            m_patterns[pattern].children.push_back(child);
            next.push_back(child);
            it = children.emplace(view(label), child).first;
        }
        Pattern& child = m_patterns[it->second];
        if (level.nextUnit != child.nextUnit && child.memberUnits.empty())
            child.memberUnits.assign(child.members.size(), child.nextUnit);
        if (!child.memberUnits.empty())
            child.memberUnits.push_back(level.nextUnit);
        child.members.push_back(level.node);
        m_patternOf[level.node] = it->second; // a partial level's members get their own pattern further down
    }
    for (const auto& [firstEnd, inside] : insideAddresses) {
        for (const keyspace::NodeId node : inside)
            m_patternOf[node] = m_patternOf[levels[firstEnd].node];
    }
}

QByteArray PatternTree::text(PatternId pattern) const
{
    std::vector<PatternId> levels;
    for (PatternId at = pattern; at != Root; at = m_patterns[at].parent)
        levels.push_back(at);
    QByteArray out;
    for (auto level = levels.rbegin(); level != levels.rend(); ++level) {
        // A partial level's label ends with its inner delimiter; a whole one is followed by its child's joiner.
        if (const char joiner = m_patterns[*level].joiner)
            out.append(joiner);
        out.append(m_patterns[*level].label);
    }
    return out;
}

std::uint64_t PatternTree::ownKeys(PatternId pattern) const
{
    if (isPartial(pattern))
        return 0;
    const auto& members = m_patterns[pattern].members;
    return std::uint64_t(
        std::count_if(members.begin(), members.end(), [&](keyspace::NodeId node) { return m_store->isKey(node); }));
}

PatternTree::Totals PatternTree::totals(PatternId pattern) const
{
    return totals(pattern, 0, m_patterns[pattern].members.size());
}

PatternTree::Totals PatternTree::totals(PatternId pattern, std::size_t fromMember, std::size_t toMember) const
{
    const std::vector<keyspace::NodeId>& members = m_patterns[pattern].members;
    Totals totals;
    for (std::size_t i = fromMember; i < toMember && i < members.size(); ++i)
        totals.add(keyspace::subtreeTotals(*m_store, members[i]));
    return totals;
}

} // namespace keylens::patterns
