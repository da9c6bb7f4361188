#pragma once

#include "models/SessionQueries.h"

#include <QDialog>

#include <utility>
#include <vector>

class QLabel;
class QTableWidget;

namespace keylens::ui {

// A rename plan to review before anything runs: one row per key (old name → new name), each ticked or not. The
// ticked rows can be saved as a redis-cli script (edit::formatRenameScript) or run, which the caller does through
// BulkActionDialog with its preview, backup and progress.
class RenamePlanDialog : public QDialog
{
    Q_OBJECT
public:
    // A row already taken (RenameRow::taken) starts unticked, and says why.
    explicit RenamePlanDialog(std::vector<models::RenameRow> plan, QWidget* parent = nullptr);

    // The ticked rows, in the plan's order.
    std::vector<models::RenameRow> chosen() const;
    bool saveScript(const QString& path, QString* problem) const;
    QTableWidget* table() const { return m_table; }

Q_SIGNALS:
    void runRequested(); // "Review and run…": the caller opens the bulk action, the plan stays as ticked

private:
    std::vector<models::RenameRow> m_plan;
    QTableWidget* m_table;
    QLabel* m_status;
};

} // namespace keylens::ui
