#include "keyspace/Keyspace.h"

#include "keyspace/KeyGlob.h"
#include "keyspace/KeyPath.h"

#include <algorithm>
#include <bit>
#include <utility>

namespace keylens::keyspace {

Keyspace::Keyspace(Delimiters delimiters)
    : m_delimiters(std::move(delimiters))
    , m_delimiter(m_delimiters.primary())
{
    const SegmentId empty = m_segments.intern({});
    m_parent.push_back(InvalidNode);
    m_segment.push_back(empty);
    m_nextSibling.push_back(InvalidNode);
    m_namespaceIndex.push_back(0);
    m_flags.push_back(0);
    if (!m_delimiters.isSingle())
        m_joiner.push_back(0);
    m_type.push_back(KeyType::Unknown);
    m_memory.push_back(0);
    m_expiry.push_back(NoExpiry);
    m_access.push_back(0);
    m_namespaces.push_back({InvalidNode, 0}); // the root always keeps aggregates: they are the totals
    m_stats.push_back({});
}

void Keyspace::reserve(std::size_t keys)
{
    m_expectedKeys = keys;
    // The sample's size is fixed: all of it goes into the tables made ready for the rest at once (115,000 nodes
    // from a percent of 10,000,000 keys took 57 ms of the GUI thread). Any sample this small overestimates the
    // nodes per key (the keys of one id rarely meet in it), which errs on the safe side.
    constexpr std::size_t sample = 20'000;
    m_refineAt = keys >= 4 * sample ? sample : 0;
    // Real keyspaces have a little more than one node per key (the id levels of `user:<id>:...`). A big keyspace
    // is reserved for its sample only, then for what the sample shows (refineReserve): reserved for all its keys at
    // once, the tables were rebuilt at the sample anyway, which read every page of the first ones and wrote most
    // of the new ones (65 ms of the GUI thread at 3,000,000 keys).
    const std::size_t now = m_refineAt != 0 ? m_refineAt : keys;
    reserveTables(now + now / 4 + 16, now);
}

void Keyspace::reserveTables(std::size_t nodes, std::size_t segments)
{
    m_childIndex.reserve(nodes, [this](NodeId node) { return nodeHash(node); });
    m_segments.reserve(segments);
}

void Keyspace::refineReserve()
{
    // SCAN hands keys out in hash order, so the first keys are a random sample; a tenth more covers its error and keys
    // written during the scan.
    m_refineAt = 0;
    const double keys = double(m_stats[0].keys);
    const auto expected = [&](std::size_t sampled) {
        return std::size_t(double(sampled) / keys * double(m_expectedKeys) * 1.1) + 16;
    };
    // Made ready on another thread, and taken up when they are: see detail::PreparedSlots.
    m_childIndex.reserveAhead(expected(nodeCount()));
    m_segments.reserveAhead(expected(m_segments.size()));
}

std::size_t Keyspace::childHash(NodeId parent, SegmentId segment, char joiner) const
{
    // A single delimiter leaves the joiner out: the hash, and the table's order, are what they always were.
    const std::uint64_t joinerBits =
        m_delimiters.isSingle() ? 0 : std::uint64_t(static_cast<unsigned char>(joiner)) << 56;
    return detail::mix64(((std::uint64_t(parent) << 32) | segment) ^ joinerBits);
}

NodeId Keyspace::findChild(NodeId parent, QByteArrayView segmentBytes, char joiner) const
{
    // A segment that was never interned is nobody's child: look it up without interning it.
    const SegmentId segment = m_segments.find(segmentBytes);
    if (segment == detail::IdHashTable::Empty)
        return InvalidNode;
    const char actual = joinerUnder(parent, joiner == 0 ? m_delimiter : joiner);
    return lookupChild(parent, segment, actual, childHash(parent, segment, actual));
}

NodeId Keyspace::lookupChild(NodeId parent, SegmentId segment, char joiner, std::size_t hash) const
{
    if (m_delimiters.isSingle())
        return m_childIndex.find(
            hash, [&](NodeId candidate) { return m_parent[candidate] == parent && m_segment[candidate] == segment; });
    return m_childIndex.find(hash, [&](NodeId candidate) {
        return m_parent[candidate] == parent && m_segment[candidate] == segment && m_joiner[candidate] == joiner;
    });
}

NodeId Keyspace::find(QByteArrayView path) const
{
    NodeId node = root();
    forEachSegment(path, m_delimiters, [&](QByteArrayView segmentBytes, char joiner) {
        if (node != InvalidNode)
            node = findChild(node, segmentBytes, joiner);
    });
    return node;
}

NodeId Keyspace::addChild(NodeId parent, SegmentId segment, char joiner, std::size_t hash)
{
    const auto node = static_cast<NodeId>(m_parent.size());
    const bool firstBorn = m_namespaceIndex[parent] == InvalidNode;
    if (firstBorn)
        becomeNamespace(parent);
    NodeId& newest = m_namespaces[m_namespaceIndex[parent]].newestChild;
    if (!m_delimiters.isSingle()) {
        if (newest != InvalidNode && m_joiner[newest] != joiner)
            m_flags[parent] |= MixedJoiners;
        m_joiner.push_back(joiner);
    }
    m_parent.push_back(parent);
    m_segment.push_back(segment);
    m_nextSibling.push_back(newest);
    newest = node;
    m_namespaceIndex.push_back(InvalidNode);
    m_flags.push_back(0);
    m_type.push_back(KeyType::Unknown);
    m_memory.push_back(0);
    m_expiry.push_back(NoExpiry);
    m_access.push_back(0);
    m_childIndex.insert(hash, node, [this](NodeId other) { return nodeHash(other); });
    countChild(parent);
    return node;
}

void Keyspace::becomeNamespace(NodeId node)
{
    m_namespaceIndex[node] = static_cast<std::uint32_t>(m_namespaces.size());
    m_namespaces.push_back({}); // it sums its keys when asked
    if (keptStats(m_parent[node]) == nullptr)
        keepStats(m_parent[node]);
}

void Keyspace::countChild(NodeId parent)
{
    if (NamespaceStats* kept = keptStats(parent)) {
        ++kept->childCount;
        return;
    }
    std::uint32_t& summed = m_namespaces[m_namespaceIndex[parent]].stats;
    if (++summed - SummedMark > SummedChildLimit)
        keepStats(parent);
}

void Keyspace::keepStats(NodeId node)
{
    // Summed before the key being inserted is added to its ancestors, so that it is counted once.
    const NamespaceStats sum = sumOfChildren(node);
    m_namespaces[m_namespaceIndex[node]].stats = static_cast<std::uint32_t>(m_stats.size());
    m_stats.push_back(sum);
}

NamespaceStats* Keyspace::keptStats(NodeId node)
{
    return const_cast<NamespaceStats*>(std::as_const(*this).keptStats(node));
}

const NamespaceStats* Keyspace::keptStats(NodeId node) const
{
    const std::uint32_t index = m_namespaceIndex[node];
    if (index == InvalidNode || m_namespaces[index].stats >= SummedMark)
        return nullptr;
    return &m_stats[m_namespaces[index].stats];
}

NamespaceStats Keyspace::sumOfChildren(NodeId node) const
{
    NamespaceStats sum;
    for (NodeId child = firstChild(node); child != InvalidNode; child = m_nextSibling[child]) {
        ++sum.childCount;
        if (!isKey(child))
            continue;
        sum.add(keyInfo(child));
        const std::array<std::uint32_t, 3> findings = findingsBySeverity(child);
        for (unsigned severity = 0; severity < 3; ++severity)
            sum.findings[severity] += findings[severity];
    }
    return sum;
}

void Keyspace::storeKeyInfo(NodeId node, const KeyInfo& info)
{
    m_flags[node] = (m_flags[node] & MixedJoiners) | IsKey | (info.memoryMeasured ? MemoryMeasured : 0) |
                    (info.memoryMeasured && info.memorySampled ? MemorySampled : 0);
    m_type[node] = info.type;
    const std::uint64_t memory = info.memoryMeasured ? info.memoryBytes : 0;
    if (!m_bigMemory.empty()) // nearly always: no hashing a million times for nothing
        m_bigMemory.erase(node);
    if (memory >= MemoryOverflow) {
        m_memory[node] = MemoryOverflow;
        m_bigMemory[node] = memory;
    } else {
        m_memory[node] = static_cast<std::uint32_t>(memory);
    }
    if (!m_preallocated.empty())
        m_preallocated.erase(node);
    if (info.memoryMeasured && info.preallocatedBytes > 0)
        m_preallocated[node] = info.preallocatedBytes;
    m_expiry[node] = info.expiresAtMs;
    m_access[node] = info.access.word();
}

void Keyspace::removeKey(NodeId node)
{
    if (!isKey(node))
        return;
    ++m_changes;
    const KeyInfo info = keyInfo(node);
    for (NodeId ancestor = m_parent[node]; ancestor != InvalidNode; ancestor = m_parent[ancestor])
        if (NamespaceStats* stats = keptStats(ancestor))
            stats->remove(info);
    m_flags[node] &= MixedJoiners;
    m_type[node] = KeyType::Unknown;
    m_memory[node] = 0;
    m_expiry[node] = NoExpiry;
    m_access[node] = 0;
    m_bigMemory.erase(node);
    m_preallocated.erase(node);
}

void Keyspace::updateKey(NodeId node, const KeyInfo& info)
{
    if (!isKey(node))
        return;
    ++m_changes;
    const KeyInfo old = keyInfo(node);
    const KeyInfo now = classified(info);
    for (NodeId ancestor = m_parent[node]; ancestor != InvalidNode; ancestor = m_parent[ancestor]) {
        if (NamespaceStats* stats = keptStats(ancestor)) {
            stats->remove(old);
            stats->add(now);
        }
    }
    storeKeyInfo(node, now);
}

KeyInfo Keyspace::keyInfo(NodeId node) const
{
    KeyInfo info;
    info.type = m_type[node];
    info.expiresAtMs = m_expiry[node];
    info.memoryBytes = m_memory[node] == MemoryOverflow ? m_bigMemory.at(node) : m_memory[node];
    info.memoryMeasured = m_flags[node] & MemoryMeasured;
    if (!m_preallocated.empty()) {
        const auto preallocated = m_preallocated.find(node);
        info.preallocatedBytes = preallocated != m_preallocated.end() ? preallocated->second : 0;
    }
    info.memorySampled = m_flags[node] & MemorySampled;
    info.access = access(node);
    info.cold = isCold(info.access);
    return info;
}

NamespaceStats Keyspace::stats(NodeId node) const
{
    if (const NamespaceStats* kept = keptStats(node))
        return *kept;
    return sumOfChildren(node); // a small namespace's keys, or nothing for a node without children
}

std::uint64_t Keyspace::namespaceMemory(NodeId node) const
{
    if (const NamespaceStats* kept = keptStats(node))
        return kept->memoryBytes;
    std::uint64_t memory = 0;
    for (NodeId child = firstChild(node); child != InvalidNode; child = m_nextSibling[child])
        if (m_flags[child] & MemoryMeasured)
            memory += m_memory[child] == MemoryOverflow ? m_bigMemory.at(child) : m_memory[child];
    return memory;
}

std::uint32_t Keyspace::namespaceKeys(NodeId node) const
{
    if (const NamespaceStats* kept = keptStats(node))
        return kept->keys;
    std::uint32_t keys = 0;
    for (NodeId child = firstChild(node); child != InvalidNode; child = m_nextSibling[child])
        keys += isKey(child) ? 1 : 0;
    return keys;
}

std::vector<NodeId> Keyspace::children(NodeId node) const
{
    std::vector<NodeId> out;
    for (NodeId child = firstChild(node); child != InvalidNode; child = m_nextSibling[child])
        out.push_back(child);
    // Siblings are linked newest first; hand them out in the order they were found.
    std::reverse(out.begin(), out.end());
    return out;
}

QByteArray Keyspace::path(NodeId node) const
{
    std::vector<NodeId> nodes;
    for (; node != root(); node = m_parent[node])
        nodes.push_back(node);
    QByteArray out;
    out.reserve(qsizetype(pathLength(nodes.empty() ? root() : nodes.front())));
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
        if (const char before = joiner(*it))
            out.append(before);
        out.append(segment(*it));
    }
    return out;
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
    if (hasMixedJoiners(node))
        return path(node);
    const NodeId child = firstChild(node);
    return path(node).append(child == InvalidNode ? m_delimiter : joiner(child));
}

