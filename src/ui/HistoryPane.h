#pragma once

#include "base/WorkerJob.h"
#include "history/SnapshotSeries.h"

#include <QWidget>

#include <memory>
#include <vector>

class QCustomPlot;
class QLabel;

namespace keylens::ui {

// The History tab: the memory and keys of the selected namespace (or pattern, or the whole keyspace when nothing is
// selected) across every snapshot of this server, on a time axis, each snapshot's time marked. The snapshots are read
// on a worker when the server changes and again after each scan (history::SnapshotSeries keeps their figures by path).
class HistoryPane : public QWidget
{
    Q_OBJECT
public:
    explicit HistoryPane(QWidget* parent = nullptr);
    ~HistoryPane() override;

    // The server's snapshot folder (history::SnapshotStore::folderOf): read now. `newest`, the scan just taken,
    // counts even before the writer has put it there.
    void setFolder(const QString& folder, std::shared_ptr<const history::Snapshot> newest = nullptr);

    enum class Subject { Keyspace, Namespace, Pattern };
    // `path`: a namespace as the report says it (`session:`) or a pattern's text (its whole subtree, as the pattern
    // view totals it; `glued`: see history::isInPatternSubtree).
    void showSubject(Subject subject, const QByteArray& path = {}, bool glued = false);

    // What the chart shows, for tests and the title.
    const std::vector<history::SnapshotSeries::Point>& points() const { return m_points; }
    std::size_t snapshots() const { return m_series.snapshots(); }
    bool isReading() const { return m_reading.isRunning(); }
    QCustomPlot* plot() const { return m_plot; }
    QString title() const;

Q_SIGNALS:
    void snapshotsRead();

private:
    void redraw();

    QLabel* m_title;
    QLabel* m_note;
    QCustomPlot* m_plot;
    QString m_folder;
    QString m_source; // where the snapshots were read, or which could not be
    history::SnapshotSeries m_series;
    std::vector<history::SnapshotSeries::Point> m_points;
    Subject m_subject = Subject::Keyspace;
    QByteArray m_path;
    bool m_glued = false;
    base::WorkerJob m_reading{QStringLiteral("keylens snapshot history"), this};
};

} // namespace keylens::ui
