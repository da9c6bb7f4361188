// Adding keys to the store, one or a batch at a time.
//
// In a store of millions of nodes nearly every step of an insert misses the cache: the segment's slot in the pool's
// table, the bytes it is compared with, the child's slot, the candidate node's parent and segment. One key after
// another, those misses come one at a time (a million keys of the demo mix took 0.9 s, most of it waiting). A batch
// is inserted in steps over all its keys instead, each step asking for the memory of the keys a few places ahead
// before it works on the current one, so that a dozen misses are in flight at once. The outcome is the one of
// inserting the keys one by one: the same nodes under the same parents, siblings in the same order, each key counted
// once in each aggregate (only the node ids of one batch are handed out level by level).
#include "keyspace/KeyPath.h"
#include "keyspace/Keyspace.h"

namespace keylens::keyspace {

namespace {

// How far ahead the memory is asked for: far enough for it to arrive (~100 ns, a few steps of work), near enough
// that it is still in the cache when used. The pool's lookup has three dependent reads, the child's two.
constexpr std::size_t SlotAhead = 16;
constexpr std::size_t CandidateAhead = 8;
constexpr std::size_t BytesAhead = 4;

} // namespace

Keyspace::Insert Keyspace::insert(QByteArrayView key, const KeyInfo& info, NodeId* stored)
{
    Arrival arrival{key, &info};
    insert(std::span(&arrival, 1));
    if (stored)
        *stored = arrival.node;
    return arrival.result;
}

void Keyspace::insert(std::span<Arrival> arrivals)
{
    splitSegments(arrivals);
    internSegments();
    walkDown(arrivals);
    for (Arrival& arrival : arrivals)
        arrival.result = store(arrival.node, *arrival.info);
}

void Keyspace::splitSegments(std::span<const Arrival> arrivals)
{
    m_pending.clear();
    m_segmentsStart.clear();
    for (const Arrival& arrival : arrivals) {
        m_segmentsStart.push_back(static_cast<std::uint32_t>(m_pending.size()));
        forEachSegment(arrival.key, m_delimiters, [&](QByteArrayView bytes, char joiner) {
            m_pending.push_back({bytes, SegmentPool::hashOf(bytes), 0, joiner});
        });
    }
    m_segmentsStart.push_back(static_cast<std::uint32_t>(m_pending.size()));
}

void Keyspace::internSegments()
{
    const std::size_t count = m_pending.size();
    for (std::size_t i = 0; i < count; ++i) {
        if (i + SlotAhead < count)
            m_segments.prefetchSlot(m_pending[i + SlotAhead].hash);
        if (i + CandidateAhead < count)
            m_segments.prefetchLocation(m_pending[i + CandidateAhead].hash);
        if (i + BytesAhead < count)
            m_segments.prefetchBytes(m_pending[i + BytesAhead].hash);
        PendingSegment& segment = m_pending[i];
        segment.id = m_segments.intern(segment.bytes, segment.hash);
    }
}

void Keyspace::prefetchCandidateNode(std::size_t hash) const
{
    const NodeId candidate = m_childIndex.candidate(hash);
    if (candidate == detail::IdHashTable::Empty)
        return;
    __builtin_prefetch(&m_parent[candidate]);
    __builtin_prefetch(&m_segment[candidate]);
    if (!m_delimiters.isSingle())
        __builtin_prefetch(&m_joiner[candidate]);
}

void Keyspace::walkDown(std::span<Arrival> arrivals)
{
    // Level by level: a key's node at one level is the parent at the next, so the keys of a batch move down together,
    // and the lookups of one level are independent of each other (those ahead can be prefetched).
    m_walking.clear();
    for (std::uint32_t i = 0; i < arrivals.size(); ++i) {
        arrivals[i].node = root();
        m_walking.push_back(i);
    }
    for (std::uint32_t level = 0; !m_walking.empty(); ++level) {
        for (const std::uint32_t i : m_walking) {
            PendingSegment& segment = m_pending[m_segmentsStart[i] + level];
            segment.hash = childHash(arrivals[i].node, segment.id, segment.joiner);
        }
        const std::size_t count = m_walking.size();
        for (std::size_t k = 0; k < count; ++k) {
            if (k + SlotAhead < count) {
                const std::uint32_t ahead = m_walking[k + SlotAhead];
                m_childIndex.prefetch(m_pending[m_segmentsStart[ahead] + level].hash);
                __builtin_prefetch(&m_namespaceIndex[arrivals[ahead].node]); // read when a child is added
            }
            if (k + CandidateAhead < count) {
                const std::uint32_t ahead = m_walking[k + CandidateAhead];
                prefetchCandidateNode(m_pending[m_segmentsStart[ahead] + level].hash);
                if (const std::uint32_t index = m_namespaceIndex[arrivals[ahead].node]; index != InvalidNode)
                    __builtin_prefetch(&m_namespaces[index]);
            }
            Arrival& arrival = arrivals[m_walking[k]];
            const PendingSegment& segment = m_pending[m_segmentsStart[m_walking[k]] + level];
            const NodeId parent = arrival.node;
            arrival.node = lookupChild(parent, segment.id, segment.joiner, segment.hash);
            if (arrival.node == InvalidNode)
                arrival.node = addChild(parent, segment.id, segment.joiner, segment.hash);
        }
        std::erase_if(m_walking,
                      [&](std::uint32_t i) { return m_segmentsStart[i] + level + 1 == m_segmentsStart[i + 1]; });
    }
}

Keyspace::Insert Keyspace::store(NodeId node, const KeyInfo& info)
{
    if (m_flags[node] & IsKey)
        return Insert::Duplicate;
    ++m_changes;
    const KeyInfo judged = classified(info);
    storeKeyInfo(node, judged);
    for (NodeId ancestor = m_parent[node]; ancestor != InvalidNode; ancestor = m_parent[ancestor])
        if (NamespaceStats* stats = keptStats(ancestor))
            stats->add(judged);
    if (m_stats[0].keys == m_refineAt)
        refineReserve();
    return Insert::Added;
}

} // namespace keylens::keyspace
