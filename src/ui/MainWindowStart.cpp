// The window before it is connected, and the tour of it: the welcome page, the connections it offers again, the
// steps over the window's parts. Apart from MainWindow.cpp, which is the shell.
#include "models/RecentConnections.h"
#include "models/SavedConnections.h"
#include "ui/BrowserPane.h"
#include "ui/HelpWindows.h"
#include "ui/KeyFilterBar.h"
#include "ui/MainWindow.h"
#include "ui/ScanStatusBar.h"
#include "ui/WelcomePage.h"

#include <QDockWidget>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>

namespace keylens::ui {

WindowTour* MainWindow::startTour()
{
    delete findChild<WindowTour*>(); // one at a time
    auto* tour = new WindowTour(this, windowTourSteps({m_toolbar, m_browser->filterBar(), m_central,
                                                       m_browser->sidePane(), m_findingsDock, statusBar()}));
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
    m_browser->filterBar()->setEnabled(false);
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
    m_central->setCurrentWidget(m_browser);
    m_findingsDock->setVisible(m_findingsWereVisible);
    m_browser->filterBar()->setEnabled(true);
}

} // namespace keylens::ui
