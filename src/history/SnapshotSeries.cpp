#include "history/SnapshotSeries.h"

#include "history/ReadSnapshot.h"

#include <QDir>

#include <algorithm>

namespace keylens::history {

bool isInPatternSubtree(QByteArrayView text, QByteArrayView pattern, QByteArrayView delimiters, bool glued)
{
    if (!text.startsWith(pattern))
        return false;
    if (text.size() == pattern.size() || glued)
        return true;
    return delimiters.contains(text[pattern.size()]);
}

void SnapshotSeries::add(const Snapshot& snapshot)
{
    if (m_indexOfTime.contains(snapshot.takenAtMs))
        return;
    m_indexOfTime.insert(snapshot.takenAtMs, m_times.size());
    m_times.push_back(snapshot.takenAtMs);
    m_delimiters.push_back(snapshot.delimiters);
    const bool measured = snapshot.totals.keysMemoryUnmeasured == 0;
    m_measured.push_back(measured);
    m_complete.push_back(snapshot.complete);
    m_hasPatterns.push_back(!snapshot.patterns.empty());
    const auto point = [&](const SnapshotStats& stats) {
        return Point{snapshot.takenAtMs, stats.keys, stats.memoryBytes, snapshot.complete, measured};
    };
    m_totals.push_back(point(snapshot.totals));
    for (const SnapshotNamespace& entry : snapshot.namespaces)
        m_namespaces[entry.path].push_back(point(entry.stats));
    for (const SnapshotPattern& entry : snapshot.patterns)
        m_patterns[entry.pattern].push_back(point(entry.stats));
}

SnapshotSeries SnapshotSeries::readFolder(const QString& folder, QStringList* unreadable,
                                          const std::atomic<bool>* cancel)
{
    SnapshotSeries series;
    const QStringList names = QDir(folder).entryList({QStringLiteral("*.kls")}, QDir::Files, QDir::Name);
    for (const QString& name : names) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            break;
        QString error;
        if (const std::optional<Snapshot> snapshot = readSnapshotOrReport(QDir(folder).filePath(name), &error))
            series.add(*snapshot);
        else if (unreadable)
            unreadable->append(error);
    }
    return series;
}

std::vector<std::int64_t> SnapshotSeries::times() const
{
    std::vector<std::int64_t> times = m_times;
    std::sort(times.begin(), times.end());
    return times;
}

std::vector<SnapshotSeries::Point> SnapshotSeries::sorted(std::vector<Point> points)
{
    std::sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.takenAtMs < b.takenAtMs; });
    return points;
}

std::vector<SnapshotSeries::Point> SnapshotSeries::ofPatternSubtree(QByteArrayView pattern, bool glued) const
{
    // Summed per snapshot (by its index in the order added) over the patterns of the subtree.
    std::vector<Point> sums(m_times.size());
    std::vector<bool> seen(m_times.size(), false);
    for (auto it = m_patterns.constBegin(); it != m_patterns.constEnd(); ++it) {
        if (!it.key().startsWith(pattern))
            continue;
        for (const Point& point : it.value()) {
            const std::size_t index = m_indexOfTime.value(point.takenAtMs);
            if (!isInPatternSubtree(it.key(), pattern, m_delimiters[index], glued))
                continue;
            sums[index].keys += point.keys;
            sums[index].memoryBytes += point.memoryBytes;
            seen[index] = true;
        }
    }
    std::vector<Point> points;
    for (std::size_t i = 0; i < m_times.size(); ++i) {
        // A snapshot that folded its keys and has none of the subtree's held none of them.
        if (!seen[i] && !m_hasPatterns[i])
            continue;
        points.push_back({m_times[i], sums[i].keys, sums[i].memoryBytes, m_complete[i], m_measured[i]});
    }
    return sorted(std::move(points));
}

std::vector<SnapshotSeries::Point> SnapshotSeries::pointsOf(const QHash<QByteArray, std::vector<Point>>& series,
                                                            QByteArrayView path)
{
    const auto found = series.constFind(path.toByteArray());
    return found == series.constEnd() ? std::vector<Point>() : sorted(*found);
}

} // namespace keylens::history
