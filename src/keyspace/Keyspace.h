#pragma once

#include "keyspace/Delimiters.h"
#include "keyspace/NamespaceStats.h"
#include "keyspace/NodeId.h"
#include "keyspace/PagedArray.h"
#include "keyspace/SegmentPool.h"

#include <QByteArray>
#include <QByteArrayView>

#include <array>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace keylens::keyspace {

// The key store: a trie of key segments split on a delimiter byte (or on any of a few, see Delimiters).
//
// Node 0 is the root (the empty prefix). Every other node is a segment under its parent; its path is
// the segments from the root joined with the delimiter, and equals the exact key bytes when the node
// is a key. A node can be a key and a namespace at once (`user:1` and `user:1:profile`).
//
// Namespace semantics: the aggregates of node N count exactly the keys that start with N's path
// followed by the delimiter — what `SCAN MATCH <path>:*` returns. N's own key is not among them; the
// root's aggregates count every key.
//
// With several delimiters, each node remembers the one before its segment (its joiner): `a:b` and `a/b` are two
// children of `a`. A namespace counts the keys that start with its path and any delimiter; its children mostly
// share one joiner, and namespacePrefix() is exact for those. One byte a node, kept only for a set of several.
//
// Node ids are stable for the life of the store. Per-node data lives in parallel arrays. Aggregates are kept
// only by namespaces with a namespace below them or more than a few keys: the many small namespaces of an id
// level (`user:<id>:` over a profile and a session) add theirs up from their keys when asked, which costs a
// handful of reads and saves 88 bytes per id.
//
// Not thread-safe: one thread (the GUI thread, or the CLI's main thread) owns a Keyspace.
class Keyspace
{
public:
    explicit Keyspace(Delimiters delimiters = Delimiters(':'));

    // The primary delimiter (the only one, unless the store splits on several).
    char delimiter() const { return m_delimiter; }
    const Delimiters& delimiters() const { return m_delimiters; }
    // The delimiter between the node's segment and its parent's: 0 for the root and its children.
    char joiner(NodeId node) const
    {
        if (node == root() || m_parent[node] == root())
            return 0;
        return m_delimiters.isSingle() ? m_delimiter : m_joiner[node];
    }
    // Whether the node's children follow more than one delimiter (`a:b` and `a/c`): its prefix is then its path
    // alone.
    bool hasMixedJoiners(NodeId node) const { return m_flags[node] & MixedJoiners; }

    // A hint from DBSIZE, so that the hash tables do not grow during a scan: growing one of ten million nodes stops
    // the GUI thread for a second. The first guess of nodes and segments per key is refined once the first percent
    // of the keys shows what this keyspace's keys bring.
    void reserve(std::size_t keys);

    enum class Insert { Added, Duplicate };
    // Adds a key; a key already present (SCAN may return a key twice) is left as it was. `node`, when
    // given, receives the key's node either way.
    Insert insert(QByteArrayView key, const KeyInfo& info, NodeId* node = nullptr);
    // Several keys at once (a scan's batch), with the nodes and outcomes insert() would give them one by one, in order.
    // Faster: in a store of millions of nodes nearly every lookup misses the cache, and here the lookups of the keys
    // a little ahead are started early, so that their misses overlap (see KeyspaceInsert.cpp).
    struct Arrival
    {
        QByteArrayView key;
        const KeyInfo* info = nullptr;
        NodeId node = InvalidNode;         // out
        Insert result = Insert::Duplicate; // out
    };
    void insert(std::span<Arrival> arrivals);

    // A key deleted or renamed away: its node stays (node ids are stable) but is no longer a key, and every ancestor's
    // aggregates lose it. Take its findings back first (lint::Linter::keyRemoved), or they stay counted.
    void removeKey(NodeId node);
    // What a key is now (a TTL set or removed, a value edited): every ancestor's aggregates follow.
    void updateKey(NodeId node, const KeyInfo& info);

    static constexpr NodeId root() { return RootNode; }
    std::size_t nodeCount() const { return m_parent.size(); }
    std::uint64_t keyCount() const { return stats(root()).keys; }

    NodeId parent(NodeId node) const { return m_parent[node]; }
    QByteArrayView segment(NodeId node) const { return m_segments.view(m_segment[node]); }

