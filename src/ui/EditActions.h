#pragma once

#include "edit/BulkAction.h"
#include "edit/KeySelection.h"
#include "models/ValueInspector.h"
#include "redis/ConnectionOptions.h"

#include <QByteArray>
#include <QObject>
#include <QString>

#include <vector>

class QWidget;

namespace keylens::models {
class ScanSession;
} // namespace keylens::models

namespace keylens::ui {

class BrowserPane;
class FindingsPanel;
class WindowActions;

// The window's edits: copy and delete the selected key, a new key, bulk actions over the selected node's keys (or
// pattern, or a rule's findings, from the Findings panel's context menu), the naming-variants rename plan, and the
// store following what every edit did, so that the tree, its overlays and the findings are right without a rescan
// (models::StoreChanges::keysAre, bulkActionDone). Wires Edit's actions itself; its dialogs are `window`'s children.
class EditActions : public QObject
{
    Q_OBJECT

public:
    EditActions(const WindowActions& actions, QWidget* window, models::ScanSession& session, BrowserPane& browser,
                FindingsPanel& findings, models::ValueInspector* inspector);

    // The connection the edits go to (the window's target), or none before the first.
    void setConnection(const redis::ConnectionOptions& options);

    void copySelectedKey();
    // A key: asks (unless the connection is read-only, whose write gate refuses and says so), then deletes; a
    // namespace: the bulk action's preview, backup and typed confirmation.
    void deleteSelectedKey();
    // A bulk action on the selected node and every key below it, through BulkActionDialog (open when this returns).
    void openBulkAction(edit::BulkKind kind);
    // The same on the keys of the Findings panel's selected rule.
    void openBulkActionOnFinding(edit::BulkKind kind);
    // The naming-variants rename plan (RenamePlanDialog, open when this returns), which runs through a bulk action.
    void planNamingVariantRenames();
    // A key of any type, under the selected namespace by default (NewKeyDialog).
    void createKey();

Q_SIGNALS:
    // What the status bar should say.
    void message(const QString& text);

private:
    // A BulkActionDialog over these keys (with a rename's planned names), once no scan runs.
    void showBulkAction(edit::BulkKind kind, edit::KeySelection selection, std::vector<QByteArray> names = {});
    void deleteDone(const QByteArray& key, const QString& error);
    void storeFollowsEdit(const models::ValueInspector::Edit& edit);

    QWidget* m_window;
    models::ScanSession& m_session;
    BrowserPane& m_browser;
    FindingsPanel& m_findings;
    models::ValueInspector* m_inspector;
    redis::ConnectionOptions m_connection;
    bool m_connected = false;
    QByteArray m_createdKey; // the last key New key… asked for: selected once it exists
};

} // namespace keylens::ui
