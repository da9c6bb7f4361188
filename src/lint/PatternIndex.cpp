#include "lint/PatternIndex.h"

#include "keyspace/KeyPath.h"
#include "lint/SegmentShape.h"
#include "lint/Spelling.h"

#include <QHash>

#include <algorithm>

namespace keylens::lint {

using keyspace::Keyspace;
using keyspace::NodeId;

PatternIndex::PatternIndex(const Keyspace& store, std::size_t maximumPatterns, const SegmentShapes* shapes,
                           const KeyVisitor& eachKey)
    : m_store(store)
    , m_shapes(shapes)
    , m_maximumPatterns(maximumPatterns)
    , m_patterns(0, Hash{this}, Equal{this})
{
    m_namespacePattern.assign(store.namespaceCount(), NoPattern);
    m_namespacePattern[store.namespaceIndex(Keyspace::root())] = 0;
    m_entries.push_back({NoPattern, 0, 0, 0, 0});
    // A child's id is above its parent's (a node is added after its parent), so one pass in id order sees
    // every namespace's pattern before its children.
    for (NodeId node = 1; node < store.nodeCount(); ++node) {
        const PatternId parent = patternOfNamespace(store.parent(node));
        if (parent == NoPattern)
            continue; // below a pattern that was not kept
        const PatternId pattern = childPattern(parent, node, true);
        if (pattern == NoPattern)
            continue;
        if (store.hasChildren(node))
            m_namespacePattern[store.namespaceIndex(node)] = pattern;
        if (store.isKey(node) && !store.isLintIgnored(node)) {
            ++m_entries[pattern].keys;
            if (eachKey)
                eachKey(node, pattern);
        }
    }
}

PatternIndex::PatternId PatternIndex::childPattern(PatternId parent, NodeId node, bool add)
{
    m_spelled.resize(0);
    // With several delimiters a level carries the one before it: `a:b` and `a/b` are two patterns.
    if (!m_store.delimiters().isSingle() && m_store.joiner(node) != 0)
        m_spelled.append(m_store.joiner(node));
    // The shape from the table: an id's bytes are not read.
    appendPatternOf(m_spelled, m_store.segment(node), shapeOfNode(m_shapes, m_store, node));
    if (const auto it = m_patterns.find(Probe{parent, m_spelled}); it != m_patterns.end())
        return *it;
    if (!add)
        return NoPattern;
    if (m_entries.size() >= m_maximumPatterns) {
        m_capped = true;
        return NoPattern;
    }
    const auto pattern = PatternId(m_entries.size());
    m_entries.push_back({parent, std::uint32_t(m_bytes.size()), std::uint32_t(m_spelled.size()), 0,
                         m_entries[parent].wordsHash + wordsHashOf(m_spelled)});
    m_bytes += m_spelled;
    m_patterns.insert(pattern);
    return pattern;
}

PatternIndex::PatternId PatternIndex::patternOfNamespace(NodeId node) const
{
    const std::uint32_t index = m_store.namespaceIndex(node);
    return index == keyspace::InvalidNode ? NoPattern : m_namespacePattern[index];
}

PatternIndex::PatternId PatternIndex::patternOfKey(NodeId key)
{
    const PatternId parent = patternOfNamespace(m_store.parent(key));
    return parent == NoPattern ? NoPattern : childPattern(parent, key, false);
}

QByteArray PatternIndex::text(PatternId pattern) const
{
    std::vector<QByteArrayView> levels;
    for (PatternId at = pattern; at != 0 && at != NoPattern; at = m_entries[at].parent)
        levels.push_back(probeOf(at).segment);
    std::reverse(levels.begin(), levels.end());
    if (!m_store.delimiters().isSingle()) { // each level below the first starts with its own delimiter
        QByteArray text;
        for (const QByteArrayView level : levels)
            text.append(level);
        return text;
    }
    return keyspace::joinSegments(levels, m_store.delimiter());
}

PatternIndex::Probe PatternIndex::probeOf(PatternId id) const
{
    const Entry& entry = m_entries[id];
    return {entry.parent, QByteArrayView(m_bytes.constData() + entry.offset, entry.length)};
}

std::size_t PatternIndex::Hash::operator()(const Probe& probe) const
{
    return qHash(probe.segment, std::size_t(probe.parent) * 0x9e3779b97f4a7c15u);
}

bool PatternIndex::Equal::operator()(const Probe& a, PatternId b) const
{
    const Probe probe = index->probeOf(b);
    return a.parent == probe.parent && a.segment == probe.segment;
}

} // namespace keylens::lint