    // Segments by id: every distinct segment once, ids dense in the order the segments were first seen (and stored).
    // A test on segments is made once per distinct one, reading them in memory order, not once per node.
    SegmentId segmentId(NodeId node) const { return m_segment[node]; }
    std::size_t segmentCount() const { return m_segments.size(); }
    QByteArrayView segmentById(SegmentId id) const { return m_segments.view(id); }

    bool isKey(NodeId node) const { return m_flags[node] & IsKey; }
    KeyInfo keyInfo(NodeId node) const;
    // The cold threshold: a key idle for longer than `seconds` as of `asOfSeconds` (seconds since the epoch; a
    // scan's start) is cold. Changing it moves every key across it in every aggregate (one pass over the keys).
    // Until it is set, no key is cold.
    void setColdAfter(std::int64_t seconds, std::int64_t asOfSeconds);
    std::int64_t coldAfterSeconds() const { return m_coldAfter; }
    // The moment the threshold is counted from (the scan's start).
    std::int64_t coldAsOfSeconds() const { return m_coldBefore + m_coldAfter; }
    bool isCold(NodeId node) const { return isCold(access(node)); }
    KeyAccess access(NodeId node) const { return KeyAccess::fromWord(m_access[node]); }
    // keyInfo(node).expiresAtMs alone, for a pass over every key that needs nothing else (one array, not four).
    std::int64_t expiresAtMs(NodeId node) const { return m_expiry[node]; }
    // keyInfo(node).type alone, likewise.
    KeyType keyType(NodeId node) const { return m_type[node]; }

    bool hasChildren(NodeId node) const { return m_namespaceIndex[node] != InvalidNode; }
    // Empty aggregates for a node without children. By value: a small namespace adds its keys up when asked.
    NamespaceStats stats(NodeId node) const;
    // stats(node).memoryBytes and .keys without adding up the rest, for sorts over a million rows.
    std::uint64_t namespaceMemory(NodeId node) const;
    std::uint32_t namespaceKeys(NodeId node) const;
    std::vector<NodeId> children(NodeId node) const;
    // Calls onChild(child) for each child, newest first, without building a list.
    // A node's children one at a time (forEachChild in steps): InvalidNode after the last.
    NodeId firstChild(NodeId node) const
    {
        const std::uint32_t index = m_namespaceIndex[node];
        return index == InvalidNode ? InvalidNode : m_namespaces[index].newestChild;
    }
    NodeId nextSibling(NodeId node) const { return m_nextSibling[node]; }
    template<typename Callback> void forEachChild(NodeId node, Callback&& onChild) const
    {
        for (NodeId child = firstChild(node); child != InvalidNode; child = m_nextSibling[child])
            onChild(child);
    }
    // The child with `segment` after `joiner` (0: the primary delimiter, or none under the root).
    NodeId findChild(NodeId parent, QByteArrayView segment, char joiner = 0) const;
    // The node whose path is `path` (a key or a namespace without its trailing delimiter), or InvalidNode.
    NodeId find(QByteArrayView path) const;

    // The nodes with children numbered densely from 0 (the root), for side arrays over namespaces only
    // (a third of the nodes of a typical keyspace); InvalidNode for a node without children.
    std::uint32_t namespaceIndex(NodeId node) const { return m_namespaceIndex[node]; }
    std::size_t namespaceCount() const { return m_namespaces.size(); }

    // The node's path: for a key node, the exact key bytes.
    QByteArray path(NodeId node) const;
    // path(node).size(), without building it.
    std::size_t pathLength(NodeId node) const;
    // The prefix its namespace stands for: path + delimiter; empty for the root. For a namespace whose children
    // follow several delimiters, the path alone (a rename of it is still right; see namespaceGlob for a match).
    QByteArray namespacePrefix(NodeId node) const;
    // The glob of its namespace's keys, as SCAN MATCH reads it: `user:*`, `a[:/]*` for mixed children.
    QByteArray namespaceGlob(NodeId node) const;