QByteArray Keyspace::namespaceGlob(NodeId node) const
{
    if (node == root())
        return "*";
    QByteArray glob = KeyGlob::escaped(path(node));
    if (hasMixedJoiners(node)) {
        glob.append('[');
        for (const char delimiter : m_delimiters.bytes())
            glob.append(delimiter == ']' || delimiter == '\\' || delimiter == '^' || delimiter == '-'
                            ? QByteArray("\\").append(delimiter)
                            : QByteArray(1, delimiter));
        glob.append(']');
    } else {
        glob.append(KeyGlob::escaped(namespacePrefix(node).right(1)));
    }
    return glob.append('*');
}

std::uint32_t& Keyspace::findingEntry(NodeId node)
{
    while (m_findings.size() <= node)
        m_findings.push_back(0);
    return m_findings[node];
}

std::uint32_t Keyspace::findingBits(NodeId node) const
{
    if (node >= m_findings.size())
        return 0;
    const std::uint32_t entry = m_findings[node];
    if (isMixed(entry))
        return m_mixedFindings[mixedIndex(entry)].bits;
    return entry & ((std::uint32_t(1) << FindingWorstShift) - 1);
}

void Keyspace::setFindings(NodeId key, std::uint32_t bits, const std::array<std::uint32_t, 3>& counts)
{
    std::uint32_t& entry = findingEntry(key);
    const std::array<std::uint8_t, 3> small{std::uint8_t(counts[0]), std::uint8_t(counts[1]), std::uint8_t(counts[2])};
    if (isMixed(entry)) { // mixed once, kept there
        m_mixedFindings[mixedIndex(entry)] = {bits, small};
    } else if ((counts[0] != 0) + (counts[1] != 0) + (counts[2] != 0) > 1) {
        entry = MixedMark | std::uint32_t(m_mixedFindings.size());
        m_mixedFindings.push_back({bits, small});
    } else {
        entry = bits | std::uint32_t(worstSeverity(counts) + 1) << FindingWorstShift;
    }
}

