#pragma once

#include "keyspace/Keyspace.h"
#include "keyspace/PagedArray.h"
#include "keyspace/SubtreeTotals.h"
#include "patterns/LabelTable.h"

#include <QByteArray>

#include <atomic>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace keylens::patterns {

struct PatternTreeOptions
{
    std::size_t collapseAbove = 20; // siblings of one shape above this collapse, whatever their share
    // Set by another thread to stop a build early (its store is about to go); the tree is then partial.
    const std::atomic<bool>* cancelled = nullptr;
};

// The keyspace folded on its ids: siblings that are ids of one shape (lint/SegmentShape.h) become one
// placeholder node, `user:<int>:profile` for `user:1:profile`, `user:2:profile`, …; so do siblings with
// an id glued to one word (`userSettings_<int>`, `SKU<int>`). Siblings collapse when more than `collapseAbove` share
// the shape, or when they are most of their parent's children. Below a placeholder, the children of all
// its members are siblings: `profile` under `user:<int>` stands for every `user:N:profile`.
//
// A segment that joins words and ids with other delimiters (`LIMITER/192.0.2.7/hour`, `user_17_profile`; see
// lint/SegmentUnits.h) is folded unit by unit, a level per unit: `LIMITER/` → `<ip>/` → `hour`. Such a level is
// *partial*: its label ends with the inner delimiter, its members are the store nodes whose segment goes on, and
// those nodes' own pattern is the level that ends their segment. text() joins a partial level to the next without
// the store delimiter, so a pattern's text still matches its keys.
//
// Every store node belongs to exactly one pattern, so the patterns that hold keys partition the keys.
// Built level by level from the root, without recursion. A snapshot: nodes added to the store
// afterwards are not in it.
//
// Live, while a scan adds nodes: folding() starts a tree that extend() grows one node at a time, in node
// id order (a parent before its children), so the nodes a scan added since the last call cost only
// themselves. There every id folds, few or many: a threshold could not be decided before the last
// sibling arrived. The exact tree is built once the store stops growing.
class PatternTree
{
public:
    using PatternId = std::uint32_t;
    static constexpr PatternId Root = 0; // zero: what fresh pages of m_patternOf hold

    using Options = PatternTreeOptions;
    // The totals of a pattern's subtree: its members' subtrees, which do not overlap, added up.
    using Totals = keyspace::SubtreeTotals;

    explicit PatternTree(const keyspace::Keyspace& store, Options options = Options());
    // A live tree of the root only; see extend().
    static PatternTree folding(const keyspace::Keyspace& store);
    // Folds the store's nodes from foldedNodes() up to `until` (a live tree only).
    void extend(std::size_t until);
    // The nodes below this have a pattern: the store's nodes when an exact tree was built, those folded
    // so far in a live one.
    std::size_t foldedNodes() const { return m_folded; }
    bool isLive() const { return m_live; }

    std::size_t size() const { return m_patterns.size(); }
    PatternId parent(PatternId pattern) const { return m_patterns[pattern].parent; }
    const std::vector<PatternId>& children(PatternId pattern) const { return m_patterns[pattern].children; }
    // The level's own text: a segment, a placeholder (`<int>`), or a word with a glued placeholder.
    const QByteArray& label(PatternId pattern) const { return m_patterns[pattern].label; }
    bool isPlaceholder(PatternId pattern) const { return m_patterns[pattern].placeholder; }
    // A level inside its members' segments (see above): no node's own pattern, so it owns no keys.
    bool isPartial(PatternId pattern) const { return m_patterns[pattern].nextUnit > 0; }
    // The delimiter before the level's label: its members' joiner (Keyspace::joiner); 0 at the top and after a
    // partial level. Siblings that follow different delimiters (`a:b` and `a/b`) are different patterns.
    char joiner(PatternId pattern) const { return m_patterns[pattern].joiner; }
    // The whole pattern, its levels joined by their delimiters (empty for the root).
    QByteArray text(PatternId pattern) const;
    const keyspace::Keyspace& store() const { return *m_store; }
    // The store nodes the pattern stands for (the root's is the store's root).
    const std::vector<keyspace::NodeId>& members(PatternId pattern) const { return m_patterns[pattern].members; }
    // Members that are keys: the keys whose pattern this is.
    std::uint64_t ownKeys(PatternId pattern) const;
    Totals totals(PatternId pattern) const;
    // The same over members [from, to) only, for a caller that sums a big pattern in steps.
    Totals totals(PatternId pattern, std::size_t fromMember, std::size_t toMember) const;
    // The pattern of a node (folded already, in a live tree).
    PatternId patternOf(keyspace::NodeId node) const { return m_patternOf[node]; }
    // The pattern with that text, or none.
    std::optional<PatternId> find(QByteArrayView text) const;
    // The deepest pattern whose text begins `text` (whole levels), and how many of its bytes that is: a pattern an
    // earlier scan had and this tree has not hangs below it (models::Comparison::gonePatterns).
    struct Prefix
    {
        PatternId pattern = Root;
        qsizetype length = 0;
    };
    Prefix longestPrefix(QByteArrayView text) const;

private:
    struct Pattern
    {
        PatternId parent;
        QByteArray label;
        bool placeholder = false;
        std::vector<keyspace::NodeId> members;
        // A partial level's: the index of its members' next segment unit; 0 for a level that ends a segment.
        std::uint16_t nextUnit = 0;
        std::vector<PatternId> children;
        // Live: a big pattern's members grow into room made on the page worker (`user:<int>`'s doubling from 4 to
        // 8 MB was a 50 ms fold slice at ten million keys).
        keyspace::detail::RoomAhead<keyspace::NodeId> membersAhead;
        // A partial level whose members' next units differ (an IPv4 of one segment beside an IPv6 split over levels,
        // both `<ip>/`): each member's, in members' order; empty when all are nextUnit.
        std::vector<std::uint16_t> memberUnits;
        char joiner = 0;
    };
    struct LiveTag
    {};
    PatternTree(const keyspace::Keyspace& store, LiveTag);
    void split(PatternId pattern, std::vector<PatternId>& next);

    const keyspace::Keyspace* m_store;
    Options m_options;
    std::vector<Pattern> m_patterns;
    // By store node. Paged: in a live tree it grows with the scan, and a vector doubling from 32 to 64 MB at ten
    // million keys was hundreds of milliseconds of the GUI thread.
    keyspace::detail::PagedArray<PatternId> m_patternOf;
    bool m_live = false;
    std::size_t m_folded = 1; // nodes below this have a pattern (the root always has)
    // Live: a pattern's child by (pattern << 32 | label id), one table per joiner (most stores have one).
    std::unordered_map<char, std::unordered_map<std::uint64_t, PatternId>> m_childByLabel;
    LabelTable m_labels;
};

} // namespace keylens::patterns
