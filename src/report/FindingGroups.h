#pragma once

#include "keyspace/Keyspace.h"
#include "keyspace/Units.h"
#include "lint/LibraryLayouts.h"
#include "lint/Rules.h"

#include <QByteArray>

#include <cstdint>
#include <memory>
#include <vector>

namespace keylens::patterns {
class PatternTree;
}

namespace keylens::report {

// The findings of one rule on the keys of one pattern: what a person reads and acts on, where ten thousand keys
// with the same finding are one thing to fix, not ten thousand.
struct FindingGroup
{
    const lint::RuleInfo* rule = nullptr;
    QByteArray pattern; // the pattern's text, as the pattern view and the JSON's "patterns" write it
    std::uint64_t keys = 0;
    keyspace::MemoryFigure memory;
    const lint::LibraryInfo* library = nullptr; // of the pattern's first key with the finding
};

// Every finding recorded in a store, grouped by rule and by the pattern of its key (patterns/PatternTree.h).
class FindingGroups
{
public:
    FindingGroups(const keyspace::Keyspace& store, const lint::LibraryLayouts& libraries);
    ~FindingGroups();
    FindingGroups(FindingGroups&&) noexcept;

    // By rule (in allRules() order), then by keys, most first.
    const std::vector<FindingGroup>& groups() const { return m_groups; }
    // The distinct patterns that hold a finding ("15,706 findings in 212 patterns").
    std::uint64_t patternCount() const { return m_patternCount; }
    // The pattern of a key (or namespace) in the store; empty for one not in it.
    QByteArray patternOf(QByteArrayView key) const;

private:
    const keyspace::Keyspace* m_store;
    std::unique_ptr<patterns::PatternTree> m_tree;
    std::vector<FindingGroup> m_groups;
    std::uint64_t m_patternCount = 0;
};

} // namespace keylens::report