void Keyspace::addFinding(NodeId key, unsigned rule, unsigned severity)
{
    const FindingMark mark{rule, severity};
    addFindings(key, std::span(&mark, 1));
}

void Keyspace::addFindings(NodeId key, std::span<const FindingMark> findings)
{
    ++m_changes;
    std::uint32_t bits = findingBits(key);
    std::array<std::uint32_t, 3> counts = findingsBySeverity(key);
    std::array<std::uint32_t, 3> added{};
    for (const FindingMark& finding : findings) {
        Q_ASSERT(finding.rule < IgnoredBit && finding.severity < 3);
        const std::uint32_t bit = std::uint32_t(1) << finding.rule;
        if (bits & bit)
            continue;
        bits |= bit;
        ++counts[finding.severity];
        ++added[finding.severity];
    }
    if (added == std::array<std::uint32_t, 3>{})
        return;
    setFindings(key, bits, counts);
    for (NodeId ancestor = m_parent[key]; ancestor != InvalidNode; ancestor = m_parent[ancestor]) {
        if (NamespaceStats* stats = keptStats(ancestor)) {
            for (unsigned severity = 0; severity < 3; ++severity)
                stats->findings[severity] += added[severity];
        }
    }
}

void Keyspace::removeFinding(NodeId key, unsigned rule, unsigned severity)
{
    ++m_changes;
    Q_ASSERT(rule < IgnoredBit && severity < 3);
    const std::uint32_t bits = findingBits(key);
    const std::uint32_t bit = std::uint32_t(1) << rule;
    if (!(bits & bit))
        return;
    std::array<std::uint32_t, 3> counts = findingsBySeverity(key);
    if (counts[severity] > 0) // a severity told wrong by a caller must not wrap a count
        --counts[severity];
    setFindings(key, bits & ~bit, counts);
    for (NodeId ancestor = m_parent[key]; ancestor != InvalidNode; ancestor = m_parent[ancestor]) {
        if (NamespaceStats* stats = keptStats(ancestor); stats && stats->findings[severity] > 0)
            --stats->findings[severity];
    }
}