    // Lint findings (see lint::Linter, which owns their meaning): a key has a bit per rule that fired on
    // it and the worst of their severities (0 info, 1 warning, 2 error); every ancestor counts them per
    // severity in its aggregates. Adding a rule's finding twice to one key counts it once.
    void addFinding(NodeId key, unsigned rule, unsigned severity);
    // Several findings of one key at once: the key's entry and its ancestors' counts are written once, not once per
    // finding (a million keys arrive with a finding or three each).
    struct FindingMark
    {
        unsigned rule;
        unsigned severity;
    };
    void addFindings(NodeId key, std::span<const FindingMark> findings);
    std::uint32_t findingRules(NodeId node) const;
    // Takes one finding back (a library's key is exempt from the naming rules after all): its rule bit,
    // and one count of `severity` on every ancestor.
    void removeFinding(NodeId key, unsigned rule, unsigned severity);
    // The worst severity of the key's own findings, or -1 without any.
    int worstFinding(NodeId node) const;
    // How many of the key's own findings have each severity.
    std::array<std::uint32_t, 3> findingsBySeverity(NodeId node) const;
    // A key the lint profile ignores (a library's own key): no rule looks at it.
    void setLintIgnored(NodeId key);
    bool isLintIgnored(NodeId node) const;
    // Whether a key was marked ignored since the last clearFindings(): a pass over every key skips the look per key.
    bool anyLintIgnored() const { return m_anyLintIgnored; }
    // Forgets every finding and ignore mark (a new profile is about to lint the store again).
    void clearFindings();

    // Counts the changes to what totals are made of (keys added, removed or updated, findings): a reader that
    // summed some on another thread can tell whether its sums still hold.
    std::uint64_t changes() const { return m_changes; }

    // Bytes held by the store's own arrays and tables (capacity, not size), for the memory benchmark.
    std::size_t memoryBytes() const;

private:
    enum Flag : std::uint8_t { IsKey = 1, MemoryMeasured = 2, MixedJoiners = 4, MemorySampled = 8 };
    static constexpr std::uint32_t MemoryOverflow = 0xffffffffu;

    NodeId addChild(NodeId parent, SegmentId segment, char joiner, std::size_t hash);
    // The steps of a batch's insert: its keys' segments split and interned, their nodes found (or added) a level at a
    // time, their infos stored in order.
    void splitSegments(std::span<const Arrival> arrivals);
    void internSegments();
    void walkDown(std::span<Arrival> arrivals);
    Insert store(NodeId node, const KeyInfo& info);
    // What lookupChild will compare for the first candidate at `hash`, asked for ahead of it.
    void prefetchCandidateNode(std::size_t hash) const;
    struct PendingSegment
    {
        QByteArrayView bytes;
        std::size_t hash; // of the bytes, then of the child (parent, segment, joiner) while walking down
        SegmentId id;
        char joiner;
    };
    std::vector<PendingSegment> m_pending;      // a batch's segments, key after key
    std::vector<std::uint32_t> m_segmentsStart; // by arrival, its first in m_pending; one more at the end
    std::vector<std::uint32_t> m_walking;       // the arrivals with segments left at the level walked
    void reserveTables(std::size_t nodes, std::size_t segments);
    void refineReserve();
    std::uint64_t m_changes = 0;
    std::size_t m_expectedKeys = 0;
    std::size_t m_refineAt = 0; // the key count at which refineReserve runs, or 0
    // The child of `parent` with `segment` after `joiner` (hash: childHash(parent, segment, joiner)), or InvalidNode.
    NodeId lookupChild(NodeId parent, SegmentId segment, char joiner, std::size_t hash) const;
    std::size_t nodeHash(NodeId node) const { return childHash(m_parent[node], m_segment[node], joiner(node)); }
    // A namespace adds its keys up when asked while it has at most this many children, none of them a namespace.
    static constexpr std::uint32_t SummedChildLimit = 8;
    // The kept aggregates of an ancestor, or nullptr for a small namespace that sums its keys when asked.
    NamespaceStats* keptStats(NodeId node);
    const NamespaceStats* keptStats(NodeId node) const;
    NamespaceStats sumOfChildren(NodeId node) const;
    // The first child under `node`: it becomes a namespace, and its parent, which now has a namespace below it, must
    // keep its aggregates (the sums only stay cheap over keys).
    void becomeNamespace(NodeId node);
    // Another child under a namespace: past a few, it keeps its aggregates from now on.
    void countChild(NodeId parent);
    void keepStats(NodeId node);
    void storeKeyInfo(NodeId node, const KeyInfo& info);
    static bool isColdBefore(KeyAccess access, std::int64_t coldBefore)
    {
        return access.hasIdleTime() && access.lastAccessSeconds() < coldBefore;
    }
    bool isCold(KeyAccess access) const { return isColdBefore(access, m_coldBefore); }
    // `info` with `cold` as this store's threshold makes it.
    KeyInfo classified(KeyInfo info) const
    {
        info.cold = isCold(info.access);
        return info;
    }
    std::size_t childHash(NodeId parent, SegmentId segment, char joiner) const;
    // The joiner a child of `parent` gets from the delimiter before its segment in a key.
    char joinerUnder(NodeId parent, char delimiter) const { return parent == root() ? 0 : delimiter; }

