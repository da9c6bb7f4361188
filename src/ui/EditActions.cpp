// The window's edits (EditActions.h): copy and delete the selected key, a new key, bulk actions, and the store
// following what every edit did.
#include "ui/EditActions.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "models/DisplayText.h"
#include "models/KeyTreeModel.h"
#include "models/PatternTreeModel.h"
#include "models/ScanSession.h"
#include "models/SessionQueries.h"
#include "models/StoreChanges.h"
#include "scan/KeyBatch.h"
#include "ui/BrowserPane.h"
#include "ui/BulkActionDialog.h"
#include "ui/EditDialogs.h"
#include "ui/FindingsPanel.h"
#include "ui/RenamePlanDialog.h"
#include "ui/WindowActions.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QTreeWidget>

namespace keylens::ui {

using models::displayText;

EditActions::EditActions(const WindowActions& actions, QWidget* window, models::ScanSession& session,
                         BrowserPane& browser, FindingsPanel& findings, models::ValueInspector* inspector)
    : QObject(window)
    , m_window(window)
    , m_session(session)
    , m_browser(browser)
    , m_findings(findings)
    , m_inspector(inspector)
{
    connect(actions.copy, &QAction::triggered, this, &EditActions::copySelectedKey);
    connect(actions.remove, &QAction::triggered, this, &EditActions::deleteSelectedKey);
    connect(actions.newKey, &QAction::triggered, this, &EditActions::createKey);
    const std::pair<QAction*, edit::BulkKind> bulk[] = {{actions.deleteBelow, edit::BulkKind::Delete},
                                                        {actions.expireBelow, edit::BulkKind::Expire},
                                                        {actions.persistBelow, edit::BulkKind::Persist},
                                                        {actions.renameBelow, edit::BulkKind::Rename}};
    for (const auto& [action, kind] : bulk)
        connect(action, &QAction::triggered, this, [this, kind = kind] { openBulkAction(kind); });
    connect(&m_browser, &BrowserPane::nodeShown, actions.remove, &QAction::setEnabled);
    actions.remove->setEnabled(false); // until a key is selected

    // The keys of a rule, acted on as a whole ("these 330 cache keys have no TTL").
    QTreeWidget* list = m_findings.list();
    list->setContextMenuPolicy(Qt::ActionsContextMenu);
    list->addAction(tr("Set the TTL of these keys…"), this,
                    [this] { openBulkActionOnFinding(edit::BulkKind::Expire); });
    list->addAction(tr("Remove the TTL of these keys…"), this,
                    [this] { openBulkActionOnFinding(edit::BulkKind::Persist); });
    list->addAction(tr("Delete these keys…"), this, [this] { openBulkActionOnFinding(edit::BulkKind::Delete); });
    list->addAction(tr("Plan renames to the convention's spelling…"), this, &EditActions::planNamingVariantRenames);

    connect(m_inspector, &models::ValueInspector::deleteDone, this,
            [this](std::uint64_t, const QByteArray& key, const QString& error) { deleteDone(key, error); });
    connect(m_inspector, &models::ValueInspector::editDone, this, &EditActions::storeFollowsEdit);
}

void EditActions::setConnection(const redis::ConnectionOptions& options)
{
    m_connection = options;
    m_connected = true;
}

void EditActions::deleteDone(const QByteArray& key, const QString& error)
{
    if (!error.isEmpty()) {
        QMessageBox::warning(m_window, tr("Delete"),
                             tr("%1 was not deleted: %2").arg(displayText(keyspace::displayBytes(key)), error));
        return;
    }
    if (const models::NodeRef node = m_session.view().find(key); !node.isNull())
        m_session.model()->markDeleted(node.node);
    Q_EMIT message(tr("Deleted %1. Rescan (F5) to refresh the totals.").arg(displayText(keyspace::displayBytes(key))));
}

void EditActions::copySelectedKey()
{
    const models::NodeRef node = m_browser.selectedNode();
    const models::KeyspaceView& keyspace = m_session.view();
    if (!keyspace.isCurrent(node))
        return;
    const QByteArray path = keyspace.isKey(node) ? keyspace.path(node) : keyspace.namespaceGlob(node);
    auto* mime = new QMimeData;
    // Text as one would type it into redis-cli; the exact bytes for programs that take them.
    mime->setText(displayText(keyspace::displayBytes(path)));
    mime->setData(QStringLiteral("application/x-redis-key"), path);
    QApplication::clipboard()->setMimeData(mime);
    Q_EMIT message(tr("Copied %1").arg(displayText(keyspace::displayBytes(path))));
}

void EditActions::deleteSelectedKey()
{
    const models::NodeRef node = m_browser.selectedNode();
    const models::KeyspaceView& keyspace = m_session.view();
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
    if (m_connection.readOnly) {
        m_inspector->requestDelete(key);
        return;
    }
    QString question =
        tr("Delete the key %1 from %2?").arg(displayText(keyspace::displayBytes(key)), m_connection.address());
    if (below > 0)
        question += (below == 1 ? tr("\n\nOnly the key: the key below it stays")
                                : tr("\n\nOnly the key: the %1 keys below it stay").arg(belowText)) +
                    tr(" (Edit ▸ Delete all keys below deletes them too).");
    question += tr("\n\nThis cannot be undone.");
    QMessageBox confirm(QMessageBox::Warning, tr("Delete key"), question, QMessageBox::Cancel, m_window);
    QPushButton* deleteButton = confirm.addButton(tr("Delete"), QMessageBox::DestructiveRole);
    confirm.setDefaultButton(QMessageBox::Cancel);
    confirm.exec();
    if (confirm.clickedButton() != deleteButton)
        return;
    m_inspector->requestDelete(key);
}

void EditActions::openBulkAction(edit::BulkKind kind)
{
    const patterns::PatternTree* patterns = m_session.patternModel()->tree();
    if (const patterns::PatternTree::PatternId pattern = m_browser.selectedPattern();
        pattern != patterns::PatternTree::Root) {
        if (!patterns || patterns->isLive())
            Q_EMIT message(tr("The patterns are still being folded; try again in a moment."));
        else
            showBulkAction(kind, models::selectPattern(m_session, pattern));
        return;
    }
    if (const models::NodeRef node = m_browser.selectedNode(); !node.isNull())
        showBulkAction(kind, models::selectSubtree(m_session, node));
}

void EditActions::openBulkActionOnFinding(edit::BulkKind kind)
{
    const int rule = m_findings.selectedRule();
    if (rule < 0)
        return;
    showBulkAction(kind, models::selectKeysWithFinding(m_session, rule));
}

void EditActions::planNamingVariantRenames()
{
    if (m_session.isRunning()) {
        Q_EMIT message(tr("The rename plan waits for the scan to finish."));
        return;
    }
    std::vector<models::RenameRow> plan = models::namingVariantRenamePlan(m_session);
    if (plan.empty()) {
        Q_EMIT message(tr("No naming-variants findings to plan renames for."));
        return;
    }
    auto* dialog = new RenamePlanDialog(std::move(plan), m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RenamePlanDialog::runRequested, this, [this, dialog] {
        models::RenameSelection renames = models::selectRenames(m_session, dialog->chosen());
        showBulkAction(edit::BulkKind::Rename, std::move(renames.keys), std::move(renames.names));
    });
    dialog->open();
}

void EditActions::showBulkAction(edit::BulkKind kind, edit::KeySelection selection, std::vector<QByteArray> names)
{
    if (m_session.isRunning()) {
        Q_EMIT message(tr("Bulk actions wait for the scan to finish: their preview must be exact."));
        return;
    }
    if (selection.size() == 0) {
        Q_EMIT message(tr("No keys to act on."));
        return;
    }
    auto* dialog = new BulkActionDialog(kind, std::move(selection), m_connection, m_window, std::move(names));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // The selection's nodes belong to this store: a rescan that replaces it leaves the new store alone.
    auto storeReplaced = std::make_shared<bool>(false);
    connect(&m_session, &models::ScanSession::aboutToReplaceStore, dialog, [storeReplaced] { *storeReplaced = true; });
    connect(dialog, &BulkActionDialog::actionEnded, this,
            [this, dialog, storeReplaced](const edit::BulkSummary& summary) {
                if (!*storeReplaced) {
                    m_session.changes()->bulkActionDone(dialog->request(), dialog->selection(), summary);
                    m_browser.refreshSelection();
                }
                Q_EMIT message(summary.text());
            });
    dialog->open();
}

void EditActions::createKey()
{
    if (!m_connected)
        return;
    const models::NodeRef node = m_browser.selectedNode();
    const models::KeyspaceView& store = m_session.view();
    const QByteArray prefix = store.hasChildren(node) ? store.namespacePrefix(node) : QByteArray();
    NewKeyDialog dialog(prefix, m_window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (const std::optional<edit::KeyEdit> change = dialog.change()) {
        m_createdKey = change->key;
        m_inspector->requestEdit(*change);
    }
}

void EditActions::storeFollowsEdit(const models::ValueInspector::Edit& edit)
{
    if (!edit.error.isEmpty() || !edit.outcome.applied) {
        if (edit.change.kind == edit::KeyEdit::Kind::CreateKey)
            Q_EMIT message(edit.error.isEmpty() ? edit.outcome.message : edit.error);
        return;
    }
    std::vector<std::pair<QByteArray, std::optional<keyspace::KeyInfo>>> keys{{edit.change.key, edit.key}};
    const bool sameDatabase = edit.change.database < 0 || edit.change.database == m_connection.db;
    if (!edit.change.newKey.isEmpty() && sameDatabase)
        keys.emplace_back(edit.change.newKey, edit.newKey);
    m_session.changes()->keysAre(keys);
    if (edit.change.kind == edit::KeyEdit::Kind::Rename && sameDatabase)
        m_browser.selectPath(edit.change.newKey);
    if (edit.change.kind == edit::KeyEdit::Kind::CreateKey && edit.change.key == m_createdKey) {
        m_browser.selectPath(edit.change.key);
        Q_EMIT message(tr("Created %1").arg(displayText(keyspace::displayBytes(edit.change.key))));
    }
}

} // namespace keylens::ui
