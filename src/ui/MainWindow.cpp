#include "ui/MainWindow.h"

#include "history/SnapshotStore.h"
#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "lint/Linter.h"
#include "lint/OverlayRules.h"
#include "lint/ProfileFile.h"
#include "models/DemoLauncher.h"
#include "models/DisplayText.h"
#include "models/EndOfScan.h"
#include "models/ExpiryCount.h"
#include "models/KeyTreeModel.h"
#include "models/KeyspaceView.h"
#include "models/RecentConnections.h"
#include "models/SavedConnections.h"
#include "models/ScanSession.h"
#include "models/SnapshotKeeper.h"
#include "models/StoreChanges.h"
#include "models/ValueInspector.h"
#include "redis/ClusterRoutes.h"
#include "ui/BrowserPane.h"
#include "ui/CompareDialog.h"
#include "ui/ConnectionDialog.h"
#include "ui/ConsoleView.h"
#include "ui/EditActions.h"
#include "ui/ExportActions.h"
#include "ui/FindingsPanel.h"
#include "ui/KeyFilterBar.h"
#include "ui/LiveBar.h"
#include "ui/PasswordVault.h"
#include "ui/PatternView.h"
#include "ui/ProfileDialog.h"
#include "ui/ScanSettings.h"
#include "ui/ScanStatusBar.h"
#include "ui/ScreenshotAfterScan.h"
#include "ui/WindowActions.h"
#include "ui/WindowDocks.h"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QMenu>
#include <QScreen>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QToolBar>
#include <QTreeView>

#include <cstdio>

// The icons are compiled into this static library; a static library's resources must be registered
// by hand, at global scope.
static void registerResources()
{
    Q_INIT_RESOURCE(keylens);
}

namespace keylens::ui {

using models::displayText;

using models::KeyTreeModel;

namespace {

QIcon icon(const char* name)
{
    return QIcon(QStringLiteral(":/icons/%1.svg").arg(QLatin1String(name)));
}

} // namespace

MainWindow::MainWindow(QSettings* settings, QWidget* parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_saved(new models::SavedConnections(settings, this))
    , m_recent(std::make_unique<models::RecentConnections>(settings))
    , m_vault(new PasswordVault(this))
    , m_session(new models::ScanSession(this))
    , m_inspector(new models::ValueInspector(this))
    , m_expiries(new models::ExpiryCount(m_session->view(), this))
{
    registerResources();
    // Every scan is kept as a snapshot (docs/snapshot-format.md), for `keylens-cli diff` and comparisons later.
    m_session->snapshots()->setFolder(
        QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/snapshots"),
        std::size_t(std::max(1, m_settings->value(QStringLiteral("history/snapshotsKept"), 100).toInt())));
    setWindowTitle(tr("Keylens"));
    setWindowIcon(icon("keylens"));
    createActions();
    createLayout();
    createLiveView();
    createWelcome();
    restoreSettings();
    m_edits = new EditActions(*m_actions, this, *m_session, *m_browser, *m_findings, m_inspector);
    connect(m_edits, &EditActions::message, m_status, &ScanStatusBar::showMessage);

    connect(m_session, &models::ScanSession::progressChanged, m_status, &ScanStatusBar::showProgress);
    connect(m_session, &models::ScanSession::finished, this, &MainWindow::scanDone);
    connect(m_session, &models::ScanSession::published, this, [this] {
        if (m_findingsDock->isVisible() && !m_findingsRefresh.isActive())
            m_findingsRefresh.start();
    });
    connect(m_session, &models::ScanSession::findingsChanged, this, &MainWindow::refreshFindings);
    m_findingsRefresh.setObjectName(QStringLiteral("findings refresh"));
    m_findingsRefresh.setSingleShot(true);
    m_findingsRefresh.setInterval(1000);
    connect(&m_findingsRefresh, &QTimer::timeout, this, &MainWindow::refreshFindings);
    connect(m_findingsDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible)
            refreshFindings();
    });
    connect(m_findings, &FindingsPanel::keyActivated, this, [this](const QByteArray& key) {
        if (!m_browser->selectPath(key))
            m_status->showMessage(
                tr("%1 is hidden by the filter or gone from the tree").arg(displayText(keyspace::displayBytes(key))));
    });
    connect(m_findings, &FindingsPanel::treeFilterChanged, m_browser, &BrowserPane::setTreeFindingsFilter);
    // "All keys": the box emits, and the tree follows.
    connect(m_browser, &BrowserPane::allKeysWanted, this, [this] { m_findings->treeFilterBox()->setCurrentIndex(0); });
    connect(m_browser, &BrowserPane::splitRequested, this, [this](const keyspace::Delimiters& delimiters) {
        m_target.delimiter = delimiters;
        rescan();
    });
    connect(m_browser, &BrowserPane::patternsShown, this, [this](bool patterns) {
        m_actions->patternsView->setChecked(patterns);
        m_actions->keysView->setChecked(!patterns);
    });

