#include "patterns/PatternTree.h"

#include "keyspace/KeyPath.h"
#include "lint/SegmentShape.h"

#include <QHash>

#include <algorithm>

namespace keylens::patterns {

PatternTree::PatternTree(const keyspace::Keyspace& store, Options options)
    : m_store(&store)
    , m_options(options)
    , m_folded(store.nodeCount())
{
    m_patternOf.resize(store.nodeCount()); // Root: zero
    m_patterns.push_back({Root, {}, false, {keyspace::Keyspace::root()}, {}, {}});
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
    m_patterns.push_back({Root, {}, false, {keyspace::Keyspace::root()}, {}, {}});
}

PatternTree PatternTree::folding(const keyspace::Keyspace& store)
{
    return PatternTree(store, LiveTag{});
}

std::uint32_t PatternTree::labelId(QByteArrayView label)
{
    const std::string_view view(label.data(), std::size_t(label.size()));
    if (auto it = m_labelIds.find(view); it != m_labelIds.end())
        return it->second;
    const QByteArray& kept = m_labels.emplace_back(label.toByteArray());
    const auto id = std::uint32_t(m_labels.size() - 1);
    m_labelIds.emplace(std::string_view(kept.constData(), std::size_t(kept.size())), id);
    return id;
}

void PatternTree::extend(std::size_t until)
{
    Q_ASSERT(m_live);
    m_patternOf.resize(until); // new nodes' patterns are Root (zero) until folded
    for (; m_folded < until; ++m_folded) {
        const auto node = keyspace::NodeId(m_folded);
        const PatternId parent = m_patternOf[m_store->parent(node)];
        const QByteArrayView segment = m_store->segment(node);
        const QByteArray folded = lint::foldedSegment(segment);
        const bool placeholder = !folded.isNull();
        const std::uint32_t label = labelId(placeholder ? QByteArrayView(folded) : segment);
        const std::uint64_t key = std::uint64_t(parent) << 32 | label;
        auto it = m_childByLabel.find(key);
        if (it == m_childByLabel.end()) {
            const auto child = PatternId(m_patterns.size());
            m_patterns.push_back({parent, m_labels[label], placeholder, {}, {}, {}});
            m_patterns[parent].children.push_back(child);
            it = m_childByLabel.emplace(key, child).first;
        }
        Pattern& pattern = m_patterns[it->second];
        pattern.membersAhead.makeRoom(pattern.members, 1);
        pattern.members.push_back(node);
        m_patternOf[node] = it->second;
    }
}

std::optional<PatternTree::PatternId> PatternTree::find(QByteArrayView text) const
{
    PatternId at = Root;
    if (text.isEmpty())
        return at;
    const QList<QByteArrayView> levels = [&] {
        QList<QByteArrayView> out;
        qsizetype from = 0;
        while (true) {
            const qsizetype end = text.indexOf(m_store->delimiter(), from);
            out << text.sliced(from, (end < 0 ? text.size() : end) - from);
            if (end < 0)
                return out;
            from = end + 1;
        }
    }();
    for (const QByteArrayView level : levels) {
        const auto& children = m_patterns[at].children;
        const auto it = std::find_if(children.begin(), children.end(),
                                     [&](PatternId child) { return m_patterns[child].label == level; });
        if (it == children.end())
            return std::nullopt;
        at = *it;
    }
    return at;
}

void PatternTree::split(PatternId pattern, std::vector<PatternId>& next)
{
    std::vector<keyspace::NodeId> kids;
    for (const keyspace::NodeId member : m_patterns[pattern].members)
        m_store->forEachChild(member, [&](keyspace::NodeId child) { kids.push_back(child); });
    if (kids.empty())
        return;
    std::sort(kids.begin(), kids.end());            // the order they were found in, across members
    std::vector<QByteArray> collapsed(kids.size()); // null for a word: words never collapse
    QHash<QByteArray, std::size_t> sharing;         // collapsed label -> siblings that share it
    for (std::size_t i = 0; i < kids.size(); ++i) {
        collapsed[i] = lint::foldedSegment(m_store->segment(kids[i]));
        if (!collapsed[i].isEmpty())
            ++sharing[collapsed[i]];
    }
    QHash<QByteArray, PatternId> byLabel; // this pattern's children
    for (std::size_t i = 0; i < kids.size(); ++i) {
        const std::size_t shared = collapsed[i].isEmpty() ? 0 : sharing.value(collapsed[i]);
        const bool collapse = shared > m_options.collapseAbove || shared * 2 > kids.size();
        const QByteArray label = collapse ? collapsed[i] : m_store->segment(kids[i]).toByteArray();
        auto it = byLabel.find(label);
        if (it == byLabel.end()) {
            const auto child = PatternId(m_patterns.size());
            m_patterns.push_back({pattern, label, collapse, {}, {}, {}});
            m_patterns[pattern].children.push_back(child);
            next.push_back(child);
            it = byLabel.insert(label, child);
        }
        m_patterns[*it].members.push_back(kids[i]);
        m_patternOf[kids[i]] = *it;
    }
}

QByteArray PatternTree::text(PatternId pattern) const
{
    std::vector<QByteArrayView> levels;
    for (PatternId at = pattern; at != Root; at = m_patterns[at].parent)
        levels.push_back(m_patterns[at].label);
    std::reverse(levels.begin(), levels.end());
    return keyspace::joinSegments(levels, m_store->delimiter());
}

std::uint64_t PatternTree::ownKeys(PatternId pattern) const
{
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
