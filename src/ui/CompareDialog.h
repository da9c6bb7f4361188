#pragma once

#include "base/WorkerJob.h"
#include "history/Snapshot.h"

#include <QDialog>

#include <memory>
#include <optional>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace keylens::models {
class Comparison;
}

namespace keylens::ui {

// "Compare with…": picks the earlier scan the window's is compared with: one of this server's snapshots (newest
// first, with its date, whether the scan was complete, its keys and memory), or a snapshot or JSON report file.
// The figures are read on a worker: a hundred snapshots of a big keyspace are a second of decompressing.
class CompareDialog : public QDialog
{
    Q_OBJECT
public:
    // `folder`: the server's snapshot folder (history::SnapshotStore::folderOf), or empty when no scan named the
    // server yet (then only a file can be chosen). `currentScanMs`: the scan on screen, marked in the list.
    CompareDialog(const QString& folder, std::int64_t currentScanMs, QWidget* parent = nullptr);
    ~CompareDialog() override;

    // The comparison chosen (after exec() accepted), or none; a file that cannot be read says why and is not chosen.
    std::shared_ptr<const models::Comparison> comparison() const { return m_comparison; }

    // How the window names a scan by its time: "5 Dec 23:48" (with the year when it is not this one's).
    static QString labelOf(std::int64_t takenAtMs);

private:
    void readFigures(const QStringList& paths);
    bool choose(const QString& path);
    void openFile();

    QTreeWidget* m_list;
    QLabel* m_note;
    QPushButton* m_compare;
    base::WorkerJob m_reading{QStringLiteral("keylens snapshot list"), this};
    std::shared_ptr<const models::Comparison> m_comparison;
};

} // namespace keylens::ui
