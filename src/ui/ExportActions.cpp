#include "ui/ExportActions.h"

#include "edit/KeySelection.h"
#include "models/ScanSession.h"
#include "models/SessionQueries.h"
#include "models/ValueInspector.h"
#include "ui/BrowserPane.h"

#include <QDateTime>
#include <QFileDialog>
#include <QMenu>
#include <QSaveFile>

namespace keylens::ui {

namespace {

bool writeWhole(const QString& path, const QByteArray& bytes, QString* problem)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        *problem = ExportActions::tr("Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace

ExportActions::ExportActions(QMenu* menu, QWidget* dialogParent, const models::ScanSession& session,
                             const BrowserPane& browser, models::ValueInspector* inspector)
    : QObject(menu)
    , m_session(session)
    , m_browser(browser)
    , m_inspector(inspector)
{
    const auto save = [this, dialogParent](const QString& title, const QString& filter, auto write) {
        const QString path = QFileDialog::getSaveFileName(dialogParent, title, QString(), filter);
        if (path.isEmpty())
            return;
        QString problem;
        Q_EMIT message(write(path, &problem) ? tr("Wrote %1").arg(path) : problem);
    };
    menu->addAction(tr("This node's table as &CSV…"), this, [this, save] {
        save(tr("Export the table as CSV"), tr("CSV (*.csv)"),
             [this](const QString& path, QString* problem) { return exportNodeTable(path, false, problem); });
    });
    menu->addAction(tr("This node's table as &JSON…"), this, [this, save] {
        save(tr("Export the table as JSON"), tr("JSON (*.json)"),
             [this](const QString& path, QString* problem) { return exportNodeTable(path, true, problem); });
    });
    menu->addAction(tr("The whole &tree as JSON…"), this, [this, save] {
        save(tr("Export the tree as JSON"), tr("JSON (*.json)"),
             [this](const QString& path, QString* problem) { return exportTree(path, problem); });
    });
    menu->addAction(tr("&Values of the keys below as JSON lines…"), this, [this, dialogParent] {
        const QString path =
            QFileDialog::getSaveFileName(dialogParent, tr("Export values"), QString(), tr("JSON lines (*.jsonl)"));
        if (!path.isEmpty())
            exportValues(path);
    });
    connect(m_inspector, &models::ValueInspector::exportProgress, this, [this](std::uint64_t done, std::uint64_t all) {
        Q_EMIT message(tr("Exporting values: %L1 of %L2 keys…").arg(done).arg(all));
    });
    connect(m_inspector, &models::ValueInspector::exportDone, this,
            [this](const QString&, const QString& text, bool ok) {
                Q_EMIT message(text);
                Q_EMIT valuesExported(text, ok);
            });
}

bool ExportActions::exportNodeTable(const QString& path, bool json, QString* problem) const
{
    return writeWhole(path, models::childrenTable(m_session, m_browser.selectedNode(), json), problem);
}

bool ExportActions::exportTree(const QString& path, QString* problem) const
{
    return writeWhole(path, models::treeReportJson(m_session, QDateTime::currentMSecsSinceEpoch()), problem);
}

void ExportActions::exportValues(const QString& path)
{
    const models::NodeRef node = m_browser.selectedNode();
    if (node.isNull()) {
        Q_EMIT valuesExported(tr("Select a key or a namespace first."), false);
        return;
    }
    edit::KeySelection selection = models::selectSubtree(m_session, node);
    Q_EMIT message(tr("Exporting the values of %L1 keys…").arg(selection.size()));
    m_inspector->requestExport(std::move(selection.keys), path);
}

} // namespace keylens::ui
