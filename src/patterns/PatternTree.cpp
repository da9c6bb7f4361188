#include "patterns/PatternTree.h"

#include "keyspace/KeyPath.h"
#include "lint/SegmentShape.h"

#include <QHash>

#include <algorithm>

namespace keylens::patterns {

PatternTree::PatternTree(const keyspace::Keyspace& store, Options options)
    : m_store(store)
    , m_options(options)
{
    m_patternOf.assign(store.nodeCount(), Root);
    m_patterns.push_back({Root, {}, false, {keyspace::Keyspace::root()}, {}});
    // Level by level: a pattern's children are known once all its members are.
    std::vector<PatternId> level{Root};
    std::vector<PatternId> next;
    while (!level.empty()) {
        next.clear();
        for (const PatternId pattern : level)
            split(pattern, next);
        level.swap(next);
    }
}

void PatternTree::split(PatternId pattern, std::vector<PatternId>& next)
{
    std::vector<keyspace::NodeId> kids;
    for (const keyspace::NodeId member : m_patterns[pattern].members)
        m_store.forEachChild(member, [&](keyspace::NodeId child) { kids.push_back(child); });
    if (kids.empty())
        return;
    std::sort(kids.begin(), kids.end());            // the order they were found in, across members
    std::vector<QByteArray> collapsed(kids.size()); // null for a word: words never collapse
    QHash<QByteArray, std::size_t> sharing;         // collapsed label -> siblings that share it
    for (std::size_t i = 0; i < kids.size(); ++i) {
        collapsed[i] = lint::foldedSegment(m_store.segment(kids[i]));
        if (!collapsed[i].isEmpty())
            ++sharing[collapsed[i]];
    }
    QHash<QByteArray, PatternId> byLabel; // this pattern's children
    for (std::size_t i = 0; i < kids.size(); ++i) {
        const std::size_t shared = collapsed[i].isEmpty() ? 0 : sharing.value(collapsed[i]);
        const bool collapse = shared > m_options.collapseAbove || shared * 2 > kids.size();
        const QByteArray label = collapse ? collapsed[i] : m_store.segment(kids[i]).toByteArray();
        auto it = byLabel.find(label);
        if (it == byLabel.end()) {
            const auto child = PatternId(m_patterns.size());
            m_patterns.push_back({pattern, label, collapse, {}, {}});
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
    return keyspace::joinSegments(levels, m_store.delimiter());
}

std::uint64_t PatternTree::ownKeys(PatternId pattern) const
{
    const auto& members = m_patterns[pattern].members;
    return std::uint64_t(
        std::count_if(members.begin(), members.end(), [&](keyspace::NodeId node) { return m_store.isKey(node); }));
}

PatternTree::Totals PatternTree::totals(PatternId pattern) const
{
    Totals totals;
    for (const keyspace::NodeId member : m_patterns[pattern].members)
        totals.add(keyspace::subtreeTotals(m_store, member));
    return totals;
}

} // namespace keylens::patterns