    m_countdown.setObjectName(QStringLiteral("expired since"));
    m_countdown.setInterval(1000);
    connect(&m_countdown, &QTimer::timeout, this, [this] {
        if (const std::optional<std::uint64_t> expired = m_expiries->expiredBy(QDateTime::currentMSecsSinceEpoch()))
            m_status->showExpiredSince(*expired);
    });
    connect(m_expiries, &models::ExpiryCount::ready, this, [this] {
        m_status->showExpiredSince(m_expiries->expiredBy(QDateTime::currentMSecsSinceEpoch()).value_or(0));
    });
    m_countdown.start();

    updateScanActions();
}

MainWindow::~MainWindow()
{
    disconnect(m_session, nullptr, this, nullptr);
    // The browser follows the session's signals and reads its store: it goes while the session is still whole (the
    // session, the window's first child, would go first).
    delete m_central;
}

void MainWindow::requestScreenshot(const QString& file, const QByteArray& path, const QString& view)
{
    delete m_screenshot;
    m_screenshot = new ScreenshotAfterScan(*this, *m_session, *m_browser, *m_findings, [this] { showFindingsPanel(); },
                                           {file, path, view});
}

QString MainWindow::statusText() const
{
    return m_status->text();
}

void MainWindow::createActions()
{
    m_actions = std::make_unique<WindowActions>(*this);
    const WindowActions& actions = *m_actions;
    connect(actions.openConnection, &QAction::triggered, this, &MainWindow::openConnectionDialog);
    connect(actions.openRdb, &QAction::triggered, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open RDB file"), QString(), tr("RDB files (*.rdb);;All files (*)"));
        if (!path.isEmpty())
            connectTo(Target::offlineFile(path));
    });
    connect(actions.quit, &QAction::triggered, this, &QWidget::close);
    connect(actions.filter, &QAction::triggered, this, [this] { m_browser->filterBar()->focusToFilter(); });
    connect(actions.goTo, &QAction::triggered, this, [this] { m_browser->filterBar()->focusToGoTo(); });
    connect(actions.pause, &QAction::triggered, this, [this] {
        m_session->pause();
        updateScanActions();
    });
    connect(actions.resume, &QAction::triggered, this, [this] {
        m_session->resume();
        updateScanActions();
    });
    connect(actions.cancel, &QAction::triggered, m_session, &models::ScanSession::cancel);
    connect(actions.rescan, &QAction::triggered, this, &MainWindow::rescan);
    m_scanSettings = new ScanSettings(m_settings, actions, this);
    connect(m_scanSettings, &ScanSettings::coldAfterChanged, m_session, &models::ScanSession::setColdAfter);
    connect(m_scanSettings, &ScanSettings::rescanWanted, this, [this](ScanSettings::Rescan when) {
        const bool file = !m_target.rdbFile.isEmpty();
        if (when == ScanSettings::Rescan::File) {
            m_target.ttlFromSave.reset(); // chosen in the window from now on, over the command line's
            if (m_hasTarget && file)
                rescan();
        } else if (m_hasTarget && !m_session->isRunning() && !(when == ScanSettings::Rescan::ServerWhenIdle && file)) {
            rescan();
        }
    });
    connect(actions.profile, &QAction::triggered, this, [this] {
        if (!m_hasTarget)
            return;
        auto* dialog = new ProfileDialog(m_target.options, m_target.delimiter, m_target.production, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    connect(actions.compareWith, &QAction::triggered, this, [this] {
        // This server's snapshots when a scan of it named it; a file otherwise.
        QString folder;
        std::int64_t current = 0;
        if (const std::shared_ptr<const history::Snapshot>& last = m_session->snapshots()->lastSnapshot();
            last && !m_session->snapshots()->folder().isEmpty()) {
            folder = history::SnapshotStore(m_session->snapshots()->folder())
                         .folderOf(last->server.address, last->server.db);
            current = last->takenAtMs;
        }
        CompareDialog dialog(folder, current, this);
        if (dialog.exec() == QDialog::Accepted)
            m_browser->compareWith(dialog.comparison());
    });
    connect(actions.stopComparing, &QAction::triggered, this, [this] { m_browser->compareWith(nullptr); });
    connect(actions.history, &QAction::triggered, this, [this] { m_browser->showHistory(); });
    connect(actions.collapseAll, &QAction::triggered, this, [this] { m_browser->collapseAll(); });
    connect(actions.keysView, &QAction::triggered, this, [this] { m_browser->showPatterns(false); });
    connect(actions.patternsView, &QAction::triggered, this, [this] { m_browser->showPatterns(true); });
    connect(actions.tour, &QAction::triggered, this, &MainWindow::startTour);

    m_console = new ConsoleView;
    m_consoleDock = addConsoleDock(*this, m_console);
    actions.viewMenu->insertAction(actions.collapseAll, m_consoleDock->toggleViewAction());
    connect(m_console, &ConsoleView::keysWritten, m_session->changes(), &models::StoreChanges::keysAre);
}

void MainWindow::createLayout()
{
    m_connectionLabel = new QLabel(tr("Not connected"));
    m_connectionLabel->setObjectName(QStringLiteral("connectionLabel"));
    m_connectionLabel->setContentsMargins(6, 0, 10, 0);
    m_connectionLabel->setTextFormat(Qt::RichText);
    m_toolbar = m_actions->addConnectionBar(*this, m_connectionLabel);

    m_browser = new BrowserPane(m_session, m_inspector);
    connect(m_browser, &BrowserPane::comparisonChanged, m_actions->stopComparing, &QAction::setEnabled);
    m_browser->tree()->addActions(QList<QAction*>{m_actions->copy, m_actions->remove} + m_actions->bulk());
    m_browser->patternView()->addActions(m_actions->bulk());
    m_central = new QStackedWidget;
    m_central->addWidget(m_browser);
    setCentralWidget(m_central);

    m_findings = new FindingsPanel(m_session->view());
    connect(m_findings, &FindingsPanel::groupingReady, this, &MainWindow::refreshFindings);
    m_findingsDock = addFindingsDock(*this, m_findings);
    m_actions->viewMenu->addSeparator();
    m_actions->viewMenu->addAction(m_findingsDock->toggleViewAction());

    m_status = new ScanStatusBar;
    statusBar()->addWidget(m_status, 1);
    m_exports = new ExportActions(m_actions->exportMenu, this, *m_session, *m_browser, m_inspector);
    connect(m_exports, &ExportActions::message, m_status, &ScanStatusBar::showMessage);
    // The scan's controls are in the connection bar, labelled, once: the status bar only says how it goes.
    statusBar()->setSizeGripEnabled(true);
}

void MainWindow::measureCollectionsWhole()
{
    m_scanSettings->measureCollectionsWhole();
}

void MainWindow::restoreSettings()
{
    m_scanSettings->restore();
    m_actions->followLive->setChecked(m_settings->value(QStringLiteral("scan/followLive"), false).toBool());
    // The first size fits the screen: on a 1366x768 laptop or an 800x600 VM every edge stays in sight.
    const QSize size = QSize(1280, 800).boundedTo(screen()->availableGeometry().size());
    resize(size);
    // The findings show seven rows of their list (two at 800x600 read as an empty panel), more up to 220 px on a tall
    // screen, and never half the window: the tree and a key's value stay in sight. The dock's own frame and title
    // are what its size hint adds to the panel's. The last run's height, restored below, replaces it.
    const int dockFrame = m_findingsDock->sizeHint().height() - m_findings->sizeHint().height();
    const int findingsHeight = std::min(
        std::max(m_findings->heightForListRows(7) + dockFrame, std::min(220, size.height() / 4)), size.height() / 2);
    resizeDocks({m_findingsDock}, {findingsHeight}, Qt::Vertical);
    restoreGeometry(m_settings->value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(m_settings->value(QStringLiteral("window/state")).toByteArray());
    m_browser->restoreSettings(*m_settings, size.width());
}

void MainWindow::saveSettings()
{
    m_settings->setValue(QStringLiteral("window/geometry"), saveGeometry());
    m_settings->setValue(QStringLiteral("window/state"), saveState());
    m_browser->saveSettings(*m_settings);
    m_settings->sync();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!m_screenshot)
        saveSettings();
    m_session->cancel();
    event->accept();
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    // Below this width the buttons' words would push Keys and Patterns into the overflow menu: icons then, with the
    // words in their tooltips (Keys and Patterns have no icon and keep theirs).
    constexpr int WordsFrom = 880;
    m_toolbar->setToolButtonStyle(width() < WordsFrom ? Qt::ToolButtonIconOnly : Qt::ToolButtonTextBesideIcon);
}

void MainWindow::updateScanActions()
{
    const bool running = m_session->isRunning();
    m_actions->pause->setEnabled(running && !m_session->isPaused());
    m_actions->resume->setEnabled(running && m_session->isPaused());
    m_actions->cancel->setEnabled(running);
    m_actions->rescan->setEnabled(m_hasTarget);
    const bool file = m_hasTarget && !m_target.rdbFile.isEmpty();
    m_actions->profile->setEnabled(m_hasTarget && !file); // MONITOR needs a server
    m_actions->ttlFromSave->setEnabled(file);
}

void MainWindow::rescan()
{
    if (!m_hasTarget)
        return;
    if (loginWasRefused()) {
        askAgainForCredentials(); // the same password would be refused again, silently
        return;
    }
    TreeViewState state = m_browser->viewForRescan();
    connectTo(m_target);
    m_browser->reopenAsScanned(std::move(state)); // after connectTo(), which forgets the view of another target
}

void MainWindow::connectTo(const Target& chosen)
{
    // Every connection to this target shares one routing table: on a cluster, each key is read and edited on the
    // node serving its slot (learned on the first key read; a single server answers that once and is left alone).
    Target target = chosen;
    target.options.cluster = std::make_shared<redis::ClusterRoutes>();
    showBrowser();
    m_connectFailure.reset();
    // Another server or database starts unfiltered: the last one's filter would hide this one's keys. A rescan of
    // the same one keeps it.
    const bool another = !m_hasTarget || m_target.options.description() != target.options.description();
    m_target = target;
    m_hasTarget = true;
    m_browser->targetChanged(target.options, another);
    const QString name = target.displayName();
    m_console->setConnection(target.options, target.production, name);
    QString label = QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped());
    if (target.options.db != 0)
        label += tr(" db%1").arg(target.options.db);
    if (target.options.readOnly)
        label += tr(" · read-only");
    if (!target.rdbFile.isEmpty())
        label += tr(" · RDB file, memory estimated");
    if (target.colour.isValid())
        label = tr("<span style='color:%1'>■</span> ").arg(target.colour.name()) + label;
    m_connectionLabel->setText(label);
    setWindowTitle(tr("%1 — Keylens").arg(name));

    m_inspector->setConnection(target.options);
    m_edits->setConnection(target.options);
    m_liveBar->setReadOnly(target.options.readOnly);
    m_session->start(m_scanSettings->optionsFor(target), target.delimiter);
    // After start(): set on the fresh, empty store (before it, the new profile re-linted the previous
    // scan's keys, a second per million, only to throw them away). No key arrives before the event loop.
    applyLintProfile(m_lintProfileOverride.isEmpty() ? target.lintProfile : m_lintProfileOverride);
    refreshFindings();
    m_browser->scanStarted();
    m_status->showStarting(tr("Connecting to %1…").arg(target.options.description()));
    updateScanActions();
}

void MainWindow::startDemo(std::uint64_t keys, const Target& scanSettings, quint16 port)
{
    showBrowser();
    delete m_demo;
    m_demo = new models::DemoLauncher(this);
    m_connectionLabel->setText(tr("<b>Demo server</b>"));
    m_status->showStarting(
        tr("Starting the demo server and writing %1 keys…").arg(displayText(keyspace::formatCount(keys))));
    connect(m_demo, &models::DemoLauncher::ready, this, [this, scanSettings](const redis::ConnectionOptions& options) {
        // Said on stderr too, so one can point redis-cli at it while the window is open.
        std::fprintf(stderr, "keylens: demo server at %s; it stops when the window closes\n",
                     qPrintable(options.uriWithoutPassword()));
        Target target = scanSettings;
        target.options = options;
        target.name = tr("Demo server (%1)").arg(options.address());
        target.remember = false; // its port is gone when the window closes
        target.demo = true;
        connectTo(target);
    });
    connect(m_demo, &models::DemoLauncher::failed, this, [this](const QString& reason) {
        showConnectionProblem(reason);
        if (m_screenshot)
            m_screenshot->failed(reason);
    });
    m_demo->start(keys, port);
}

void MainWindow::scanDone(const scan::ScanSummary& summary)
{
    const models::KeyspaceView& keyspace = m_session->view();
    const keyspace::NamespaceStats totals = keyspace.stats(keyspace.root());
    m_status->showFinished(summary, keyspace.keyCount(), totals.memoryBytes, totals.keysMemorySampled);
    m_expiries->start();
    if (summary.serverRestarted)
        m_browser->showBanner(tr("The server restarted (or another took over in a failover) during this scan, "
                                 "so the scan started over; rows may still list keys that are gone since. "
                                 "Rescan (F5) to see the server as it is."));
    if (summary.error && summary.scanCalls > 0) {
        // Stopped part way (a damaged file, a server lost for good): the tree holds what came before, and says so
        // where it cannot be missed, not only in the status line. The title too, for the window list and the taskbar.
        const bool file = !m_target.rdbFile.isEmpty();
        m_browser->showBanner(
            (file ? tr("Reading stopped: %1. The tree shows the %2 keys read before it: a partial result.")
                  : tr("The scan stopped: %1. The tree shows the %2 keys scanned before it: a partial result."))
                .arg(summary.error->message, displayText(keyspace::formatCount(keyspace.keyCount()))));
        setWindowTitle(tr("%1 (partial) — Keylens").arg(m_target.displayName()));
        m_connectionLabel->setText(m_connectionLabel->text() + tr(" · <b>partial</b>"));
    }
    if (summary.error && summary.scanCalls == 0) {
        // Nothing was read: the bar says what was asked for, not what a reading of it would have been.
        if (!m_target.rdbFile.isEmpty())
            m_connectionLabel->setText(tr("<b>%1</b> · not read").arg(m_target.displayName().toHtmlEscaped()));
        connectionFailed(*summary.error);
    } else if (m_target.remember) // offered again on the welcome page: a server that answered, not a typo
        m_recent->remember({m_target.displayName(), m_target.options.uriWithoutPassword(), m_target.savedId,
                            m_target.options.tls, m_target.options.ssh, m_target.options.readOnly});
    m_browser->scanFinished(summary);
    updateScanActions();
    Q_EMIT scanFinished(summary);

    if (m_screenshot)
        m_screenshot->scanFinished(summary);
}

void MainWindow::applyLintProfile(const QString& nameOrPath)
{
    const QString wanted = nameOrPath.isEmpty() ? QStringLiteral("default") : nameOrPath;
    QString error;
    std::optional<lint::Profile> profile = lint::loadProfile(wanted, &error);
    if (!profile) {
        // The scan is still worth having: lint it with the default and say why.
        showConnectionProblem(
            tr("Profile %1: %2. The keys are checked against the default profile.").arg(wanted, error));
        profile = lint::loadProfile(QStringLiteral("default"), &error);
    }
    profile->libraryCatalogue = profile->libraryCatalogue && m_actions->libraryCatalogue->isChecked();
    m_session->setLintProfile(std::move(*profile));
}

void MainWindow::refreshFindings()
{
    m_findingsRefresh.stop();
    if (!m_findingsDock->isVisible())
        return;
    m_findings->showFindings(m_session->linter(), m_session->isRunning());
    m_findings->setNotices(m_session->endOfScan()->notices());
}

void MainWindow::showFindingsPanel()
{
    m_findingsDock->show();
    m_findingsDock->raise();
    refreshFindings();
    m_findings->openFirstRule();
}

} // namespace keylens::ui
