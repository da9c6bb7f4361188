// The main window's bulk actions: a dialog over the selected node's keys, and the store following what it did.
#include "keyspace/KeyEscape.h"
#include "models/DisplayText.h"
#include "models/ScanSession.h"
#include "scan/KeyBatch.h"
#include "ui/BulkActionDialog.h"
#include "ui/MainWindow.h"
#include "ui/ScanStatusBar.h"

#include <QDateTime>
#include <QPointer>

namespace keylens::ui {

void MainWindow::openBulkAction(edit::BulkKind kind)
{
    const keyspace::NodeId node = selectedNode();
    if (node == keyspace::InvalidNode)
        return;
    if (m_session->isRunning()) {
        m_status->showMessage(QStringLiteral("Bulk actions wait for the scan to finish: their preview must be exact."));
        return;
    }
    auto* dialog = new BulkActionDialog(kind, edit::selectSubtree(m_session->keyspace(), node), m_target.options, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // The selection's nodes belong to this store: a rescan that replaces it leaves the new store alone.
    auto storeReplaced = std::make_shared<bool>(false);
    connect(m_session, &models::ScanSession::aboutToReplaceStore, dialog, [storeReplaced] { *storeReplaced = true; });
    connect(dialog, &BulkActionDialog::done, this, [this, dialog, storeReplaced](const edit::BulkSummary& summary) {
        if (!*storeReplaced)
            storeFollowsBulkAction(dialog->request(), dialog->selection(), summary);
        m_status->showMessage(summary.text());
    });
    dialog->open();
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
