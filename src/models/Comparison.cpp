#include "models/Comparison.h"

#include "history/SnapshotSeries.h"

#include <algorithm>
#include <numeric>

namespace keylens::models {

using keyspace::Keyspace;
using keyspace::NodeId;

Comparison::Comparison(history::Snapshot baseline, QString label)
    : m_baseline(std::move(baseline))
    , m_label(std::move(label))
{
    m_namespaces.reserve(qsizetype(m_baseline.namespaces.size()));
    for (std::size_t i = 0; i < m_baseline.namespaces.size(); ++i)
        m_namespaces.insert(m_baseline.namespaces[i].path, std::uint32_t(i));
    m_patternsByText.resize(m_baseline.patterns.size());
    std::iota(m_patternsByText.begin(), m_patternsByText.end(), 0u);
    std::sort(m_patternsByText.begin(), m_patternsByText.end(), [this](std::uint32_t a, std::uint32_t b) {
        return m_baseline.patterns[a].pattern < m_baseline.patterns[b].pattern;
    });
}

std::optional<std::uint32_t> Comparison::namespaceEntry(QByteArrayView path) const
{
    const auto found = m_namespaces.constFind(path.toByteArray());
    if (found == m_namespaces.constEnd())
        return std::nullopt;
    return *found;
}

bool Comparison::memoryComparedWith(const Keyspace& store) const
{
    return m_baseline.totals.keysMemoryUnmeasured == 0 && store.stats(Keyspace::root()).keysMemoryUnmeasured == 0;
}

// As SnapshotDiff decides it: the earlier scan listed every namespace under the node's deepest ancestor it lists
// (or at the top), down to the node's level; else the node may be among those it left out.
bool Comparison::provesAbsent(const Keyspace& store, NodeId node) const
{
    int depth = 0;
    for (NodeId at = store.parent(node); at != Keyspace::root(); at = store.parent(at))
        ++depth;
    if (depth >= m_baseline.listedDepth)
        return false;
    for (NodeId at = store.parent(node); at != Keyspace::root(); at = store.parent(at)) {
        if (const std::optional<std::uint32_t> entry = namespaceEntry(store.namespacePrefix(at)))
            return m_baseline.namespaces[*entry].unlisted.namespaces == 0;
    }
    return m_baseline.unlistedTopLevel.namespaces == 0;
}

RowDelta Comparison::ofNamespace(const Keyspace& store, NodeId node) const
{
    RowDelta delta;
    if (node == Keyspace::root())
        return ofKeyspace(store);
    if (!store.hasChildren(node))
        return delta; // a key: snapshots hold no keys
    // The namespace's own keys below it, as the snapshot counted them (a key named like the namespace is not one).
    const keyspace::NamespaceStats now = store.stats(node);
    delta.keysNow = now.keys;
    delta.memoryNow = now.memoryBytes;
    delta.memoryCompared = memoryComparedWith(store);
    if (const std::optional<std::uint32_t> entry = namespaceEntry(store.namespacePrefix(node))) {
        const history::SnapshotStats& before = m_baseline.namespaces[*entry].stats;
        delta.kind = RowDelta::Compared;
        delta.keysBefore = before.keys;
        delta.memoryBefore = before.memoryBytes;
    } else if (provesAbsent(store, node)) {
        delta.kind = RowDelta::New;
    }
    return delta;
}

RowDelta Comparison::ofKeyspace(const Keyspace& store) const
{
    const keyspace::NamespaceStats now = store.stats(Keyspace::root());
    RowDelta delta;
    delta.kind = RowDelta::Compared;
    delta.keysBefore = m_baseline.totals.keys;
    delta.memoryBefore = m_baseline.totals.memoryBytes;
    delta.keysNow = now.keys;
    delta.memoryNow = now.memoryBytes;
    delta.memoryCompared = memoryComparedWith(store);
    return delta;
}

RowDelta Comparison::ofPatternSubtree(const Keyspace& store, QByteArrayView pattern, bool glued, std::uint64_t keysNow,
                                      std::uint64_t memoryNow) const
{
    RowDelta delta;
    delta.keysNow = keysNow;
    delta.memoryNow = memoryNow;
    delta.memoryCompared = memoryComparedWith(store);
    if (m_baseline.patterns.empty())
        return delta; // the earlier scan did not fold its keys
    // The patterns that continue this one's text are together in text order.
    auto it = std::lower_bound(m_patternsByText.begin(), m_patternsByText.end(), pattern,
                               [this](std::uint32_t entry, QByteArrayView text) {
                                   return QByteArrayView(m_baseline.patterns[entry].pattern) < text;
                               });
    bool found = false;
    for (; it != m_patternsByText.end() && m_baseline.patterns[*it].pattern.startsWith(pattern); ++it) {
        const history::SnapshotPattern& entry = m_baseline.patterns[*it];
        if (!history::isInPatternSubtree(entry.pattern, pattern, m_baseline.delimiters, glued))
            continue;
        found = true;
        delta.keysBefore += entry.stats.keys;
        delta.memoryBefore += entry.stats.memoryBytes;
    }
    // The snapshot lists every pattern that held keys: a subtree with none of them held none.
    delta.kind = found ? RowDelta::Compared : keysNow > 0 ? RowDelta::New : RowDelta::Unknown;
    return delta;
}

std::vector<Comparison::Vanished> Comparison::vanishedFrom(const Keyspace& store) const
{
    // A listed namespace is there when a node of its path has children. Its parent must be there too.
    const auto nodeOfNamespace = [&](const QByteArray& path) -> std::optional<NodeId> {
        if (path.isEmpty())
            return std::nullopt;
        const NodeId node = store.find(QByteArrayView(path).chopped(1)); // the delimiter after it
        if (node == keyspace::InvalidNode || !store.hasChildren(node) || store.namespacePrefix(node) != path)
            return std::nullopt;
        return node;
    };
    std::vector<Vanished> out;
    for (const history::SnapshotNamespace& entry : m_baseline.namespaces) {
        if (nodeOfNamespace(entry.path))
            continue;
        NodeId parent = Keyspace::root();
        QByteArray parentPath;
        if (entry.parent != history::SnapshotNamespace::TopLevel) {
            parentPath = m_baseline.namespaces[entry.parent].path;
            const std::optional<NodeId> there = nodeOfNamespace(parentPath);
            if (!there)
                continue; // under a vanished namespace: that one is listed
            parent = *there;
        }
        if (!entry.path.startsWith(parentPath) || entry.path.size() <= parentPath.size())
            continue; // not a well-formed listing: nothing to show it under
        out.push_back({parent, entry.path.mid(parentPath.size()).chopped(1), entry.path, entry.stats});
    }
    std::stable_sort(out.begin(), out.end(), [](const Vanished& a, const Vanished& b) {
        return a.before.memoryBytes != b.before.memoryBytes ? a.before.memoryBytes > b.before.memoryBytes
                                                            : a.before.keys > b.before.keys;
    });
    return out;
}

std::vector<Comparison::GonePattern> Comparison::gonePatterns(const patterns::PatternTree& tree) const
{
    std::vector<GonePattern> out;
    QHash<QByteArray, std::size_t> byText; // into out
    const QByteArrayView delimiters(m_baseline.delimiters);
    for (const history::SnapshotPattern& entry : m_baseline.patterns) {
        const QByteArrayView pattern(entry.pattern);
        const patterns::PatternTree::Prefix there = tree.longestPrefix(pattern);
        if (there.length == pattern.size())
            continue;
        // The first level the tree lacks: after the store delimiter that follows the level it has (none after a
        // partial level, whose label ends with its own), up to the next delimiter.
        qsizetype from = there.length;
        if (there.pattern != patterns::PatternTree::Root && !tree.isPartial(there.pattern) &&
            delimiters.contains(pattern[from]))
            ++from;
        qsizetype to = from;
        while (to < pattern.size() && !delimiters.contains(pattern[to]))
            ++to;
        if (to == from)
            continue; // an empty level: nothing to name the row by
        const QByteArray text = pattern.first(to).toByteArray();
        auto found = byText.constFind(text);
        if (found == byText.constEnd()) {
            found = byText.insert(text, out.size());
            out.push_back({there.pattern, pattern.sliced(from, to - from).toByteArray(), text, {}});
        }
        history::SnapshotStats& before = out[*found].before;
        before.keys += entry.stats.keys;
        before.memoryBytes += entry.stats.memoryBytes;
        before.keysMemoryUnmeasured += entry.stats.keysMemoryUnmeasured;
    }
    std::stable_sort(out.begin(), out.end(), [](const GonePattern& a, const GonePattern& b) {
        return a.before.memoryBytes != b.before.memoryBytes ? a.before.memoryBytes > b.before.memoryBytes
                                                            : a.before.keys > b.before.keys;
    });
    return out;
}

RowDelta Comparison::ofGone(const history::SnapshotStats& before, const Keyspace& store) const
{
    RowDelta delta;
    delta.kind = RowDelta::Gone;
    delta.keysBefore = before.keys;
    delta.memoryBefore = before.memoryBytes;
    delta.memoryCompared = memoryComparedWith(store);
    return delta;
}

} // namespace keylens::models
