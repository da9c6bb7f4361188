#include "ui/ServerPanel.h"

#include "models/RdbFileText.h"
#include "models/ScanSession.h"

#include <QDateTime>
#include <QFormLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

namespace keylens::ui {

ServerPanel::ServerPanel(models::ValueInspector* inspector, const models::ScanSession& session,
                         std::function<models::ScannedTotals()> scanned, QWidget* parent)
    : QWidget(parent)
    , m_inspector(inspector)
    , m_session(session)
    , m_scanned(std::move(scanned))
{
    m_header = new QLabel(tr("Not connected."));
    m_header->setWordWrap(true);
    m_body = new QWidget;
    m_form = new QFormLayout(m_body);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_body);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    layout->addWidget(scroll, 1);

    m_timer.setInterval(RefreshMs);
    connect(&m_timer, &QTimer::timeout, this, &ServerPanel::refresh);
    connect(inspector, &models::ValueInspector::serverStatusReady, this, &ServerPanel::takeStatus);
    // The window says the target changed before the session starts on it: a file is known to be one from here.
    connect(&session, &models::ScanSession::started, this, [this] {
        if (showsFile())
            refreshIfShown();
    });
}

void ServerPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    m_timer.start();
    refresh();
}

void ServerPanel::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    m_timer.stop(); // INFO only while someone looks
}

void ServerPanel::serverChanged()
{
    m_header->setText(tr("Reading INFO…"));
    m_groups.clear();
    rebuild();
    refreshIfShown();
}

void ServerPanel::refreshIfShown()
{
    if (isVisible())
        refresh();
}

void ServerPanel::refresh()
{
    if (showsFile()) {
        showFile(); // no server to ask: the file said all it has to say when it was read
        return;
    }
    if (isVisible() && !m_timer.isActive())
        m_timer.start(); // a server again after a file
    m_inspector->requestServerStatus();
}

bool ServerPanel::showsFile() const
{
    return !m_session.options().rdbFile.isEmpty();
}

void ServerPanel::showFile()
{
    m_timer.stop();
    const std::optional<scan::ScanSummary>& read = m_session.summary();
    if (!read || !read->rdbFacts) {
        m_header->setText(read
                              ? tr("The file could not be read: %1").arg(read->error ? read->error->message : QString())
                              : tr("Reading the RDB file %1…").arg(m_session.options().rdbFile));
        m_groups.clear();
    } else {
        m_header->setText(tr("What the RDB file says of itself; no server is asked."));
        m_groups = models::describeRdbFile(*read, m_scanned(), QDateTime::currentSecsSinceEpoch());
    }
    rebuild();
    ++m_answers;
    Q_EMIT updated();
}

void ServerPanel::takeStatus(const models::ValueInspector::Status& status)
{
    if (showsFile())
        return; // an answer of the server before it, or the file's socket-shaped address failing
    ++m_answers;
    if (!status.error.isEmpty()) {
        m_header->setText(tr("INFO could not be read: %1").arg(status.error));
        Q_EMIT updated();
        return;
    }
    m_header->setText(tr("From INFO at %1, read again every %2 s while this tab shows.")
                          .arg(QDateTime::currentDateTime().toString(tr("HH:mm:ss")))
                          .arg(RefreshMs / 1000));
    m_groups = models::describeServerStatus(status.status, m_scanned());
    rebuild();
    Q_EMIT updated();
}

void ServerPanel::rebuild()
{
    // A few dozen labels: made again on each answer, which keeps the lines in step with what the server gives.
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    for (const models::StatusGroup& group : m_groups) {
        auto* title = new QLabel(group.title);
        QFont bold = title->font();
        bold.setBold(true);
        title->setFont(bold);
        title->setContentsMargins(0, m_form->rowCount() ? 8 : 0, 0, 0);
        m_form->addRow(title);
        for (const models::StatusLine& line : group.lines) {
            auto* value = new QLabel(line.value);
            value->setWordWrap(true);
            value->setTextInteractionFlags(Qt::TextSelectableByMouse);
            value->setToolTip(line.toolTip);
            if (!line.available) {
                QPalette palette = value->palette();
                palette.setColor(QPalette::WindowText, palette.color(QPalette::Disabled, QPalette::WindowText));
                value->setPalette(palette);
            }
            m_form->addRow(line.label, value);
        }
    }
}

QString ServerPanel::value(const QString& group, const QString& label) const
{
    for (const models::StatusGroup& shown : m_groups) {
        if (shown.title != group)
            continue;
        for (const models::StatusLine& line : shown.lines) {
            if (line.label == label)
                return line.value;
        }
    }
    return {};
}

} // namespace keylens::ui
