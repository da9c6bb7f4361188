#include "ui/WindowActions.h"

#include "keyspace/Units.h"
#include "scan/MemorySampling.h"
#include "ui/HelpWindows.h"
#include "ui/LegendDialog.h"

#include <QAction>
#include <QActionGroup>
#include <QIcon>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QToolBar>

namespace keylens::ui {

namespace {

QIcon icon(const char* name)
{
    return QIcon(QStringLiteral(":/icons/%1.svg").arg(QLatin1String(name)));
}

// A window that lives until it is closed.
void showUntilClosed(QWidget* window)
{
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->show();
}

} // namespace

WindowActions::WindowActions(QMainWindow& window)
{
    QMenuBar* bar = window.menuBar();
    fileMenu = bar->addMenu(tr("&File"));
    openConnection = fileMenu->addAction(icon("connect"), tr("&Connect…"));
    openConnection->setShortcut(QKeySequence::Open);
    openRdb = fileMenu->addAction(tr("Open &RDB file…"));
    openRdb->setToolTip(tr("Read a backup (dump.rdb) instead of a server: the same tree, patterns and findings, "
                           "memory estimated from the file, no server touched"));
    exportMenu = fileMenu->addMenu(tr("&Export"));
    fileMenu->addSeparator();
    quit = fileMenu->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);

