#pragma once

#include "edit/BulkAction.h"
#include "edit/KeySelection.h"
#include "models/BulkActionRunner.h"
#include "redis/ConnectionOptions.h"

#include <QDialog>

#include <optional>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;

namespace keylens::ui {

// One bulk action on a selection of keys (a namespace, a pattern, a finding's keys): the exact preview first (count,
// memory, the first keys and, asked of the server, how many changed since the scan), the action's own fields (a TTL
// and its jitter, a new prefix, the backup file), a typed confirmation, then the run with a progress bar, Cancel and
// the summary. The work on the server is a models::BulkActionRunner's.
class BulkActionDialog : public QDialog
{
    Q_OBJECT
public:
    // `plannedNames`: a rename's new name for each key of the selection (a reviewed plan); without them a rename
    // replaces the selection's prefix with one the user types.
    BulkActionDialog(edit::BulkKind kind, edit::KeySelection selection, redis::ConnectionOptions connection,
                     QWidget* parent = nullptr, std::vector<QByteArray> plannedNames = {});

    // For tests: the fields, and what the run said.
    QLineEdit* confirmation() const { return m_confirm; }
    QLineEdit* ttlField() const { return m_ttl; }
    QLineEdit* jitterField() const { return m_jitter; }
    QLineEdit* prefixField() const { return m_prefix; }
    QLineEdit* backupField() const { return m_backup; }
    QPushButton* runButton() const { return m_run; }
    QString previewText() const;
    QString changedText() const;
    const std::optional<edit::BulkSummary>& summary() const { return m_summary; }
    const edit::BulkRequest& request() const { return m_request; }
    const edit::KeySelection& selection() const { return m_selection; }

Q_SIGNALS:
    void checked();                                              // the changed-since-the-scan count arrived
    void actionEnded(const keylens::edit::BulkSummary& summary); // the action ended (or stopped), summary in hand

private:
    void updateNewNames();
    bool readRequest(QString* problem);
    void run();
    void reject() override;

    edit::BulkKind m_kind;
    edit::KeySelection m_selection;
    std::vector<QByteArray> m_plannedNames;
    QString m_address; // the server's, without the password
    bool m_readOnly;   // the connection's: nothing is sent
    edit::BulkRequest m_request;
    std::optional<edit::BulkSummary> m_summary;
    bool m_running = false;
    models::BulkActionRunner* m_runner; // cancelled and waited for with this dialog

    QLabel* m_preview;
    QListWidget* m_keys;
    QLabel* m_changed;
    QLineEdit* m_ttl = nullptr;
    QLineEdit* m_jitter = nullptr;
    QLineEdit* m_prefix = nullptr;
    QLineEdit* m_backup = nullptr;
    QLineEdit* m_confirm;
    QLabel* m_problem;
    QProgressBar* m_progress;
    QLabel* m_result;
    QPushButton* m_run;
    QDialogButtonBox* m_buttons;
};

} // namespace keylens::ui
