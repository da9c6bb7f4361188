#pragma once

#include "keyspace/Keyspace.h"
#include "lint/SegmentShapes.h"

#include <QByteArray>

#include <cstdint>
#include <functional>
#include <unordered_set>
#include <vector>

namespace keylens::lint {

// The spelling patterns (Spelling.h) of a store's keys, for naming-variants: `user:<int>:profile` for
// `user:42:profile`.
//
// Built in one pass over the store's nodes, parents before children, as a trie of spelled segments: each
// node's own segment is spelled once (not once per key below it), and a pattern is kept once however many
// keys share it. Only namespaces keep their pattern (a third of the nodes); a key's own pattern is its
// namespace's and one more spelled segment, found again on demand (patternOfKey). A keyspace of unique
// words makes a pattern per key, so past `maximumPatterns` new patterns are not kept, and their keys
// have NoPattern.
//
// A snapshot: nodes added to the store afterwards are not in it.
class PatternIndex
{
public:
    using PatternId = std::uint32_t;
    static constexpr PatternId NoPattern = 0xffffffffu;

    // `shapes`, when given, holds the store's segments classified already (and must outlive the index). `eachKey`, when
    // given, hears of every key counted with its pattern, as the index is built (RoleEvidence's facts).
    using KeyVisitor = std::function<void(keyspace::NodeId key, PatternId pattern)>;
    PatternIndex(const keyspace::Keyspace& store, std::size_t maximumPatterns, const SegmentShapes* shapes = nullptr,
                 const KeyVisitor& eachKey = {});
    PatternIndex(const PatternIndex&) = delete; // its hash set refers to it
    PatternIndex& operator=(const PatternIndex&) = delete;

    // Patterns are numbered 1 .. patternCount() - 1 (0 is the empty pattern of the root). A pattern is a
    // key's whole pattern or a prefix of one (or both).
    std::size_t patternCount() const { return m_entries.size(); }
    // The keys of the pattern, but those the lint profile ignores.
    std::uint32_t keys(PatternId pattern) const { return m_entries[pattern].keys; }
    PatternId parentOf(PatternId pattern) const { return m_entries[pattern].parent; }
    // wordsHashOf() summed over the pattern's segments: equal for patterns with the same words.
    std::uint64_t wordsHash(PatternId pattern) const { return m_entries[pattern].wordsHash; }
    // The pattern's levels joined by the store's delimiter.
    QByteArray text(PatternId pattern) const;

    // The pattern of a namespace's path, and of a key.
    PatternId patternOfNamespace(keyspace::NodeId node) const;
    PatternId patternOfKey(keyspace::NodeId key); // not const: it spells into a scratch buffer

    // Whether maximumPatterns was reached.
    bool isCapped() const { return m_capped; }

private:
    struct Entry
    {
        PatternId parent;
        std::uint32_t offset; // of the spelled segment in m_bytes
        std::uint32_t length;
        std::uint32_t keys;
        std::uint64_t wordsHash;
    };
    // A pattern being looked up: a parent pattern and one more spelled segment.
    struct Probe
    {
        PatternId parent;
        QByteArrayView segment;
    };
    struct Hash
    {
        using is_transparent = void;
        const PatternIndex* index;
        std::size_t operator()(PatternId id) const { return (*this)(index->probeOf(id)); }
        std::size_t operator()(const Probe& probe) const;
    };
    struct Equal
    {
        using is_transparent = void;
        const PatternIndex* index;
        bool operator()(PatternId a, PatternId b) const { return a == b; }
        bool operator()(const Probe& a, PatternId b) const;
        bool operator()(PatternId a, const Probe& b) const { return (*this)(b, a); }
    };

    Probe probeOf(PatternId id) const;
    // The pattern of the node's segment under `parent`, added when `add` and the cap allows.
    PatternId childPattern(PatternId parent, keyspace::NodeId node, bool add);

    const keyspace::Keyspace& m_store;
    const SegmentShapes* m_shapes;
    std::size_t m_maximumPatterns;
    std::vector<Entry> m_entries;
    QByteArray m_bytes; // every pattern's last spelled segment, end to end
    std::unordered_set<PatternId, Hash, Equal> m_patterns;
    std::vector<PatternId> m_namespacePattern; // by Keyspace::namespaceIndex()
    QByteArray m_spelled;                      // scratch, so spelling a segment allocates nothing
    bool m_capped = false;
};

} // namespace keylens::lint