    Delimiters m_delimiters;
    char m_delimiter;
    SegmentPool m_segments;
    detail::IdHashTable m_childIndex; // (parent, segment) -> child

    // Parallel per-node arrays.
    detail::PagedArray<NodeId> m_parent;
    detail::PagedArray<SegmentId> m_segment;
    detail::PagedArray<NodeId> m_nextSibling;
    detail::PagedArray<std::uint32_t> m_namespaceIndex; // dense over nodes with children, or InvalidNode
    detail::PagedArray<std::uint8_t> m_flags;
    detail::PagedArray<char> m_joiner; // by node, only with several delimiters
    detail::PagedArray<KeyType> m_type;
    detail::PagedArray<std::uint32_t> m_memory; // MemoryOverflow: look in m_bigMemory
    detail::PagedArray<std::int64_t> m_expiry;
    detail::PagedArray<std::uint32_t> m_access; // KeyAccess words
    std::int64_t m_coldBefore = 0;              // last accessed before this time (seconds since the epoch): cold
    std::int64_t m_coldAfter = 0;
    std::unordered_map<NodeId, std::uint64_t> m_bigMemory;    // the rare key of 4 GiB or more
    std::unordered_map<NodeId, std::uint32_t> m_preallocated; // KeyInfo::preallocatedBytes: streams read from a file
    // Per node once the first finding is added, 32 bits: rule bits below IgnoredBit, then the ignore mark, then the
    // worst severity + 1 (two bits from FindingWorstShift); all the key's findings have that severity, so the rule
    // bits count them. A key whose findings mix severities has MixedMark set instead, and the rest is its index in
    // m_mixedFindings, which keeps its counts by severity. (Half the bytes of a 64-bit entry with the counts in it,
    // for most keys; no table to look up, or to rehash as a scan adds findings.)
    detail::PagedArray<std::uint32_t> m_findings;
    struct MixedFindings
    {
        std::uint32_t bits; // the rule bits and the ignore mark
        std::array<std::uint8_t, 3> counts;
    };
    detail::PagedArray<MixedFindings> m_mixedFindings;
    bool m_anyLintIgnored = false;
    static constexpr unsigned IgnoredBit = 27;
    static constexpr unsigned FindingWorstShift = 28;
    static constexpr std::uint32_t MixedMark = std::uint32_t(1) << 31;
    static bool isMixed(std::uint32_t entry) { return entry & MixedMark; }
    static std::uint32_t mixedIndex(std::uint32_t entry) { return entry & ~MixedMark; }
    // Of an entry that is not mixed: the severity all its findings have, or -1 without any.
    static int compactWorst(std::uint32_t entry) { return int(entry >> FindingWorstShift & 0x3) - 1; }
    static constexpr std::uint32_t RuleBits = (std::uint32_t(1) << IgnoredBit) - 1;
    std::uint32_t& findingEntry(NodeId node);
    std::uint32_t findingBits(NodeId node) const; // the rule bits and the ignore mark
    // Sets the rule bits, the ignore mark and the counts by severity of one key's findings.
    void setFindings(NodeId key, std::uint32_t bits, const std::array<std::uint32_t, 3>& counts);

    // By namespace index (only a namespace has children, and most nodes are keys without: 8 bytes a key saved against
    // an array over all nodes): its newest child, and where its aggregates are, an index into m_stats or, while it
    // sums its keys when asked, SummedMark plus its children so far (up to SummedChildLimit + 1). One entry, so that a
    // child added reads one place, not each sibling to count them. (m_stats has fewer entries than the store has
    // nodes, so an index never reaches SummedMark.)
    static constexpr std::uint32_t SummedMark = 0xffffff00u;
    struct NamespaceEntry
    {
        NodeId newestChild = InvalidNode;
        std::uint32_t stats = SummedMark;
    };
    detail::PagedArray<NamespaceEntry> m_namespaces;
    detail::PagedArray<NamespaceStats, 12> m_stats;
};

} // namespace keylens::keyspace