    QMenu* edit = bar->addMenu(tr("&Edit"));
    copy = edit->addAction(icon("copy"), tr("&Copy key"));
    copy->setShortcut(QKeySequence::Copy);
    remove = edit->addAction(icon("delete"), tr("&Delete key…"));
    remove->setShortcut(QKeySequence::Delete);
    edit->addSeparator();
    newKey = edit->addAction(tr("&New key…"));
    newKey->setShortcut(QKeySequence::New);
    deleteBelow = edit->addAction(tr("Delete all keys below…"));
    expireBelow = edit->addAction(tr("Set the TTL of all keys below…"));
    persistBelow = edit->addAction(tr("Remove the TTL of all keys below…"));
    renameBelow = edit->addAction(tr("Rename into another namespace…"));
    edit->addSeparator();
    filter = edit->addAction(icon("filter"), tr("&Filter keys"));
    filter->setShortcut(QKeySequence::Find);
    goTo = edit->addAction(tr("&Go to key…"));
    goTo->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));

    QMenu* scan = bar->addMenu(tr("&Scan"));
    pause = scan->addAction(icon("pause"), tr("&Pause"));
    pause->setToolTip(tr("Pause the scan (the server is left alone until you resume)"));
    resume = scan->addAction(icon("resume"), tr("&Resume"));
    resume->setToolTip(tr("Resume the scan where it paused"));
    cancel = scan->addAction(icon("cancel"), tr("&Cancel"));
    cancel->setToolTip(tr("Stop the scan; what was scanned stays"));
    rescan = scan->addAction(icon("rescan"), tr("Re&scan"));
    rescan->setShortcuts({QKeySequence::Refresh, QKeySequence(Qt::CTRL | Qt::Key_R)});
    rescan->setToolTip(tr("Scan the server again (F5)"));
    scan->addSeparator();
    compareWith = scan->addAction(tr("Compare &with…"));
    compareWith->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    compareWith->setToolTip(tr("Compare this scan with an earlier one: what grew, what shrank, what is new or gone "
                               "(Ctrl+D)"));
    stopComparing = scan->addAction(tr("S&top comparing"));
    stopComparing->setEnabled(false);
    scan->addSeparator();
    measureAccess = scan->addAction(tr("Measure &idle times"));
    measureAccess->setCheckable(true);
    measureAccess->setToolTip(tr("Ask each key's idle time (OBJECT IDLETIME; OBJECT FREQ under an LFU policy), for "
                                 "the Cold column: a fourth command per key, about a fifth more server time"));
    exactMemory = scan->addAction(tr("Measure big collections &whole"));
    exactMemory->setCheckable(true);
    exactMemory->setToolTip(tr("MEMORY USAGE estimates a big hash, set, sorted set, list or stream from 5 of its "
                               "elements: measure such collections whole instead (SAMPLES 0, up to %1 elements; "
                               "bigger ones stay estimated and are counted), as keylens-cli --exact-memory does")
                                .arg(QString::fromUtf8(keyspace::formatCount(scan::DefaultExactMemoryCap))));
    ttlFromSave = scan->addAction(tr("&TTLs as of the save (RDB files)"));
    ttlFromSave->setCheckable(true);
    ttlFromSave->setToolTip(tr("An RDB file's TTLs as they were when it was saved (checked), or as they would be now "
                               "(unchecked: keys whose time has run out since are counted as expired, not shown)"));
    coldAfter = scan->addAction(tr("Cold &after…"));
    coldAfter->setToolTip(tr("How long a key may go unread before it counts as cold"));
    libraryCatalogue = scan->addAction(tr("Name &libraries from the catalogue"));
    libraryCatalogue->setCheckable(true);
    libraryCatalogue->setToolTip(tr("Name the libraries whose key layouts Keylens knows (BullMQ, Sidekiq, Django…) "
                                    "and judge their keys by their role (checked); unchecked, what keys are for "
                                    "comes from their own evidence alone: their TTLs, words and values"));
    followLive = scan->addAction(tr("&Follow live changes"));
    followLive->setCheckable(true);
    followLive->setToolTip(tr("After a scan, keep the tree following the server: keys written, deleted, expired or "
                              "evicted appear and leave as they do (the server's key events; a Writes/s column)"));
    profile = scan->addAction(tr("&Profile for N seconds…"));
    profile->setToolTip(tr("Sample MONITOR for a few seconds: which key patterns the application reads and writes "
                           "(costs the server about half its throughput meanwhile)"));

    viewMenu = bar->addMenu(tr("&View"));
    // In View and in Help: one action.
    legend = viewMenu->addAction(icon("legend"), tr("&Legend…"), &window,
                                 [&window] { showUntilClosed(new LegendDialog(&window)); });
    collapseAll = viewMenu->addAction(tr("&Collapse all"));
    history = viewMenu->addAction(tr("&History"));
    history->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_H));
    history->setToolTip(tr("The selection's memory and keys across every kept scan of this server (Ctrl+H)"));
    viewMenu->addSeparator();
    auto* views = new QActionGroup(&window);
    keysView = viewMenu->addAction(tr("&Keys"));
    keysView->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    keysView->setToolTip(tr("The keys split on the delimiter, every segment a row (Ctrl+1)"));
    patternsView = viewMenu->addAction(tr("&Patterns"));
    patternsView->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
    patternsView->setToolTip(tr("Ids folded into patterns: user:<int>:profile is one row for every user (Ctrl+2)"));
    for (QAction* action : {keysView, patternsView}) {
        action->setCheckable(true);
        views->addAction(action);
    }
    keysView->setChecked(true);

    QMenu* help = bar->addMenu(tr("&Help"));
    QAction* shortcuts = help->addAction(tr("&Keyboard shortcuts"), &window, [&window] {
        showUntilClosed(new ShortcutsDialog(windowShortcuts(window), &window));
    });
    shortcuts->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    help->addAction(legend);
    tour = help->addAction(tr("&What am I looking at?"));
    tour->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&README"), &window, [&window] { showUntilClosed(new ReadmeDialog(&window)); });
    help->addSeparator();
    help->addAction(tr("&About Keylens"), &window, [&window] {
        QMessageBox::about(&window, tr("About Keylens"),
                           tr("<b>Keylens %1</b><p>A desktop browser for Redis keyspaces: where the "
                              "memory, the TTLs and the naming conventions go.</p>")
                               .arg(QStringLiteral(KEYLENS_VERSION)));
    });
}

QToolBar* WindowActions::addConnectionBar(QMainWindow& window, QWidget* label) const
{
    QToolBar* bar = window.addToolBar(tr("Connection"));
    bar->setObjectName(QStringLiteral("connectionBar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addWidget(label);
    bar->addAction(openConnection);
    bar->addSeparator();
    bar->addActions({pause, resume, cancel, rescan});
    bar->addSeparator();
    bar->addActions({keysView, patternsView});
    return bar;
}

} // namespace keylens::ui
