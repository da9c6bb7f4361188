#include "ui/BulkActionDialog.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "models/DisplayText.h"
#include "usage/OptionValues.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QVBoxLayout>

namespace keylens::ui {

namespace {

constexpr int KeysPreviewed = 20;
QString title(edit::BulkKind kind, std::size_t keys)
{
    const QString count = keys == 1 ? BulkActionDialog::tr("1 key") : BulkActionDialog::tr("%L1 keys").arg(keys);
    switch (kind) {
    case edit::BulkKind::Delete:
        return BulkActionDialog::tr("Delete %1").arg(count);
    case edit::BulkKind::Expire:
        return BulkActionDialog::tr("Set the TTL of %1").arg(count);
    case edit::BulkKind::Persist:
        return BulkActionDialog::tr("Remove the TTL of %1").arg(count);
    case edit::BulkKind::Rename:
        return BulkActionDialog::tr("Rename %1").arg(count);
    }
    return {};
}

QString defaultBackupPath(edit::BulkKind kind)
{
    const QString folder =
        QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/backups");
    QDir().mkpath(folder);
    return edit::defaultBackupName(kind, folder);
}

} // namespace

BulkActionDialog::BulkActionDialog(edit::BulkKind kind, edit::KeySelection selection,
                                   redis::ConnectionOptions connection, QWidget* parent,
                                   std::vector<QByteArray> plannedNames)
    : QDialog(parent)
    , m_kind(kind)
    , m_selection(std::move(selection))
    , m_plannedNames(std::move(plannedNames))
    , m_address(connection.address())
    , m_readOnly(connection.readOnly)
    , m_runner(new models::BulkActionRunner(std::move(connection), this))
{
    setWindowTitle(title(kind, m_selection.size()));
    auto* layout = new QVBoxLayout(this);
    m_preview = new QLabel;
    m_preview->setTextFormat(Qt::PlainText);
    m_preview->setWordWrap(true);
    const QString preview = tr("%1 in %2 on %3: %4.")
                                .arg(title(kind, m_selection.size()), keyspace::displayString(m_selection.description),
                                     m_address, models::displayText(m_selection.sizeText()));
    m_preview->setText(preview);
    layout->addWidget(m_preview);
    m_keys = new QListWidget;
    m_keys->setUniformItemSizes(true);
    layout->addWidget(m_keys, 1);
    m_changed = new QLabel(tr("Asking the server which keys changed since the scan…"));
    layout->addWidget(m_changed);

    auto* form = new QFormLayout;
    if (kind == edit::BulkKind::Expire) {
        m_ttl = new QLineEdit(QStringLiteral("1h"));
        m_ttl->setToolTip(tr("90 (seconds), 500ms, 15m, 2h, 7d, 1h30m"));
        m_jitter = new QLineEdit(QStringLiteral("0"));
        m_jitter->setToolTip(tr("Each key gets a random share of this on top, so that keys written "
                                "together do not all expire in the same second (expiry-avalanche)."));
        form->addRow(QStringLiteral("TTL"), m_ttl);
        form->addRow(tr("Plus up to (jitter)"), m_jitter);
    }
    if (kind == edit::BulkKind::Rename && m_plannedNames.empty()) {
        m_prefix = new QLineEdit(QString::fromUtf8(m_selection.prefix));
        form->addRow(tr("Replace %1 with").arg(keyspace::displayString(m_selection.prefix)), m_prefix);
        connect(m_prefix, &QLineEdit::textChanged, this, &BulkActionDialog::updateNewNames);
    }
    if (edit::needsBackup(kind)) {
        m_backup = new QLineEdit(defaultBackupPath(kind));
        m_backup->setToolTip(tr("Every key is DUMPed here before it is touched; keylens-cli restore FILE "
                                "puts the keys back."));
        form->addRow(tr("Backup first to"), m_backup);
    }
    m_confirm = new QLineEdit;
    m_confirm->setPlaceholderText(keyspace::displayString(m_selection.description));
    form->addRow(tr("Type %1 to confirm").arg(keyspace::displayString(m_selection.description)), m_confirm);
    layout->addLayout(form);
    m_problem = new QLabel;
    m_problem->setStyleSheet(QStringLiteral("color: palette(link)"));
    m_problem->setWordWrap(true);
    layout->addWidget(m_problem);
    m_progress = new QProgressBar;
    m_progress->setRange(0, int(std::min<std::size_t>(m_selection.size(), std::size_t(INT_MAX))));
    m_progress->setVisible(false);
    layout->addWidget(m_progress);
    m_result = new QLabel;
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_result);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    m_run = m_buttons->addButton(title(kind, m_selection.size()), QDialogButtonBox::AcceptRole);
    m_run->setEnabled(false);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &BulkActionDialog::reject);
    connect(m_run, &QPushButton::clicked, this, &BulkActionDialog::run);
    connect(m_confirm, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_run->setEnabled(!m_running && !m_summary && text == keyspace::displayString(m_selection.description));
    });
    if (m_readOnly) {
        m_problem->setText(tr("This connection is read-only: nothing can be changed, and nothing will be "
                              "sent."));
        m_confirm->setEnabled(false);
    }
    updateNewNames();
    resize(640, 520);
    connect(m_runner, &models::BulkActionRunner::checked, this, [this](const QString& text) {
        m_changed->setText(text);
        Q_EMIT checked();
    });
    connect(m_runner, &models::BulkActionRunner::progress, this, [this](std::uint64_t processed) {
        m_progress->setValue(int(std::min<std::uint64_t>(processed, INT_MAX)));
    });
    connect(m_runner, &models::BulkActionRunner::ended, this, [this](const edit::BulkSummary& summary) {
        m_running = false;
        m_summary = summary;
        m_progress->setValue(m_progress->maximum());
        m_result->setText(summary.text());
        m_buttons->button(QDialogButtonBox::Cancel)->setText(tr("Close"));
        Q_EMIT actionEnded(summary);
    });
    m_runner->check(m_selection);
}

