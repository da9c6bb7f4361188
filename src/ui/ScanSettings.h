#pragma once

#include "scan/ScanTypes.h"

#include <QObject>

#include <cstdint>

class QSettings;
class QWidget;

namespace keylens::models {
struct ConnectionTarget;
} // namespace keylens::models

namespace keylens::ui {

class WindowActions;

// The Scan menu's settings: access times (OBJECT IDLETIME), big collections measured whole (SAMPLES 0), an RDB file's
// TTLs as of its save, the cold threshold, and the library catalogue. Kept in the settings file as they change
// (--exact-memory's choice is not), restored at start, and turned into a scan's options. A setting that only a new
// scan shows asks the window for one (rescanWanted); the window knows whether it has a target and a scan runs.
class ScanSettings : public QObject
{
    Q_OBJECT

public:
    // When the window rescans after a change.
    enum class Rescan {
        WhenIdle,       // it has a target and no scan runs
        ServerWhenIdle, // the same, and the target is a server (a file's memory is modelled, never sampled)
        File,           // its target is a file, scanning or not; the file's TTLs are chosen here from now on, over the
                        // command line's (ConnectionTarget::ttlFromSave)
    };
    Q_ENUM(Rescan)

    // The actions are `actions`' Scan menu's; the cold threshold's question is `window`'s.
    ScanSettings(QSettings* settings, const WindowActions& actions, QWidget* window);

    // The actions checked as the settings file says.
    void restore();
    // keylens --exact-memory: every scan of this window measures big collections whole (not saved).
    void measureCollectionsWhole();
    // The setting, or 7 days.
    std::int64_t coldAfterSeconds() const;
    // Scan > Cold after…: asked until it is a duration or cancelled; coldAfterChanged() follows a new one.
    void askColdAfter();
    // How to scan `target`: its own choices (speed, rate, sample, a file), the settings for the rest. The command
    // line's choice of a file's TTLs, when the target has one, is shown as the window's.
    scan::ScanOptions optionsFor(const models::ConnectionTarget& target);

Q_SIGNALS:
    void coldAfterChanged(std::int64_t seconds);
    void rescanWanted(keylens::ui::ScanSettings::Rescan when);

private:
    QSettings* m_settings;
    const WindowActions& m_actions;
    QWidget* m_window;
};

} // namespace keylens::ui
