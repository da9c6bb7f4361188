#pragma once

#include "keyspace/Keyspace.h"
#include "keyspace/SubtreeTotals.h"

#include <QByteArray>

#include <cstdint>
#include <vector>

namespace keylens::patterns {

struct PatternTreeOptions
{
    std::size_t collapseAbove = 20; // siblings of one shape above this collapse, whatever their share
};

// The keyspace folded on its ids: siblings that are ids of one shape (lint/SegmentShape.h) become one
// placeholder node, `user:<int>:profile` for `user:1:profile`, `user:2:profile`, …; so do siblings with
// an id glued to one word (`userSettings_<int>`, `SKU<int>`). Siblings collapse when more than `collapseAbove` share
// the shape, or when they are most of their parent's children. Below a placeholder, the children of all
// its members are siblings: `profile` under `user:<int>` stands for every `user:N:profile`.
//
// Every store node belongs to exactly one pattern, so the patterns that hold keys partition the keys.
// Built level by level from the root, without recursion. A snapshot: nodes added to the store
// afterwards are not in it.
class PatternTree
{
public:
    using PatternId = std::uint32_t;
    static constexpr PatternId Root = 0;

    using Options = PatternTreeOptions;
    // The totals of a pattern's subtree: its members' subtrees, which do not overlap, added up.
    using Totals = keyspace::SubtreeTotals;

    explicit PatternTree(const keyspace::Keyspace& store, Options options = Options());

    std::size_t size() const { return m_patterns.size(); }
    PatternId parent(PatternId pattern) const { return m_patterns[pattern].parent; }
    const std::vector<PatternId>& children(PatternId pattern) const { return m_patterns[pattern].children; }
    // The level's own text: a segment, a placeholder (`<int>`), or a word with a glued placeholder.
    const QByteArray& label(PatternId pattern) const { return m_patterns[pattern].label; }
    bool isPlaceholder(PatternId pattern) const { return m_patterns[pattern].placeholder; }
    // The whole pattern, its levels joined by the store's delimiter (empty for the root).
    QByteArray text(PatternId pattern) const;
    // The store nodes the pattern stands for (the root's is the store's root).
    const std::vector<keyspace::NodeId>& members(PatternId pattern) const { return m_patterns[pattern].members; }
    // Members that are keys: the keys whose pattern this is.
    std::uint64_t ownKeys(PatternId pattern) const;
    Totals totals(PatternId pattern) const;
    PatternId patternOf(keyspace::NodeId node) const { return m_patternOf[node]; }

private:
    struct Pattern
    {
        PatternId parent;
        QByteArray label;
        bool placeholder = false;
        std::vector<keyspace::NodeId> members;
        std::vector<PatternId> children;
    };
    void split(PatternId pattern, std::vector<PatternId>& next);

    const keyspace::Keyspace& m_store;
    Options m_options;
    std::vector<Pattern> m_patterns;
    std::vector<PatternId> m_patternOf; // by store node
};

} // namespace keylens::patterns