std::uint32_t Keyspace::findingRules(NodeId node) const
{
    return findingBits(node) & RuleBits;
}

int Keyspace::worstFinding(NodeId node) const
{
    if (node >= m_findings.size())
        return -1;
    const std::uint32_t entry = m_findings[node];
    if (isMixed(entry))
        return worstSeverity(findingsBySeverity(node));
    return compactWorst(entry);
}

std::array<std::uint32_t, 3> Keyspace::findingsBySeverity(NodeId node) const
{
    if (node >= m_findings.size())
        return {};
    const std::uint32_t entry = m_findings[node];
    if (isMixed(entry)) {
        const std::array<std::uint8_t, 3>& counts = m_mixedFindings[mixedIndex(entry)].counts;
        return {counts[0], counts[1], counts[2]};
    }
    std::array<std::uint32_t, 3> counts{};
    if (const int worst = compactWorst(entry); worst >= 0)
        counts[std::size_t(worst)] = std::uint32_t(std::popcount(entry & RuleBits));
    return counts;
}

void Keyspace::setLintIgnored(NodeId key)
{
    m_anyLintIgnored = true;
    setFindings(key, findingBits(key) | std::uint32_t(1) << IgnoredBit, findingsBySeverity(key));
}

bool Keyspace::isLintIgnored(NodeId node) const
{
    return findingBits(node) >> IgnoredBit & 1;
}

