#include "keyspace/Keyspace.h"

#include "keyspace/KeyPath.h"

#include <algorithm>

namespace keylens::keyspace {

namespace {
const NamespaceStats emptyStats;
}

Keyspace::Keyspace(char delimiter)
    : m_delimiter(delimiter)
{
    const SegmentId empty = m_segments.intern({});
    m_parent.push_back(InvalidNode);
    m_segment.push_back(empty);
    m_firstChild.push_back(InvalidNode);
    m_nextSibling.push_back(InvalidNode);
    m_statsIndex.push_back(0);
    m_flags.push_back(0);
    m_type.push_back(KeyType::Unknown);
    m_memory.push_back(0);
    m_expiry.push_back(NoExpiry);
    m_stats.push_back({}); // the root always has aggregates: they are the totals
}

void Keyspace::reserve(std::size_t keys)
{
    // Real keyspaces have a little more than one node per key (the id levels of `user:<id>:...`).
    const std::size_t nodes = keys + keys / 4 + 16;
    m_childIndex.reserve(nodes, [this](NodeId node) { return nodeHash(node); });
    m_segments.reserve(keys);
}

std::size_t Keyspace::childHash(NodeId parent, SegmentId segment) const
{
    return detail::mix64((std::uint64_t(parent) << 32) | segment);
}

NodeId Keyspace::findChild(NodeId parent, QByteArrayView segmentBytes) const
{
    // A segment that was never interned is nobody's child: look it up without interning it.
    const SegmentId segment = m_segments.find(segmentBytes);
    if (segment == detail::IdHashTable::Empty)
        return InvalidNode;
    return lookupChild(parent, segment, childHash(parent, segment));
}

NodeId Keyspace::lookupChild(NodeId parent, SegmentId segment, std::size_t hash) const
{
    return m_childIndex.find(
        hash, [&](NodeId candidate) { return m_parent[candidate] == parent && m_segment[candidate] == segment; });
}

NodeId Keyspace::find(QByteArrayView path) const
{
    NodeId node = root();
    forEachSegment(path, m_delimiter, [&](QByteArrayView segmentBytes) {
        if (node != InvalidNode)
            node = findChild(node, segmentBytes);
    });
    return node;
}

NodeId Keyspace::addChild(NodeId parent, SegmentId segment, std::size_t hash)
{
    const auto node = static_cast<NodeId>(m_parent.size());
    m_parent.push_back(parent);
    m_segment.push_back(segment);
    m_firstChild.push_back(InvalidNode);
    m_nextSibling.push_back(m_firstChild[parent]);
    m_firstChild[parent] = node;
    m_statsIndex.push_back(InvalidNode);
    m_flags.push_back(0);
    m_type.push_back(KeyType::Unknown);
    m_memory.push_back(0);
    m_expiry.push_back(NoExpiry);
    m_childIndex.insert(hash, node, [this](NodeId other) { return nodeHash(other); });
    ++mutableStats(parent).childCount;
    return node;
}

NamespaceStats& Keyspace::mutableStats(NodeId node)
{
    if (m_statsIndex[node] == InvalidNode) {
        m_statsIndex[node] = static_cast<std::uint32_t>(m_stats.size());
        m_stats.push_back({});
    }
    return m_stats[m_statsIndex[node]];
}

Keyspace::Insert Keyspace::insert(QByteArrayView key, const KeyInfo& info, NodeId* stored)
{
    NodeId node = root();
    forEachSegment(key, m_delimiter, [&](QByteArrayView segmentBytes) {
        const SegmentId segment = m_segments.intern(segmentBytes);
        const std::size_t hash = childHash(node, segment);
        const NodeId parent = node;
        node = lookupChild(parent, segment, hash);
        if (node == InvalidNode)
            node = addChild(parent, segment, hash);
    });
    if (stored)
        *stored = node;
    if (m_flags[node] & IsKey)
        return Insert::Duplicate;

    storeKeyInfo(node, info);
    for (NodeId ancestor = m_parent[node]; ancestor != InvalidNode; ancestor = m_parent[ancestor])
        mutableStats(ancestor).add(info);
    return Insert::Added;
}

void Keyspace::storeKeyInfo(NodeId node, const KeyInfo& info)
{
    m_flags[node] = IsKey | (info.memoryMeasured ? MemoryMeasured : 0);
    m_type[node] = info.type;
    const std::uint64_t memory = info.memoryMeasured ? info.memoryBytes : 0;
    m_bigMemory.erase(node);
    if (memory >= MemoryOverflow) {
        m_memory[node] = MemoryOverflow;
        m_bigMemory[node] = memory;
    } else {
        m_memory[node] = static_cast<std::uint32_t>(memory);
    }
    m_expiry[node] = info.expiresAtMs;
}

void Keyspace::removeKey(NodeId node)
{
    if (!isKey(node))
        return;
    const KeyInfo info = keyInfo(node);
    for (NodeId ancestor = m_parent[node]; ancestor != InvalidNode; ancestor = m_parent[ancestor])
        mutableStats(ancestor).remove(info);
    m_flags[node] = 0;
    m_type[node] = KeyType::Unknown;
    m_memory[node] = 0;
    m_expiry[node] = NoExpiry;
    m_bigMemory.erase(node);
}

void Keyspace::updateKey(NodeId node, const KeyInfo& info)
{
    if (!isKey(node))
        return;
    const KeyInfo old = keyInfo(node);
    for (NodeId ancestor = m_parent[node]; ancestor != InvalidNode; ancestor = m_parent[ancestor]) {
        NamespaceStats& stats = mutableStats(ancestor);
        stats.remove(old);
        stats.add(info);
    }
    storeKeyInfo(node, info);
}

KeyInfo Keyspace::keyInfo(NodeId node) const
{
    KeyInfo info;
    info.type = m_type[node];
    info.expiresAtMs = m_expiry[node];
    info.memoryBytes = m_memory[node] == MemoryOverflow ? m_bigMemory.at(node) : m_memory[node];
    info.memoryMeasured = m_flags[node] & MemoryMeasured;
    return info;
}

const NamespaceStats& Keyspace::stats(NodeId node) const
{
    const std::uint32_t index = m_statsIndex[node];
    return index == InvalidNode ? emptyStats : m_stats[index];
}

std::vector<NodeId> Keyspace::children(NodeId node) const
{
    std::vector<NodeId> out;
    out.reserve(stats(node).childCount);
    for (NodeId child = m_firstChild[node]; child != InvalidNode; child = m_nextSibling[child])
        out.push_back(child);
    // Siblings are linked newest first; hand them out in the order they were found.
    std::reverse(out.begin(), out.end());
    return out;
}

QByteArray Keyspace::path(NodeId node) const
{
    std::vector<QByteArrayView> segments;
    for (; node != root(); node = m_parent[node])
        segments.push_back(segment(node));
    std::reverse(segments.begin(), segments.end());
    return joinSegments(segments, m_delimiter);
}

std::size_t Keyspace::pathLength(NodeId node) const
{
    std::size_t length = 0;
    for (; node != root(); node = m_parent[node])
        length += std::size_t(segment(node).size()) + 1;
    return length == 0 ? 0 : length - 1;
}

QByteArray Keyspace::namespacePrefix(NodeId node) const
{
    if (node == root())
        return {};
    return path(node).append(m_delimiter);
}

std::uint32_t& Keyspace::findingEntry(NodeId node)
{
    while (m_findings.size() <= node)
        m_findings.push_back(0);
    return m_findings[node];
}

void Keyspace::addFinding(NodeId key, unsigned rule, unsigned severity)
{
    Q_ASSERT(rule < IgnoredBit && severity < 3);
    std::uint32_t& entry = findingEntry(key);
    const std::uint32_t bit = std::uint32_t(1) << rule;
    if (entry & bit)
        return;
    const std::uint32_t worst = std::max<std::uint32_t>(entry >> FindingWorstShift, severity + 1);
    entry = ((entry | bit) & ((std::uint32_t(1) << FindingWorstShift) - 1)) | (worst << FindingWorstShift);
    for (NodeId ancestor = m_parent[key]; ancestor != InvalidNode; ancestor = m_parent[ancestor])
        ++mutableStats(ancestor).findings[severity];
}

void Keyspace::removeFinding(NodeId key, unsigned rule, unsigned severity, int worstKept)
{
    Q_ASSERT(rule < IgnoredBit && severity < 3 && worstKept < 3);
    std::uint32_t& entry = findingEntry(key);
    const std::uint32_t bit = std::uint32_t(1) << rule;
    if (!(entry & bit))
        return;
    const std::uint32_t kept = (entry & ~bit) & ((std::uint32_t(1) << FindingWorstShift) - 1);
    entry = kept | (std::uint32_t(worstKept + 1) << FindingWorstShift);
    for (NodeId ancestor = m_parent[key]; ancestor != InvalidNode; ancestor = m_parent[ancestor]) {
        std::uint32_t& count = mutableStats(ancestor).findings[severity];
        if (count > 0) // a severity told wrong by a caller must not wrap the count to four billion
            --count;
    }
}

std::uint32_t Keyspace::findingRules(NodeId node) const
{
    return node < m_findings.size() ? m_findings[node] & RuleBits : 0;
}

int Keyspace::worstFinding(NodeId node) const
{
    return node < m_findings.size() ? int(m_findings[node] >> FindingWorstShift) - 1 : -1;
}

void Keyspace::setLintIgnored(NodeId key)
{
    findingEntry(key) |= std::uint32_t(1) << IgnoredBit;
}

bool Keyspace::isLintIgnored(NodeId node) const
{
    return node < m_findings.size() && (m_findings[node] >> IgnoredBit & 1);
}

void Keyspace::clearFindings()
{
    for (std::size_t node = 0; node < m_findings.size(); ++node)
        m_findings[node] = 0;
    for (std::size_t index = 0; index < m_stats.size(); ++index)
        m_stats[index].findings = {};
}

std::size_t Keyspace::memoryBytes() const
{
    return m_parent.memoryBytes() + m_segment.memoryBytes() + m_firstChild.memoryBytes() + m_nextSibling.memoryBytes() +
           m_statsIndex.memoryBytes() + m_flags.memoryBytes() + m_type.memoryBytes() + m_memory.memoryBytes() +
           m_expiry.memoryBytes() + m_findings.memoryBytes() + m_stats.memoryBytes() + m_childIndex.memoryBytes() +
           m_segments.memoryBytes() + m_bigMemory.size() * 32;
}

} // namespace keylens::keyspace
