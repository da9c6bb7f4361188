#pragma once

#include "history/Snapshot.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <atomic>
#include <vector>

namespace keylens::history {

// Whether a pattern's keys (`text`, as a snapshot lists it) lie in the pattern tree below `pattern` or are its own: its
// text continues `pattern` after one of the delimiters, or right after it when `pattern` is a level glued to the next
// (patterns::PatternTree::isPartial). A pattern row of the browser totals its whole subtree; a snapshot lists each
// pattern's own keys, so a row's earlier figures are the sum of these.
bool isInPatternSubtree(QByteArrayView text, QByteArrayView pattern, QByteArrayView delimiters, bool glued);

// A server's snapshots over time, kept compact for a history chart: the figures of every namespace and pattern
// they list, by path, one point per snapshot that lists it. A hundred snapshots of ten thousand namespaces each are
// a few tens of MB as decoded snapshots and a fraction of that here.
class SnapshotSeries
{
public:
    struct Point
    {
        std::int64_t takenAtMs = 0;
        std::uint64_t keys = 0;
        std::uint64_t memoryBytes = 0;
        bool complete = false;       // the scan ran to its end (a partial one's figures are lower bounds)
        bool memoryMeasured = false; // every key's memory was measured in that scan
    };

    // Adds a snapshot; one of a time already held is skipped. Snapshots may come in any order.
    void add(const Snapshot& snapshot);
    // Every snapshot file of a SnapshotStore folder (SnapshotStore::folderOf), oldest first; those that cannot be
    // read are named in `unreadable` and skipped. A set `cancel` stops between two files.
    static SnapshotSeries readFolder(const QString& folder, QStringList* unreadable,
                                     const std::atomic<bool>* cancel = nullptr);

    std::size_t snapshots() const { return m_times.size(); }
    // Each snapshot's time, oldest first.
    std::vector<std::int64_t> times() const;
    // The whole keyspace, in every snapshot.
    std::vector<Point> ofKeyspace() const { return sorted(m_totals); }
    // A namespace (its path as the report says it, `session:`) or a pattern (`user:<int>:profile`), in the snapshots
    // that list it.
    std::vector<Point> ofNamespace(QByteArrayView path) const { return pointsOf(m_namespaces, path); }
    // A pattern's whole subtree (see isInPatternSubtree), in the snapshots that folded their keys.
    std::vector<Point> ofPatternSubtree(QByteArrayView pattern, bool glued) const;

private:
    static std::vector<Point> sorted(std::vector<Point> points);
    static std::vector<Point> pointsOf(const QHash<QByteArray, std::vector<Point>>& series, QByteArrayView path);

    std::vector<std::int64_t> m_times; // as added
    QHash<std::int64_t, std::size_t> m_indexOfTime;
    std::vector<QByteArray> m_delimiters; // each snapshot's, as added
    std::vector<bool> m_measured;         // each snapshot measured every key's memory, as added
    std::vector<bool> m_complete;
    std::vector<bool> m_hasPatterns; // the scan folded its keys
    std::vector<Point> m_totals;
    QHash<QByteArray, std::vector<Point>> m_namespaces;
    QHash<QByteArray, std::vector<Point>> m_patterns;
};

} // namespace keylens::history
