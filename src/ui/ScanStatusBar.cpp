#include "ui/ScanStatusBar.h"

#include "keyspace/Units.h"
#include "models/DisplayText.h"
#include "ui/ElidedLabel.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QTimer>
#include <QToolButton>

namespace keylens::ui {

using models::displayText;

ScanStatusBar::ScanStatusBar(QWidget* parent)
    : QWidget(parent)
    , m_label(new ElidedLabel)
    , m_bar(new QProgressBar)
    , m_notices(new QToolButton)
    , m_silence(new QTimer(this))
{
    m_silence->setInterval(1000);
    connect(m_silence, &QTimer::timeout, this, [this] {
        if (m_progress && m_sinceProgress.elapsed() >= SilentAfterMs)
            renderProgress();
    });
    m_bar->setRange(0, 1000);
    m_bar->setTextVisible(false);
    m_bar->setMaximumWidth(220);
    m_bar->setMaximumHeight(14);
    m_bar->setVisible(false);
    m_notices->setVisible(false);
    m_notices->setObjectName(QStringLiteral("scanNotices"));
    m_notices->setAutoRaise(true);
    m_notices->setToolButtonStyle(Qt::ToolButtonTextOnly); // labelled, never a bare icon
    m_notices->setCursor(Qt::PointingHandCursor);
    m_notices->setStyleSheet(QStringLiteral("QToolButton { color: #d9822b; font-weight: bold; }"));
    // A label that looked clickable and did nothing: a click lists the notices whole (the tooltip cut long ones).
    connect(m_notices, &QToolButton::clicked, this, [this] {
        QMessageBox box(QMessageBox::Information, tr("Scan notices"), m_noticeList.join(QStringLiteral("\n\n")),
                        QMessageBox::Ok, this);
        box.exec();
    });
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    layout->addWidget(m_bar);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_notices);
}

QString ScanStatusBar::text() const
{
    return m_label->fullText();
}

void ScanStatusBar::showStarting(const QString& what)
{
    m_finished.reset();
    m_progress.reset();
    m_silence->stop();
    m_bar->setVisible(true);
    m_bar->setRange(0, 0); // busy until DBSIZE is known
    m_notices->setVisible(false);
    m_label->setFullText(what);
}

void ScanStatusBar::showMessage(const QString& message)
{
    m_finished.reset();
    m_progress.reset();
    m_silence->stop();
    m_bar->setVisible(false);
    m_label->setFullText(message);
}

void ScanStatusBar::showProgress(const scan::ScanProgress& progress)
{
    m_finished.reset();
    m_progress = progress;
    m_sinceProgress.start();
    if (!m_silence->isActive())
        m_silence->start();
    renderProgress();
}

void ScanStatusBar::renderProgress()
{
    const scan::ScanProgress& progress = *m_progress;
    m_bar->setVisible(true);
    if (const std::optional<double> done = progress.fractionDone()) {
        m_bar->setRange(0, 1000);
        m_bar->setValue(int(*done * 1000));
    } else {
        m_bar->setRange(0, 0); // busy: how far along is not known
    }
    QString line;
    if (progress.fromFile) {
        // A file is read as its bytes come: those say how far along it is.
        line = progress.paused ? tr("Paused at ") : tr("Reading the file: ");
        line += displayText(keyspace::formatBytes(progress.bytesRead));
        if (progress.bytesTotal >= 0)
            line += tr(" of %1").arg(displayText(keyspace::formatBytes(std::uint64_t(progress.bytesTotal))));
        line += tr(" · %1 keys").arg(displayText(keyspace::formatCount(progress.keysSeen)));
    } else {
        line = progress.paused                             ? tr("Paused at ")
               : progress.speed == scan::ScanSpeed::Gentle ? tr("Scanning gently: ")
                                                           : tr("Scanning: ");
        line += displayText(keyspace::formatCount(progress.keysSeen));
        if (progress.dbsize >= 0)
            line += tr(" of %1 keys").arg(displayText(keyspace::formatCount(std::uint64_t(progress.dbsize))));
        else
            line += tr(" keys (DBSIZE denied: total unknown)");
    }
    if (!progress.paused) {
        line += tr(" · %1 keys/s").arg(displayText(keyspace::formatCount(std::uint64_t(progress.keysPerSecond))));
        if (progress.etaMs >= 0)
            line += tr(" · %1 left").arg(displayText(keyspace::formatDuration(progress.etaMs)));
        if (progress.backingOff)
            line += tr(" · backing off: the server slowed");
    }
    if (!progress.trouble.isEmpty())
        line += QStringLiteral(" · %1").arg(progress.trouble);
    if (!progress.paused && !progress.fromFile && m_sinceProgress.elapsed() >= SilentAfterMs)
        line += tr(" · no answer from the server for %1 s (Cancel stops the scan at once)")
                    .arg(m_sinceProgress.elapsed() / 1000);
    m_label->setFullText(line);
}