void BulkActionDialog::updateNewNames()
{
    m_keys->clear();
    const std::size_t shownKeys = std::min<std::size_t>(m_selection.size(), KeysPreviewed);
    std::vector<QByteArray> first(m_selection.keys.begin(), m_selection.keys.begin() + qsizetype(shownKeys));
    const bool renaming = m_kind == edit::BulkKind::Rename;
    const std::vector<QByteArray> renamed =
        !renaming  ? first
        : m_prefix ? edit::renamedKeys(first, m_selection.prefix, m_prefix->text().toUtf8())
                   : std::vector<QByteArray>(m_plannedNames.begin(), m_plannedNames.begin() + qsizetype(shownKeys));
    for (std::size_t i = 0; i < shownKeys; ++i)
        m_keys->addItem(renaming ? QStringLiteral("%1  →  %2")
                                       .arg(keyspace::displayString(first[i]), keyspace::displayString(renamed[i]))
                                 : keyspace::displayString(first[i]));
    if (m_selection.size() > shownKeys)
        m_keys->addItem(tr("… and %L1 more").arg(m_selection.size() - shownKeys));
}

bool BulkActionDialog::readRequest(QString* problem)
{
    m_request = {};
    m_request.kind = m_kind;
    m_request.keys = m_selection.keys;
    m_request.speed = scan::ScanSpeed::Gentle;
    if (m_ttl) {
        const std::optional<std::int64_t> ttl = usage::parseDuration(m_ttl->text().toUtf8());
        const std::optional<std::int64_t> jitter = usage::parseDuration(m_jitter->text().toUtf8());
        if (!ttl || *ttl <= 0 || !jitter) {
            *problem = tr("A TTL and a jitter are durations such as 90, 15m, 2h or 7d.");
            return false;
        }
        m_request.ttlMs = *ttl;
        m_request.jitterMs = *jitter;
    }
    if (m_prefix) {
        if (m_prefix->text().toUtf8() == m_selection.prefix) {
            *problem = tr("Choose a new prefix.");
            return false;
        }
        m_request.newKeys = edit::renamedKeys(m_selection.keys, m_selection.prefix, m_prefix->text().toUtf8());
    } else if (m_kind == edit::BulkKind::Rename) {
        m_request.newKeys = m_plannedNames;
    }
    if (m_backup) {
        m_request.backupPath = m_backup->text();
        if (m_request.backupPath.isEmpty()) {
            *problem = tr("Name the backup file: Keylens backs every key up before it changes it.");
            return false;
        }
    }
    return true;
}

void BulkActionDialog::run()
{
    QString problem;
    if (!readRequest(&problem)) {
        m_problem->setText(problem);
        return;
    }
    m_problem->clear();
    m_running = true;
    m_run->setEnabled(false);
    m_confirm->setEnabled(false);
    m_progress->setVisible(true);
    m_runner->run(m_request);
}

void BulkActionDialog::reject()
{
    if (m_running) {
        // Stops between batches: the batch on the wire is read to its end, so the summary stays exact.
        m_runner->cancel();
        m_result->setText(tr("Cancelling after the current batch…"));
        return;
    }
    QDialog::reject();
}

QString BulkActionDialog::previewText() const
{
    return m_preview->text();
}

QString BulkActionDialog::changedText() const
{
    return m_changed->text();
}

} // namespace keylens::ui
