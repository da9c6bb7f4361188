#pragma once

#include "history/Snapshot.h"
#include "keyspace/Keyspace.h"
#include "keyspace/SubtreeTotals.h"
#include "models/RowDelta.h"
#include "patterns/PatternTree.h"

#include <QHash>
#include <QString>

#include <optional>
#include <vector>

namespace keylens::models {

// The scan on screen compared with an earlier one (a snapshot, history::): what each namespace and pattern held
// then. Namespaces are matched by path (`session:`), patterns by text (`user:<int>:profile`), so the comparison
// holds across rescans. Immutable once made; shared by the trees, the details and the treemap.
class Comparison
{
public:
    // `label` names the earlier scan in tooltips and the details ("5 Dec 23:48").
    Comparison(history::Snapshot baseline, QString label);

    const history::Snapshot& baseline() const { return m_baseline; }
    const QString& label() const { return m_label; }

    // A namespace of the store (a node with children), against the earlier scan; a key, as ofKey.
    RowDelta ofNamespace(const keyspace::Keyspace& store, keyspace::NodeId node) const;
    // A key against the earlier scan's patterns, which count every key it found and name none (snapshots keep no key
    // names): a pattern spelled as the key itself that held one key was that key (Compared: an unchanged key says 0,
    // not nothing); where no pattern of that scan could have held the key (its words in order, a placeholder standing
    // for bytes, `<int>` for digits), the key was not there (New). Else the key was counted within a pattern of many
    // (`user:<int>`): Unknown, as a namespace the snapshot did not list. A key deleted here since the scan (a node
    // that is no key any more) is Gone where that scan had it as itself.
    RowDelta ofKey(const keyspace::Keyspace& store, keyspace::NodeId node) const;
    // The whole keyspace against the earlier scan's totals.
    RowDelta ofKeyspace(const keyspace::Keyspace& store) const;
    // A pattern row's whole subtree, as the pattern view totals it (history::isInPatternSubtree); `glued`: the
    // pattern is a level glued to the next (patterns::PatternTree::isPartial).
    RowDelta ofPatternSubtree(const keyspace::Keyspace& store, QByteArrayView pattern, bool glued,
                              std::uint64_t keysNow, std::uint64_t memoryNow) const;

    // The namespaces the earlier scan listed that the store does not have, under a parent it still has (a
    // vanished namespace's vanished children are not listed on their own): by parent, biggest first.
    struct Vanished
    {
        keyspace::NodeId parent = keyspace::Keyspace::root();
        QByteArray name; // its last segment
        QByteArray path; // as listed (`session:`)
        history::SnapshotStats before;
    };
    std::vector<Vanished> vanishedFrom(const keyspace::Keyspace& store) const;
    // The patterns the earlier scan listed that `tree` (an exact one) has not, each as the first of its levels the
    // tree lacks, below the deepest level it has: `drop:<int>` and `drop:<int>:meta` gone are one row `drop` at the
    // top, summing both. Matched by text, as ofPatternSubtree; by parent, biggest first.
    struct GonePattern
    {
        patterns::PatternTree::PatternId parent = patterns::PatternTree::Root;
        QByteArray name;               // its level (`drop`)
        QByteArray text;               // the pattern up to that level (`drop`)
        history::SnapshotStats before; // keys, memory and unmeasured keys of the patterns below it, summed
    };
    std::vector<GonePattern> gonePatterns(const patterns::PatternTree& tree) const;
    // A row of what the earlier scan had and this one has not (a vanished namespace, a gone pattern).
    RowDelta ofGone(const history::SnapshotStats& before, const keyspace::Keyspace& store) const;

    // Both scans measured every key's memory.
    bool memoryComparedWith(const keyspace::Keyspace& store) const;

private:
    std::optional<std::uint32_t> namespaceEntry(QByteArrayView path) const;
    // The earlier scan's pattern spelled as `key` itself, if it had one.
    const history::SnapshotStats* ownPatternOf(QByteArrayView key) const;
    // Whether a pattern of the earlier scan with a placeholder could have held `key`.
    bool foldedPatternCouldHold(QByteArrayView key) const;
    bool provesAbsent(const keyspace::Keyspace& store, keyspace::NodeId node) const;

    history::Snapshot m_baseline;
    QString m_label;
    QHash<QByteArray, std::uint32_t> m_namespaces; // path -> index in m_baseline.namespaces
    std::vector<std::uint32_t> m_patternsByText;   // indexes in m_baseline.patterns, by their text
    // The patterns with a placeholder, by their bytes before the first one (`user:` of `user:<int>`), and the lengths
    // of those: a key is held by none of them unless it starts with one of these.
    QHash<QByteArray, std::vector<std::uint32_t>> m_foldedByPrefix;
    std::vector<qsizetype> m_foldedPrefixLengths;
};

} // namespace keylens::models
