// The main window's edits: copy and delete the selected key, a new key, bulk actions over the selected node's keys
// (or pattern, or a rule's findings), and the store following what every edit did, so that the tree, its overlays
// and the findings are right without a rescan (ScanSession::keysAre, bulkActionDone).
#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "lint/Linter.h"
#include "lint/Rules.h"
#include "models/DisplayText.h"
#include "models/PatternTreeModel.h"
#include "models/ScanSession.h"
#include "models/SessionQueries.h"
#include "scan/KeyBatch.h"
#include "ui/BrowserPane.h"
#include "ui/BulkActionDialog.h"
#include "ui/EditDialogs.h"
#include "ui/FindingsPanel.h"
#include "ui/KeyDetailsView.h"
#include "ui/MainWindow.h"
#include "ui/RenamePlanDialog.h"
#include "ui/ScanStatusBar.h"

#include <QApplication>
#include <QClipboard>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>

namespace keylens::ui {

using models::displayText;

void MainWindow::copySelectedKey()
{
    const models::NodeRef node = m_browser->selectedNode();
    const models::KeyspaceView& keyspace = m_session->view();
    if (!keyspace.isCurrent(node))
        return;
    const QByteArray path = keyspace.isKey(node) ? keyspace.path(node) : keyspace.namespaceGlob(node);
    auto* mime = new QMimeData;
    // Text as one would type it into redis-cli; the exact bytes for programs that take them.
    mime->setText(displayText(keyspace::displayBytes(path)));
    mime->setData(QStringLiteral("application/x-redis-key"), path);
    QApplication::clipboard()->setMimeData(mime);
    m_status->showMessage(tr("Copied %1").arg(displayText(keyspace::displayBytes(path))));
}

void MainWindow::deleteSelectedKey()
{
    const models::NodeRef node = m_browser->selectedNode();
    const models::KeyspaceView& keyspace = m_session->view();
    if (!keyspace.isCurrent(node))
        return;
    const std::uint64_t below = keyspace.totals(node).keys - (keyspace.isKey(node) ? 1 : 0);
    const QString belowText = displayText(keyspace::formatCount(below));
    if (!keyspace.isKey(node)) {
        openBulkAction(edit::BulkKind::Delete); // a namespace: the preview, the backup and the typed confirmation
        return;
    }
    const QByteArray key = keyspace.path(node);
    // No question to answer on a read-only connection: the write gate refuses the UNLINK, and says so.
    if (m_target.options.readOnly) {
        m_inspector->requestDelete(key);
        return;
    }
    QString question =
        tr("Delete the key %1 from %2?").arg(displayText(keyspace::displayBytes(key)), m_target.options.address());
    if (below > 0)
        question += (below == 1 ? tr("\n\nOnly the key: the key below it stays")
                                : tr("\n\nOnly the key: the %1 keys below it stay").arg(belowText)) +
                    tr(" (Edit ▸ Delete all keys below deletes them too).");
    question += tr("\n\nThis cannot be undone.");
    QMessageBox confirm(QMessageBox::Warning, tr("Delete key"), question, QMessageBox::Cancel, this);
    QPushButton* deleteButton = confirm.addButton(tr("Delete"), QMessageBox::DestructiveRole);
    confirm.setDefaultButton(QMessageBox::Cancel);
    confirm.exec();
    if (confirm.clickedButton() != deleteButton)
        return;
    m_inspector->requestDelete(key);
}

void MainWindow::openBulkAction(edit::BulkKind kind)
{
    const patterns::PatternTree* patterns = m_session->patternModel()->tree();
    if (const patterns::PatternTree::PatternId pattern = m_browser->selectedPattern();
        pattern != patterns::PatternTree::Root) {
        if (!patterns || patterns->isLive())
            m_status->showMessage(tr("The patterns are still being folded; try again in a moment."));
        else
            showBulkAction(kind, models::selectPattern(*m_session, pattern));
        return;
    }
    if (const models::NodeRef node = m_browser->selectedNode(); !node.isNull())
        showBulkAction(kind, models::selectSubtree(*m_session, node));
}

void MainWindow::openBulkActionOnFinding(edit::BulkKind kind)
{
    const int rule = m_findings->selectedRule();
    if (rule < 0)
        return;
    showBulkAction(kind, models::selectKeysWithFinding(*m_session, rule));
}

void MainWindow::planNamingVariantRenames()
{
    if (m_session->isRunning()) {
        m_status->showMessage(tr("The rename plan waits for the scan to finish."));
        return;
    }
    std::vector<models::RenameRow> plan = models::namingVariantRenamePlan(*m_session);
    if (plan.empty()) {
        m_status->showMessage(tr("No naming-variants findings to plan renames for."));
        return;
    }
    auto* dialog = new RenamePlanDialog(std::move(plan), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RenamePlanDialog::runRequested, this, [this, dialog] {
        models::RenameSelection renames = models::selectRenames(*m_session, dialog->chosen());
        showBulkAction(edit::BulkKind::Rename, std::move(renames.keys), std::move(renames.names));
    });
    dialog->open();
}

void MainWindow::showBulkAction(edit::BulkKind kind, edit::KeySelection selection, std::vector<QByteArray> names)
{
    if (m_session->isRunning()) {
        m_status->showMessage(tr("Bulk actions wait for the scan to finish: their preview must be exact."));
        return;
    }
    if (selection.size() == 0) {
        m_status->showMessage(tr("No keys to act on."));
        return;
    }
    auto* dialog = new BulkActionDialog(kind, std::move(selection), m_target.options, this, std::move(names));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // The selection's nodes belong to this store: a rescan that replaces it leaves the new store alone.
    auto storeReplaced = std::make_shared<bool>(false);
    connect(m_session, &models::ScanSession::aboutToReplaceStore, dialog, [storeReplaced] { *storeReplaced = true; });
    connect(dialog, &BulkActionDialog::actionEnded, this,
            [this, dialog, storeReplaced](const edit::BulkSummary& summary) {
                if (!*storeReplaced) {
                    m_session->bulkActionDone(dialog->request(), dialog->selection(), summary);
                    m_browser->refreshSelection();
                }
                m_status->showMessage(summary.text());
            });
    dialog->open();
}

void MainWindow::createKey()
{
    if (!m_hasTarget)
        return;
    const models::NodeRef node = m_browser->selectedNode();
    const models::KeyspaceView& store = m_session->view();
    const QByteArray prefix = store.hasChildren(node) ? store.namespacePrefix(node) : QByteArray();
    NewKeyDialog dialog(prefix, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (const std::optional<edit::KeyEdit> change = dialog.change()) {
        m_createdKey = change->key;
        m_inspector->requestEdit(*change);
    }
}

void MainWindow::storeFollowsEdit(const models::ValueInspector::Edit& edit)
{
    if (!edit.error.isEmpty() || !edit.outcome.applied) {
        if (edit.change.kind == edit::KeyEdit::Kind::CreateKey)
            m_status->showMessage(edit.error.isEmpty() ? edit.outcome.message : edit.error);
        return;
    }
    std::vector<std::pair<QByteArray, std::optional<keyspace::KeyInfo>>> keys{{edit.change.key, edit.key}};
    const bool sameDatabase = edit.change.database < 0 || edit.change.database == m_target.options.db;
    if (!edit.change.newKey.isEmpty() && sameDatabase)
        keys.emplace_back(edit.change.newKey, edit.newKey);
    m_session->keysAre(keys);
    if (edit.change.kind == edit::KeyEdit::Kind::Rename && sameDatabase)
        m_browser->selectPath(edit.change.newKey);
    if (edit.change.kind == edit::KeyEdit::Kind::CreateKey && edit.change.key == m_createdKey) {
        m_browser->selectPath(edit.change.key);
        m_status->showMessage(tr("Created %1").arg(displayText(keyspace::displayBytes(edit.change.key))));
    }
}

} // namespace keylens::ui