void Keyspace::clearFindings()
{
    ++m_changes;
    for (std::size_t node = 0; node < m_findings.size(); ++node)
        m_findings[node] = 0;
    m_mixedFindings = {};
    m_anyLintIgnored = false;
    for (std::size_t index = 0; index < m_stats.size(); ++index)
        m_stats[index].findings = {};
}

void Keyspace::setColdAfter(std::int64_t seconds, std::int64_t asOfSeconds)
{
    m_coldAfter = seconds;
    const std::int64_t epochSeconds = asOfSeconds - seconds;
    if (epochSeconds == m_coldBefore)
        return;
    // Every key whose side of the threshold changes moves, with its memory, in each kept ancestor.
    const std::int64_t previous = std::exchange(m_coldBefore, epochSeconds);
    for (NodeId node = 1; node < nodeCount(); ++node) {
        if (!isKey(node))
            continue;
        const KeyInfo now = keyInfo(node);
        if (now.cold == isColdBefore(now.access, previous))
            continue;
        KeyInfo was = now;
        was.cold = !now.cold;
        for (NodeId ancestor = m_parent[node]; ancestor != InvalidNode; ancestor = m_parent[ancestor]) {
            if (NamespaceStats* stats = keptStats(ancestor)) {
                stats->addAccess(was, -1);
                stats->addAccess(now, 1);
            }
        }
    }
    ++m_changes;
}

std::size_t Keyspace::memoryBytes() const
{
    return m_parent.memoryBytes() + m_segment.memoryBytes() + m_namespaces.memoryBytes() + m_nextSibling.memoryBytes() +
           m_namespaceIndex.memoryBytes() + m_flags.memoryBytes() + m_type.memoryBytes() + m_memory.memoryBytes() +
           m_expiry.memoryBytes() + m_access.memoryBytes() + m_findings.memoryBytes() + m_stats.memoryBytes() +
           m_childIndex.memoryBytes() + m_segments.memoryBytes() + m_bigMemory.size() * 32 +
           m_preallocated.size() * 32 + m_mixedFindings.memoryBytes() + m_joiner.memoryBytes();
}

} // namespace keylens::keyspace
