#pragma once

#include <QCoreApplication>
#include <QList>

class QAction;
class QMainWindow;
class QMenu;
class QToolBar;
class QWidget;

namespace keylens::ui {

// The window's menus and the actions in them, with their words, icons, shortcuts and tooltips in one place, added to
// the window's menu bar in order: File, Edit, Scan, View, Help. The help that needs nothing but the window (the
// legend, the keyboard shortcuts, the README, About) works by itself; the window wires the rest to what it does and
// enables them. The docks' own toggles (Console, Findings) join the View menu where the window adds its docks.
class WindowActions
{
    Q_DECLARE_TR_FUNCTIONS(WindowActions)

public:
    explicit WindowActions(QMainWindow& window);
    // The connection bar: `label` (which server this is), Connect, the scan's controls, Keys and Patterns.
    QToolBar* addConnectionBar(QMainWindow& window, QWidget* label) const;

    QMenu* fileMenu;
    QMenu* exportMenu; // in File, filled by ExportActions
    QMenu* viewMenu;
    QAction* openConnection;
    QAction* openRdb; // an RDB file read instead of a server
    QAction* quit;

    QAction* copy;
    QAction* remove; // the selected key (a namespace: every key below it, through the bulk action)
    QAction* newKey;
    // On every key below the selection (or in the selected pattern).
    QAction* deleteBelow;
    QAction* expireBelow;
    QAction* persistBelow;
    QAction* renameBelow;
    QList<QAction*> bulk() const { return {deleteBelow, expireBelow, persistBelow, renameBelow}; }
    QAction* filter;
    QAction* goTo;

    QAction* pause;
    QAction* resume;
    QAction* cancel;
    QAction* rescan;
    QAction* compareWith;   // an earlier scan: the Δ columns
    QAction* stopComparing; // enabled while comparing
    QAction* measureAccess; // checked: scans ask OBJECT IDLETIME (a setting, off by default: it costs the server)
    QAction* exactMemory;   // checked: big collections are measured whole (MEMORY USAGE … SAMPLES 0; a setting, off)
    QAction* ttlFromSave;   // checked: an RDB file's TTLs as of its save, else as of now (a setting, on by default)
    QAction* coldAfter;     // the cold threshold
    // checked: libraries are named from the catalogue of layouts (a setting, on by default); unchecked, every role
    // comes from the keys' own evidence (lint::Profile::libraryCatalogue)
    QAction* libraryCatalogue;
    QAction* profile;    // a MONITOR sample: which patterns the application reads and writes
    QAction* followLive; // checked: the tree follows the server's key events after each scan (a setting)

    QAction* legend;
    QAction* collapseAll;
    QAction* history;  // the History tab
    QAction* keysView; // the raw tree; checked, with patternsView, in one group
    QAction* patternsView;

    QAction* tour;
};

} // namespace keylens::ui
