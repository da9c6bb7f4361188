#include "ui/CompareDialog.h"

#include "history/ReadSnapshot.h"
#include "history/SnapshotStore.h"
#include "keyspace/Units.h"
#include "models/Comparison.h"
#include "models/DisplayText.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace keylens::ui {

using models::displayText;

namespace {

enum Column { WhenColumn, ScanColumn, KeysColumn, MemoryColumn };
constexpr int PathRole = Qt::UserRole + 1;

} // namespace

QString CompareDialog::labelOf(std::int64_t takenAtMs)
{
    const QDateTime when = QDateTime::fromMSecsSinceEpoch(takenAtMs);
    const bool thisYear = when.date().year() == QDate::currentDate().year();
    // To the second: two scans within a minute (a rescan after a fix) were two rows of the same time.
    return QLocale().toString(when,
                              thisYear ? QStringLiteral("d MMM HH:mm:ss") : QStringLiteral("d MMM yyyy HH:mm:ss"));
}

CompareDialog::CompareDialog(const QString& folder, std::int64_t currentScanMs, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Compare with an earlier scan"));
    auto* intro = new QLabel(tr("The tree and the patterns get Δ Keys and Δ Memory columns against the scan chosen "
                                "here; namespaces and patterns gone since then are shown struck out."));
    intro->setWordWrap(true);

    m_list = new QTreeWidget;
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAlternatingRowColors(true);
    m_list->setHeaderLabels({tr("Scanned"), tr("Scan"), tr("Keys"), tr("Memory")});
    m_list->header()->setSectionResizeMode(WhenColumn, QHeaderView::Stretch);
    m_list->header()->setStretchLastSection(false);
    for (const int column : {ScanColumn, KeysColumn, MemoryColumn})
        m_list->header()->setSectionResizeMode(column, QHeaderView::ResizeToContents);

    m_note = new QLabel;
    m_note->setWordWrap(true);
    m_note->setEnabled(false);

    QStringList paths;
    if (!folder.isEmpty()) {
        // Newest first: the last scan before this one is the usual question.
        std::vector<history::SnapshotStore::Entry> entries = history::SnapshotStore::entriesIn(folder);
        std::reverse(entries.begin(), entries.end());
        for (const history::SnapshotStore::Entry& entry : entries) {
            auto* item = new QTreeWidgetItem(m_list);
            QString when = labelOf(entry.takenAtMs);
            if (entry.takenAtMs == currentScanMs)
                when += tr(" (this scan)");
            item->setText(WhenColumn, when);
            item->setToolTip(WhenColumn, QDir::toNativeSeparators(entry.path));
            item->setText(ScanColumn, entry.complete ? tr("complete") : tr("partial"));
            item->setData(WhenColumn, PathRole, entry.path);
            item->setTextAlignment(KeysColumn, Qt::AlignRight | Qt::AlignVCenter);
            item->setTextAlignment(MemoryColumn, Qt::AlignRight | Qt::AlignVCenter);
            paths << entry.path;
        }
    }
    if (paths.isEmpty())
        m_note->setText(folder.isEmpty() ? tr("No scan of this server has ended yet: choose a file.")
                                         : tr("No earlier scan of this server and database is kept (%1): choose a "
                                              "file, or scan again later.")
                                               .arg(QDir::toNativeSeparators(folder)));
    else
        m_note->setText(tr("Every scan is kept in %1.").arg(QDir::toNativeSeparators(folder)));
    // The one before the scan on screen is the likely choice.
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        if (!m_list->topLevelItem(i)->text(WhenColumn).endsWith(tr(" (this scan)"))) {
            m_list->setCurrentItem(m_list->topLevelItem(i));
            break;
        }
    }

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    m_compare = buttons->addButton(tr("Compare"), QDialogButtonBox::AcceptRole);
    m_compare->setDefault(true);
    m_compare->setEnabled(m_list->currentItem() != nullptr);
    QPushButton* file = buttons->addButton(tr("Open file…"), QDialogButtonBox::ActionRole);
    file->setToolTip(tr("A snapshot (keylens-cli scan --snapshot) or a JSON report (keylens-cli scan --format json)"));
    connect(file, &QPushButton::clicked, this, &CompareDialog::openFile);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_compare, &QPushButton::clicked, this, [this] {
        if (const QTreeWidgetItem* item = m_list->currentItem();
            item && choose(item->data(WhenColumn, PathRole).toString()))
            accept();
    });
    connect(m_list, &QTreeWidget::currentItemChanged, this,
            [this](QTreeWidgetItem* current) { m_compare->setEnabled(current != nullptr); });
    connect(m_list, &QTreeWidget::itemActivated, m_compare, &QPushButton::click);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_list, 1);
    layout->addWidget(m_note);
    layout->addWidget(buttons);
    resize(560, 420);
    readFigures(paths);
}

CompareDialog::~CompareDialog() = default;

void CompareDialog::readFigures(const QStringList& paths)
{
    if (paths.isEmpty())
        return;
    struct Figures
    {
        QString keys;
        QString memory;
    };
    auto figures = std::make_shared<std::vector<Figures>>(std::size_t(paths.size()));
    m_reading.start(
        [paths, figures, cancel = &m_reading.cancelFlag()] {
            for (qsizetype i = 0; i < paths.size() && !cancel->load(); ++i) {
                QString error;
                if (const std::optional<history::Snapshot> snapshot = history::readSnapshotOrReport(paths[i], &error))
                    (*figures)[std::size_t(i)] = {displayText(keyspace::formatCount(snapshot->totals.keys)),
                                                  displayText(keyspace::formatBytes(snapshot->totals.memoryBytes))};
                else
                    (*figures)[std::size_t(i)] = {tr("unreadable"), QString()};
            }
        },
        [this, figures] {
            for (int i = 0; i < m_list->topLevelItemCount() && std::size_t(i) < figures->size(); ++i) {
                m_list->topLevelItem(i)->setText(KeysColumn, (*figures)[std::size_t(i)].keys);
                m_list->topLevelItem(i)->setText(MemoryColumn, (*figures)[std::size_t(i)].memory);
            }
        });
}

bool CompareDialog::choose(const QString& path)
{
    QString error;
    std::optional<history::Snapshot> snapshot = history::readSnapshotOrReport(path, &error);
    if (!snapshot) {
        QMessageBox::warning(this, windowTitle(), error);
        return false;
    }
    const QString label = labelOf(snapshot->takenAtMs);
    m_comparison = std::make_shared<models::Comparison>(std::move(*snapshot), label);
    return true;
}

void CompareDialog::openFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Compare with a scan"), QString(),
                                                      tr("Snapshots and JSON reports (*.kls *.json);;All files (*)"));
    if (!path.isEmpty() && choose(path))
        accept();
}

} // namespace keylens::ui
