// The window before it is connected, and its Help menu: the welcome page, the connections it offers again, the
// keyboard shortcuts, the legend, the tour and the README. Apart from MainWindow.cpp, which is about browsing.
#include "models/RecentConnections.h"
#include "models/SavedConnections.h"
#include "ui/HelpWindows.h"
#include "ui/KeyFilterBar.h"
#include "ui/MainWindow.h"
#include "ui/ScanStatusBar.h"
#include "ui/WelcomePage.h"

#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>

namespace keylens::ui {

void MainWindow::createHelpMenu()
{
    auto* help = menuBar()->addMenu(tr("&Help"));
    QAction* shortcuts = help->addAction(tr("&Keyboard shortcuts"), this, [this] {
        auto* dialog = new ShortcutsDialog(windowShortcuts(*this), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    shortcuts->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    help->addAction(m_legendAction);
    QAction* tour = help->addAction(tr("&What am I looking at?"), this, [this] { startTour(); });
    tour->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&README"), this, [this] {
        auto* readme = new ReadmeDialog(this);
        readme->setAttribute(Qt::WA_DeleteOnClose);
        readme->show();
    });
    help->addSeparator();
    help->addAction(tr("&About Keylens"), this, [this] {
        QMessageBox::about(this, tr("About Keylens"),
                           tr("<b>Keylens %1</b><p>A desktop browser for Redis keyspaces: where the "
                              "memory, the TTLs and the naming conventions go.</p>")
                               .arg(QStringLiteral(KEYLENS_VERSION)));
    });
}

WindowTour* MainWindow::startTour()
{
    if (auto* running = findChild<WindowTour*>())
        delete running;
    QWidget* toolbar = findChild<QToolBar*>(QStringLiteral("connectionBar"));
    std::vector<WindowTour::Step> steps{
        {toolbar, tr("The connection"),
         tr("Which server this is, and the scan's controls: pause, resume, cancel and rescan (F5). Keys "
            "shows every key split on ':'; Patterns folds ids, so user:<int>:profile is one row.")},
        {m_filterBar, tr("The filter"),
         tr("Type a prefix, a glob (user:*:cart) or a whole key to go to it (Ctrl+L). The tree then "
            "counts only what matches: '11 of 200 keys'.")},
        {m_central, tr("The tree"),
         tr("Every namespace with its keys, memory, TTLs, findings and types, totalled over all below "
            "it. The bar's length is the share of the parent, its colour the share of the whole "
            "keyspace: red is where the memory goes.")},
        {m_side, tr("Details, charts, treemap, server"),
         tr("The selected key's value (paged, searchable), or a namespace's totals and biggest keys; "
            "charts of where memory and TTLs go; a treemap where area is memory; the server at a "
            "glance from INFO.")},
        {m_findingsDock, tr("Findings"),
         tr("The keys that break the naming convention, rule by rule, with why it matters and how to "
            "fix it (Ctrl+Shift+F). Double-click a key to find it in the tree.")},
        {statusBar(), tr("The status bar"),
         tr("How far the scan is, how fast, and how many keys have expired since it ended.")},
    };
    auto* tour = new WindowTour(this, std::move(steps));
    tour->show(0);
    return tour;
}

void MainWindow::createWelcome()
{
    m_welcome = new WelcomePage;
    m_central->insertWidget(0, m_welcome);
    connect(m_welcome, &WelcomePage::connectToLocal, this, [this](const QString& host, quint16 port) {
        Target target;
        target.options.host = host;
        target.options.port = port;
        connectTo(target);
    });
    connect(m_welcome, &WelcomePage::newConnection, this, &MainWindow::openConnectionDialog);
    connect(m_welcome, &WelcomePage::openSaved, this, &MainWindow::openSavedConnection);
    connect(m_welcome, &WelcomePage::openRecent, this, &MainWindow::openRecentConnection);
    connect(m_welcome, &WelcomePage::tryDemo, this, [this] { startDemo(200'000); });
    showWelcome();
}

void MainWindow::showWelcome()
{
    if (!showsWelcome())
        m_findingsWereVisible = m_findingsDock->isVisibleTo(this);
    m_welcome->setConnections(m_saved->profiles(), m_recent->list());
    m_welcome->setShortcuts(windowShortcuts(*this));
    m_central->setCurrentWidget(m_welcome);
    m_findingsDock->setVisible(false);
    m_filterBar->setEnabled(false);
    m_welcome->probeLocalServer();
}

bool MainWindow::showsWelcome() const
{
    return m_central->currentWidget() == m_welcome;
}

void MainWindow::showBrowser()
{
    if (!showsWelcome())
        return;
    m_central->setCurrentWidget(m_splitter);
    m_findingsDock->setVisible(m_findingsWereVisible);
    m_filterBar->setEnabled(true);
}

} // namespace keylens::ui
