#include "ui/ScanSettings.h"

#include "keyspace/Units.h"
#include "models/ConnectionTarget.h"
#include "models/DisplayText.h"
#include "scan/ScanSpeed.h"
#include "ui/WindowActions.h"
#include "usage/OptionValues.h"

#include <QAction>
#include <QInputDialog>
#include <QMessageBox>
#include <QSettings>

namespace keylens::ui {

using models::displayText;

ScanSettings::ScanSettings(QSettings* settings, const WindowActions& actions, QWidget* window)
    : QObject(window)
    , m_settings(settings)
    , m_actions(actions)
    , m_window(window)
{
    connect(actions.measureAccess, &QAction::toggled, this, [this](bool on) {
        m_settings->setValue(QStringLiteral("scan/measureAccess"), on);
        if (on)
            Q_EMIT rescanWanted(Rescan::WhenIdle); // the figures come from a scan: asked for, they should appear
    });
    connect(actions.exactMemory, &QAction::toggled, this, [this](bool on) {
        m_settings->setValue(QStringLiteral("scan/exactMemory"), on);
        if (on)
            Q_EMIT rescanWanted(Rescan::ServerWhenIdle); // as measureAccess: asked for, the whole figures should appear
    });
    connect(actions.ttlFromSave, &QAction::toggled, this, [this](bool on) {
        m_settings->setValue(QStringLiteral("scan/ttlFromSave"), on);
        Q_EMIT rescanWanted(Rescan::File); // a file is read again in a moment, its TTLs as of the other moment
    });
    connect(actions.coldAfter, &QAction::triggered, this, &ScanSettings::askColdAfter);
    connect(actions.libraryCatalogue, &QAction::toggled, this, [this](bool on) {
        m_settings->setValue(QStringLiteral("lint/libraryCatalogue"), on);
        Q_EMIT rescanWanted(Rescan::WhenIdle); // the values the evidence reads are read at the end of a scan
    });
}

void ScanSettings::restore()
{
    m_actions.measureAccess->setChecked(m_settings->value(QStringLiteral("scan/measureAccess"), false).toBool());
    m_actions.exactMemory->setChecked(m_settings->value(QStringLiteral("scan/exactMemory"), false).toBool());
    m_actions.ttlFromSave->setChecked(m_settings->value(QStringLiteral("scan/ttlFromSave"), true).toBool());
    m_actions.libraryCatalogue->setChecked(m_settings->value(QStringLiteral("lint/libraryCatalogue"), true).toBool());
}

void ScanSettings::measureCollectionsWhole()
{
    const QSignalBlocker quiet(m_actions.exactMemory); // the command line's choice: for this window, not saved
    m_actions.exactMemory->setChecked(true);
}

std::int64_t ScanSettings::coldAfterSeconds() const
{
    const qint64 saved = m_settings->value(QStringLiteral("scan/coldAfterSeconds"), 0).toLongLong();
    return saved > 0 ? saved : scan::DefaultColdAfterSeconds;
}

void ScanSettings::askColdAfter()
{
    const QString current = displayText(keyspace::formatDuration(coldAfterSeconds() * 1000));
    for (QString text = current;;) {
        bool ok = false;
        text = QInputDialog::getText(m_window, tr("Cold after"),
                                     tr("A key nothing has read or written for longer than this is cold (90s, 12h, "
                                        "7d, 1h30m):"),
                                     QLineEdit::Normal, text, &ok);
        if (!ok)
            return;
        if (const std::optional<std::int64_t> seconds = usage::parseWholeSeconds(text.toUtf8())) {
            m_settings->setValue(QStringLiteral("scan/coldAfterSeconds"), qint64(*seconds));
            Q_EMIT coldAfterChanged(*seconds);
            return;
        }
        QMessageBox::warning(m_window, tr("Cold after"),
                             tr("\"%1\" is not a duration of at least a second, such as 7d or 12h.").arg(text));
    }
}

scan::ScanOptions ScanSettings::optionsFor(const models::ConnectionTarget& target)
{
    scan::ScanOptions options;
    options.connection = target.options;
    options.rdbFile = target.rdbFile;
    if (target.ttlFromSave) { // the command line's choice, shown as the window's
        const QSignalBlocker quiet(m_actions.ttlFromSave);
        m_actions.ttlFromSave->setChecked(*target.ttlFromSave);
    }
    options.ttlFromSave = m_actions.ttlFromSave->isChecked();
    options.maxKeysPerSecond = target.maxKeysPerSecond;
    options.sampleSize = target.sampleSize;
    // A file's memory is modelled from its encodings: nothing is sampled there (the command line refuses it).
    options.exactMemory = m_actions.exactMemory->isChecked() && target.rdbFile.isEmpty();
    options.speed = target.speed.value_or(scan::defaultSpeedFor(target.options));
    // The demo's keyspace is small and its own: it shows what idle times tell without the user asking.
    options.measureAccess = m_actions.measureAccess->isChecked() || target.demo;
    options.coldAfterSeconds = coldAfterSeconds();
    return options;
}

} // namespace keylens::ui
