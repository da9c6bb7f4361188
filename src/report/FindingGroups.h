#pragma once

#include "keyspace/Keyspace.h"
#include "keyspace/Units.h"
#include "lint/FamilyConventions.h"
#include "lint/LibraryLayouts.h"
#include "lint/Rules.h"
#include "lint/SegmentShapes.h"
#include "patterns/LabelTable.h"

#include <QByteArray>

#include <array>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace keylens::report {

// The findings of one rule on the keys of one pattern: what a person reads and acts on, where ten thousand keys
// with the same finding are one thing to fix, not ten thousand.
struct FindingGroup
{
    const lint::RuleInfo* rule = nullptr;
    QByteArray pattern; // every id of the key folded (`user:<int>:profile`), as the live pattern view folds it
    std::uint64_t keys = 0;
    keyspace::MemoryFigure memory;
    const lint::LibraryInfo* library = nullptr; // of the pattern's first key with the finding
};

// Every finding recorded in a store, grouped by rule and by the pattern of its key: each segment folded on its own
// (lint::patternOf, ids of every shape and those inside segments), a namespace's pattern once for all its keys.
// Not the exact pattern tree, whose sparse ids stay literal: a million-key lint paid a second for building it.
class FindingGroups
{
public:
    // `shapes`, when given, holds the store's segments classified already (lint/SegmentShapes.h). `covered`: the
    // findings that stand for many keys (a family's, a pattern's: lint::Linter::coveredFindings), counted as the keys
    // and memory they cover, not as the one key they are recorded on.
    FindingGroups(const keyspace::Keyspace& store, const lint::LibraryLayouts& libraries,
                  const lint::SegmentShapes* shapes = nullptr, const std::vector<lint::CoveredFinding>& covered = {});
    // Built in steps (the window's Findings panel, a slice of the GUI thread at a time): nothing is grouped until
    // step() has gone over the store. The store must outlive the steps; the libraries and covered findings are copied.
    struct Stepwise
    {};
    FindingGroups(const keyspace::Keyspace& store, const lint::LibraryLayouts& libraries, Stepwise,
                  const std::vector<lint::CoveredFinding>& covered = {});
    // Groups the findings of the next `nodes` nodes; true once every node is (then groups() is complete).
    bool step(std::size_t nodes);

    // By rule (in allRules() order), then by keys, most first.
    const std::vector<FindingGroup>& groups() const { return m_groups; }
    // The distinct patterns that hold a finding ("15,706 findings in 212 patterns").
    std::uint64_t patternCount() const { return m_patternCount; }
    // The pattern of a key (or namespace) in the store; empty for one not in it. Not const: it folds the key's
    // namespaces not folded yet, as grouping does.
    QByteArray patternOf(QByteArrayView key);

private:
    static constexpr std::uint32_t RootPattern = 0;
    // Groups the findings of the nodes up to `end`.
    void group(keyspace::NodeId end);
    // Adds the groups of later nodes (grouped by another FindingGroups) to these.
    void mergeGroups(std::vector<FindingGroup>& later);
    // Once every node is grouped: the patterns counted, the groups sorted.
    void conclude();
    std::uint32_t childPattern(std::uint32_t parent, keyspace::NodeId node);
    // The label id of a node's segment, folded (ids are their placeholder).
    std::uint32_t labelOf(keyspace::NodeId node);
    // The pattern `label` below `parent`, after the store's delimiter or (`joined`) right after its text.
    std::uint32_t labelledPattern(std::uint32_t parent, QByteArrayView label, bool joined = false);
    std::uint32_t labelledPattern(std::uint32_t parent, std::uint32_t label, bool joined = false);
    // An IPv6 address that the store's ':' split into levels, from `start` (patterns/SplitAddresses.h): the pattern
    // of its levels, with the patterns of the levels where it ends kept in m_addressPattern; nothing for no address.
    std::optional<std::uint32_t> addressPattern(std::uint32_t parent, keyspace::NodeId start);
    std::uint32_t patternIdOf(keyspace::NodeId node);

    const keyspace::Keyspace* m_store;
    const lint::SegmentShapes* m_shapes = nullptr; // or none: each segment is classified when asked
    lint::LibraryLayouts m_libraries;
    // The covered findings by node << 8 | rule: the keys and memory each stands for.
    std::unordered_map<std::uint64_t, std::pair<std::uint64_t, keyspace::MemoryFigure>> m_covered;
    keyspace::NodeId m_next = 1;                                 // the next node step() looks at
    std::unordered_map<std::uint64_t, std::size_t> m_groupIndex; // (rule, pattern) -> index in m_groups
    // A pattern is its parent pattern and one more label: its text is made when a group needs it (patternText()), so
    // that a key of 100,000 segments costs 100,000 links, not 100,000 ever longer copies of its prefix (5 GB).
    struct PatternLink
    {
        std::uint32_t parent = 0;
        std::uint32_t label = 0;
        bool joined = false;
    };
    std::vector<PatternLink> m_patternLinks; // by pattern id; [RootPattern] is the empty text
    QByteArray patternText(std::uint32_t pattern) const;
    patterns::LabelTable m_labels;                                   // the folded labels, interned
    std::unordered_map<std::uint64_t, std::uint32_t> m_childPattern; // parent pattern << 32 | label id -> pattern
    std::unordered_map<keyspace::SegmentId, std::uint32_t>
        m_wordLabel; // a word without ids, by segment id -> its label id
    // By the store's namespace index: each namespace folded once. 4 bytes a namespace; a hash map of them cost a
    // million-key lint 6 bytes of peak memory per key.
    static constexpr std::uint32_t Unknown = 0xffffffffu;
    std::vector<std::uint32_t> m_namespacePattern;
    std::array<std::uint32_t, std::size_t(lint::Shape::Count)> m_placeholderLabel; // by shape; Unknown until asked
    std::unordered_map<keyspace::NodeId, std::uint32_t> m_addressPattern;          // the levels of split IPv6 addresses
    std::vector<keyspace::NodeId> m_chain; // patternIdOf's way up, kept: it ran once per finding
    std::vector<FindingGroup> m_groups;
    std::uint64_t m_patternCount = 0;
};

} // namespace keylens::report