void ScanStatusBar::showFinished(const scan::ScanSummary& summary, std::uint64_t keys, std::uint64_t memoryBytes,
                                 std::uint64_t keysMemorySampled)
{
    m_progress.reset();
    m_silence->stop();
    m_finished = Finished{summary, keys, memoryBytes, 0, false, keysMemorySampled};
    renderFinished();
}

void ScanStatusBar::showExpiredSince(std::uint64_t expired)
{
    if (!m_finished || m_finished->expiredSince == expired)
        return;
    m_finished->expiredSince = expired;
    renderFinished();
}

void ScanStatusBar::showStoreNow(std::uint64_t keys, std::uint64_t memoryBytes, bool live)
{
    if (!m_finished)
        return;
    m_finished->keys = keys;
    m_finished->memoryBytes = memoryBytes;
    m_finished->live = live;
    renderFinished();
}

void ScanStatusBar::renderFinished()
{
    const scan::ScanSummary& summary = m_finished->summary;
    m_bar->setVisible(false);
    QString line;
    const bool file = !summary.rdbFile.isEmpty();
    if (summary.error)
        line = (file ? tr("Reading stopped: %1. ") : tr("Scan stopped: %1. ")).arg(summary.error->message);
    else if (summary.cancelled)
        line = tr("Scan cancelled. ");
    line += (m_finished->keys == 1 ? tr("%1 key") : tr("%1 keys"))
                .arg(displayText(keyspace::formatCount(m_finished->keys)));
    if (m_finished->live)
        line += tr(" now (live)");
    else if (m_finished->expiredSince > 0)
        line +=
            tr(" as of the scan (%1 expired since)").arg(displayText(keyspace::formatCount(m_finished->expiredSince)));
    line += QStringLiteral(", %1").arg(displayText(keyspace::formatBytes(m_finished->memoryBytes)));
    if (file)
        line += tr(" estimated");
    else if (m_finished->keysMemorySampled > 0)
        line += (m_finished->keysMemorySampled == 1 ? tr(" (%1 key estimated by the server from 5 elements)")
                                                    : tr(" (%1 keys estimated by the server from 5 elements)"))
                    .arg(displayText(keyspace::formatCount(m_finished->keysMemorySampled)));
    // A rate over less than a second is noise ("13 keys/s" for 13 keys in no time): leave it out.
    if (file && summary.complete) // a file has no speed setting: it is read as fast as it comes
        line += tr(" · read from %1 in %2")
                    .arg(QFileInfo(summary.rdbFile).isFile() ? QFileInfo(summary.rdbFile).fileName() : summary.rdbFile,
                         summary.durationMs < 1 ? tr("under 1 ms")
                                                : displayText(keyspace::formatDuration(summary.durationMs)));
    else if (summary.complete && summary.durationMs >= 1000)
        line += tr(" · scanned in %1 (%2 keys/s, %3 speed)")
                    .arg(displayText(keyspace::formatDuration(summary.durationMs)),
                         displayText(keyspace::formatCount(summary.keysPerSecond())), scan::speedName(summary.speed));
    else if (summary.complete)
        line += tr(" · scanned in %1 (%2 speed)")
                    .arg(summary.durationMs < 1 ? tr("under 1 ms")
                                                : displayText(keyspace::formatDuration(summary.durationMs)),
                         scan::speedName(summary.speed));
    if (summary.vanished > 0)
        line += tr(" · %1 vanished during the scan").arg(displayText(keyspace::formatCount(summary.vanished)));
    if (summary.keysInFlight > 0)
        line += tr(" · %1 not inspected when the scan stopped")
                    .arg(displayText(keyspace::formatCount(summary.keysInFlight)));
    m_label->setFullText(line);
    m_noticeList = summary.notices;
    m_notices->setVisible(!summary.notices.isEmpty());
    m_notices->setText(summary.notices.size() == 1 ? tr("⚠ 1 notice") : tr("⚠ %1 notices").arg(summary.notices.size()));
    m_notices->setToolTip(summary.notices.join(u'\n') + tr("\n\nClick to read them."));
}

} // namespace keylens::ui
