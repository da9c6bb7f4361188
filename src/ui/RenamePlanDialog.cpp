#include "ui/RenamePlanDialog.h"

#include "edit/RenamePlan.h"
#include "keyspace/KeyEscape.h"
#include "models/DisplayText.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSaveFile>
#include <QTableWidget>
#include <QVBoxLayout>

namespace keylens::ui {

namespace {} // namespace

RenamePlanDialog::RenamePlanDialog(std::vector<models::RenameRow> plan, QWidget* parent)
    : QDialog(parent)
    , m_plan(std::move(plan))
{
    setWindowTitle(tr("Rename plan: naming variants"));
    auto* intro = new QLabel(tr("%L1 keys spell their names another way than the convention. Untick the "
                                "ones to leave as they are; nothing runs before the preview.")
                                 .arg(m_plan.size()));
    intro->setWordWrap(true);
    m_table = new QTableWidget(int(m_plan.size()), 2);
    m_table->setHorizontalHeaderLabels({tr("Key"), tr("Renamed to")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (std::size_t row = 0; row < m_plan.size(); ++row) {
        auto* from = new QTableWidgetItem(keyspace::displayString(m_plan[row].from));
        from->setFlags(from->flags() | Qt::ItemIsUserCheckable);
        // A name that exists already, or that an earlier row takes, would only fail: unticked, and said why.
        from->setCheckState(m_plan[row].taken ? Qt::Unchecked : Qt::Checked);
        auto* to = new QTableWidgetItem(keyspace::displayString(m_plan[row].to) +
                                        (m_plan[row].taken ? tr("  (taken: exists or repeats)") : QString()));
        m_table->setItem(int(row), 0, from);
        m_table->setItem(int(row), 1, to);
    }
    m_status = new QLabel;
    m_status->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QPushButton* script = buttons->addButton(tr("Save as redis-cli script…"), QDialogButtonBox::ActionRole);
    QPushButton* run = buttons->addButton(tr("Review and run…"), QDialogButtonBox::AcceptRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(script, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save the plan"), QString(), tr("redis-cli script (*.redis *.txt)"));
        QString problem;
        if (!path.isEmpty())
            m_status->setText(saveScript(path, &problem) ? tr("Saved. Run it with: redis-cli < %1").arg(path)
                                                         : problem);
    });
    connect(run, &QPushButton::clicked, this, [this] {
        Q_EMIT runRequested();
        accept();
    });
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(760, 520);
}

std::vector<models::RenameRow> RenamePlanDialog::chosen() const
{
    std::vector<models::RenameRow> out;
    for (std::size_t row = 0; row < m_plan.size(); ++row)
        if (m_table->item(int(row), 0)->checkState() == Qt::Checked)
            out.push_back(m_plan[row]);
    return out;
}

bool RenamePlanDialog::saveScript(const QString& path, QString* problem) const
{
    edit::RenamePlan plan;
    for (const models::RenameRow& row : chosen()) {
        plan.from.push_back(row.from);
        plan.to.push_back(row.to);
    }
    const QByteArray text = edit::formatRenameScript(plan);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size() || !file.commit()) {
        *problem = tr("Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace keylens::ui
