// The main window's edits: a new key, bulk actions over the selected node's keys, and the store following what
// every edit did, so the tree, its overlays and the findings are right without a rescan.
#include "keyspace/KeyEscape.h"
#include "lint/Linter.h"
#include "lint/Rules.h"
#include "models/DisplayText.h"
#include "models/PatternTreeModel.h"
#include "models/ScanSession.h"
#include "scan/KeyBatch.h"
#include "ui/BulkActionDialog.h"
#include "ui/EditDialogs.h"
#include "ui/FindingsPanel.h"
#include "ui/KeyDetailsView.h"
#include "ui/MainWindow.h"
#include "ui/RenamePlanDialog.h"
#include "ui/ScanStatusBar.h"

#include <QDateTime>
#include <QPointer>

namespace keylens::ui {

void MainWindow::openBulkAction(edit::BulkKind kind)
{
    const keyspace::Keyspace& store = m_session->keyspace();
    const patterns::PatternTree* patterns = m_session->patternModel()->tree();
    if (showsPatterns() && m_selectedPattern != patterns::PatternTree::Root) {
        if (!patterns || patterns->isLive())
            m_status->showMessage(tr("The patterns are still being folded; try again in a moment."));
        else
            showBulkAction(kind, edit::selectPattern(store, *patterns, m_selectedPattern));
        return;
    }
    const keyspace::NodeId node = selectedNode();
    if (node != keyspace::InvalidNode)
        showBulkAction(kind, edit::selectSubtree(store, node));
}

void MainWindow::openBulkActionOnFinding(edit::BulkKind kind)
{
    const int rule = m_findings->selectedRule();
    if (rule < 0)
        return;
    const keyspace::Keyspace& store = m_session->keyspace();
    std::vector<keyspace::NodeId> nodes;
    for (keyspace::NodeId node = 1; node < store.nodeCount(); ++node)
        if (store.isKey(node) && (store.findingRules(node) >> rule & 1))
            nodes.push_back(node);
    showBulkAction(kind, edit::selectNodes(store, nodes, lint::allRules()[std::size_t(rule)].id));
}

void MainWindow::planNamingVariantRenames()
{
    if (m_session->isRunning()) {
        m_status->showMessage(tr("The rename plan waits for the scan to finish."));
        return;
    }
    const keyspace::Keyspace& store = m_session->keyspace();
    auto plan = m_session->linter().namingVariantRenames(store);
    if (plan.empty()) {
        m_status->showMessage(tr("No naming-variants findings to plan renames for."));
        return;
    }
    auto* dialog = new RenamePlanDialog(store, std::move(plan), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RenamePlanDialog::runRequested, this, [this, dialog] {
        std::vector<keyspace::NodeId> nodes;
        std::vector<QByteArray> names;
        for (const auto& [node, renamed] : dialog->chosen()) {
            nodes.push_back(node);
            names.push_back(renamed);
        }
        showBulkAction(edit::BulkKind::Rename,
                       edit::selectNodes(m_session->keyspace(), nodes, QByteArrayLiteral("naming-variants")),
                       std::move(names));
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
                if (!*storeReplaced)
                    storeFollowsBulkAction(dialog->request(), dialog->selection(), summary);
                m_status->showMessage(summary.text());
            });
    dialog->open();
}

void MainWindow::createKey()
{
    if (!m_hasTarget)
        return;
    const keyspace::NodeId node = selectedNode();
    const keyspace::Keyspace& store = m_session->keyspace();
    const QByteArray prefix = node == keyspace::InvalidNode ? QByteArray()
                              : store.hasChildren(node)     ? store.namespacePrefix(node)
                                                            : QByteArray();
    NewKeyDialog dialog(prefix, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (const std::optional<edit::KeyEdit> change = dialog.change()) {
        m_createdKey = change->key;
        m_inspector->requestEdit(*change);
    }
}

void MainWindow::storeFollowsKeys(const std::vector<std::pair<QByteArray, std::optional<keyspace::KeyInfo>>>& keys)
{
    const keyspace::Keyspace& store = m_session->keyspace();
    std::vector<keyspace::NodeId> removed;
    std::vector<std::pair<keyspace::NodeId, keyspace::KeyInfo>> changed;
    scan::KeyBatch added;
    for (const auto& [key, now] : keys) {
        const keyspace::NodeId node = store.find(key);
        const bool known = node != keyspace::InvalidNode && store.isKey(node);
        if (now && known)
            changed.emplace_back(node, *now);
        else if (now)
            added.add(key, *now);
        else if (known)
            removed.push_back(node);
    }
    if (!removed.empty())
        m_session->keysRemoved(removed);
    if (!changed.empty())
        m_session->keysChanged(changed);
    if (added.size() > 0)
        m_session->keysAdded(added);
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
    storeFollowsKeys(keys);
    if (edit.change.kind == edit::KeyEdit::Kind::Rename && sameDatabase)
        selectPath(edit.change.newKey);
    if (edit.change.kind == edit::KeyEdit::Kind::CreateKey && edit.change.key == m_createdKey) {
        selectPath(edit.change.key);
        m_status->showMessage(tr("Created %1").arg(models::displayText(keyspace::displayBytes(edit.change.key))));
    }
}

void MainWindow::storeFollowsBulkAction(const edit::BulkRequest& request, const edit::KeySelection& selection,
                                        const edit::BulkSummary& summary)
{
    const keyspace::Keyspace& store = m_session->keyspace();
    const std::int64_t now = QDateTime::currentMSecsSinceEpoch();
    std::vector<keyspace::NodeId> removed;
    std::vector<std::pair<keyspace::NodeId, keyspace::KeyInfo>> changed;
    scan::KeyBatch added;
    for (std::size_t i = 0; i < summary.outcomes.size() && i < selection.nodes.size(); ++i) {
        const keyspace::NodeId node = selection.nodes[i];
        const edit::KeyOutcome outcome = summary.outcomes[i];
        if (outcome == edit::KeyOutcome::Unchanged && request.kind != edit::BulkKind::Persist) {
            removed.push_back(node); // gone before its turn
            continue;
        }
        if (outcome != edit::KeyOutcome::Done)
            continue;
        keyspace::KeyInfo info = store.keyInfo(node);
        switch (request.kind) {
        case edit::BulkKind::Delete:
            removed.push_back(node);
            break;
        case edit::BulkKind::Rename:
            removed.push_back(node);
            added.add(request.newKeys[i], info);
            break;
        case edit::BulkKind::Expire:
            info.expiresAtMs = now + summary.ttlsSetMs[i];
            changed.emplace_back(node, info);
            break;
        case edit::BulkKind::Persist:
            info.expiresAtMs = keyspace::NoExpiry;
            changed.emplace_back(node, info);
            break;
        }
    }
    m_session->keysRemoved(removed);
    m_session->keysChanged(changed);
    if (added.size() > 0)
        m_session->keysAdded(added);
    showSelection();
}

} // namespace keylens::ui
