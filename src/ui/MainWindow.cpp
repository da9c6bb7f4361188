#include "ui/MainWindow.h"

#include "keyspace/ExpiryTimeline.h"
#include "keyspace/KeyEscape.h"
#include "keyspace/KeyGlob.h"
#include "keyspace/SubtreeTotals.h"
#include "keyspace/Units.h"
#include "lint/Linter.h"
#include "lint/OverlayRules.h"
#include "lint/ProfileFile.h"
#include "models/ChartJob.h"
#include "models/DisplayText.h"
#include "models/FindingsText.h"
#include "models/KeyTreeModel.h"
#include "models/PatternTreeModel.h"
#include "models/RecentConnections.h"
#include "models/SavedConnections.h"
#include "models/ScanSession.h"
#include "models/ValueInspector.h"
#include "redis/ClusterRoutes.h"
#include "ui/ChartsPane.h"
#include "ui/ColumnFitter.h"
#include "ui/ConnectionDialog.h"
#include "ui/ConsoleView.h"
#include "ui/DelimiterSuggestionBar.h"
#include "ui/DemoLauncher.h"
#include "ui/FindingsPanel.h"
#include "ui/KeyDetailsView.h"
#include "ui/KeyFilterBar.h"
#include "ui/KeyTreeDelegate.h"
#include "ui/LegendDialog.h"
#include "ui/NamespaceDetailsView.h"
#include "ui/PasswordVault.h"
#include "ui/PatternDetailsView.h"
#include "ui/PatternView.h"
#include "ui/ScanStatusBar.h"
#include "ui/ServerPanel.h"
#include "ui/ShardsPane.h"
#include "ui/TreemapPane.h"
#include "ui/TreemapView.h"
#include "ui/WelcomePage.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QToolBar>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>

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

enum DetailsPage { PlaceholderPage, KeyPage, NamespacePage, PatternPage };

} // namespace

MainWindow::MainWindow(QSettings* settings, QWidget* parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_saved(new models::SavedConnections(settings, this))
    , m_recent(std::make_unique<models::RecentConnections>(settings))
    , m_vault(new PasswordVault(this))
    , m_session(new models::ScanSession(this))
    , m_inspector(new models::ValueInspector(this))
{
    registerResources();
    setWindowTitle(tr("Keylens"));
    setWindowIcon(icon("keylens"));
    createActions();
    createLayout();
    createWelcome();
    restoreSettings();

    connect(m_session, &models::ScanSession::progressChanged, m_status, &ScanStatusBar::showProgress);
    connect(m_session, &models::ScanSession::finished, this, &MainWindow::scanDone);
    connect(m_session, &models::ScanSession::published, this, [this] {
        if (!showsPatterns()) // a hidden key tree stays folded: see showPatterns()
            m_viewState.reapply(*m_tree, *treeModel());
        if (m_shownNamespace != keyspace::InvalidNode && !m_namespaceRefresh.isActive())
            m_namespaceRefresh.start();
        if (m_findingsDock->isVisible() && !m_findingsRefresh.isActive())
            m_findingsRefresh.start();
        updateFilterInfo(); // keys that arrive match too
    });
    connect(m_session, &models::ScanSession::findingsChanged, this, [this] {
        // Under a findings filter new findings change which rows exist: keep what was open by path.
        if (treeModel()->findingsFilter().enabled)
            keepingTreeState([this] { treeModel()->refreshFindings(); });
        else
            treeModel()->refreshFindings();
        updateFilterInfo();
        refreshFindings();
        if (const keyspace::NodeId node = selectedNode();
            node != keyspace::InvalidNode && m_details->currentIndex() == KeyPage)
            m_keyDetails->showFindings(models::findingRulesOfKey(m_session->keyspace(), node));
        refreshNamespaceDetails();
    });
    m_findingsRefresh.setObjectName(QStringLiteral("findings refresh"));
    m_findingsRefresh.setSingleShot(true);
    m_findingsRefresh.setInterval(1000);
    connect(&m_findingsRefresh, &QTimer::timeout, this, &MainWindow::refreshFindings);
    connect(m_findingsDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible)
            refreshFindings();
    });
    connect(m_findings, &FindingsPanel::keyActivated, this, [this](const QByteArray& key) {
        if (!selectPath(key))
            m_status->showMessage(
                tr("%1 is hidden by the filter or gone from the tree").arg(displayText(keyspace::displayBytes(key))));
    });
    connect(m_findings, &FindingsPanel::treeFilterChanged, this, &MainWindow::setTreeFindingsFilter);
    m_namespaceRefresh.setObjectName(QStringLiteral("namespace refresh"));
    m_namespaceRefresh.setSingleShot(true);
    m_namespaceRefresh.setInterval(1000);
    connect(&m_namespaceRefresh, &QTimer::timeout, this, &MainWindow::refreshNamespaceDetails);

    connect(m_filterBar, &KeyFilterBar::filterChanged, this, &MainWindow::applyFilter);

    m_countdown.setObjectName(QStringLiteral("ttl countdown"));
    m_countdown.setInterval(1000);
    // TTLs count down: the model computes them when painted, so a repaint is all it takes.
    connect(&m_countdown, &QTimer::timeout, m_tree->viewport(), qOverload<>(&QWidget::update));
    connect(&m_countdown, &QTimer::timeout, this, [this] {
        if (m_expiries.isComplete() && !m_expiries.isEmpty())
            m_status->showExpiredSince(m_expiries.expiredBy(QDateTime::currentMSecsSinceEpoch()));
    });
    m_countdown.start();

    connect(m_keyDetails, &KeyDetailsView::lengthKnown, this, [this](keyspace::NodeId node, std::uint64_t length) {
        m_session->lengthsKnown({{node, length}});
    });
    connect(m_inspector, &models::ValueInspector::lengthsReady, this,
            [this](std::uint64_t scan, const std::vector<std::pair<std::uint32_t, std::uint64_t>>& lengths) {
                if (scan != m_scanGeneration)
                    return; // counted for a store that a rescan has replaced
                m_session->lengthsKnown(lengths);
            });
    connect(m_keyDetails, &KeyDetailsView::loaded, this, [this] {
        if (m_screenshotPending && !m_session->isRunning())
            QTimer::singleShot(150, this, &MainWindow::takeScreenshot);
    });
    connect(m_namespaceDetails, &NamespaceDetailsView::keyActivated, this, [this](keyspace::NodeId node) {
        const QModelIndex index = treeModel()->indexOfNode(node);
        if (index.isValid()) {
            m_tree->scrollTo(index);
            m_tree->setCurrentIndex(index);
        }
    });
    connect(m_inspector, &models::ValueInspector::deleteDone, this,
            [this](std::uint64_t, const QByteArray& key, const QString& error) {
                if (!error.isEmpty()) {
                    QMessageBox::warning(
                        this, tr("Delete"),
                        tr("%1 was not deleted: %2").arg(displayText(keyspace::displayBytes(key)), error));
                    return;
                }
                const keyspace::NodeId node = m_session->keyspace().find(key);
                if (node != keyspace::InvalidNode)
                    treeModel()->markDeleted(node);
                m_status->showMessage(
                    tr("Deleted %1. Rescan (F5) to refresh the totals.").arg(displayText(keyspace::displayBytes(key))));
            });
    m_deleteAction->setEnabled(false); // until a key is selected
    connect(m_inspector, &models::ValueInspector::editDone, this, &MainWindow::storeFollowsEdit);
    updateScanActions();
}

MainWindow::~MainWindow()
{
    // The children outlive this class's part of the object: a view that tells of its selection while
    // ~QWidget deletes it (the pattern view does, as its model resets) must not reach this window.
    disconnect(m_patternView, nullptr, this, nullptr);
    disconnect(m_treemap->view(), nullptr, this, nullptr);
    disconnect(m_session, nullptr, this, nullptr);
    disconnect(m_session->patternModel(), nullptr, this, nullptr);
}

KeyTreeModel* MainWindow::treeModel() const
{
    return m_session->model();
}

QString MainWindow::statusText() const
{
    return m_status->text();
}

void MainWindow::createActions()
{
    auto* fileMenu = menuBar()->addMenu(tr("&File"));
    QAction* connectAction =
        fileMenu->addAction(icon("connect"), tr("&Connect…"), this, &MainWindow::openConnectionDialog);
    connectAction->setShortcut(QKeySequence::Open);
    addExportMenu(fileMenu);
    fileMenu->addSeparator();
    QAction* quit = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    auto* editMenu = menuBar()->addMenu(tr("&Edit"));
    m_copyAction = editMenu->addAction(icon("copy"), tr("&Copy key"), this, &MainWindow::copySelectedKey);
    m_copyAction->setShortcut(QKeySequence::Copy);
    m_deleteAction = editMenu->addAction(icon("delete"), tr("&Delete key…"), this, &MainWindow::deleteSelectedKey);
    m_deleteAction->setShortcut(QKeySequence::Delete);
    editMenu->addSeparator();
    QAction* newKey = editMenu->addAction(tr("&New key…"), this, &MainWindow::createKey);
    newKey->setShortcut(QKeySequence::New);
    m_bulkActions = {
        editMenu->addAction(tr("Delete all keys below…"), this, [this] { openBulkAction(edit::BulkKind::Delete); }),
        editMenu->addAction(tr("Set the TTL of all keys below…"), this,
                            [this] { openBulkAction(edit::BulkKind::Expire); }),
        editMenu->addAction(tr("Remove the TTL of all keys below…"), this,
                            [this] { openBulkAction(edit::BulkKind::Persist); }),
        editMenu->addAction(tr("Rename into another namespace…"), this,
                            [this] { openBulkAction(edit::BulkKind::Rename); }),
    };
    editMenu->addSeparator();
    QAction* find =
        editMenu->addAction(icon("filter"), tr("&Filter keys"), this, [this] { m_filterBar->focusToFilter(); });
    find->setShortcut(QKeySequence::Find);
    QAction* goTo = editMenu->addAction(tr("&Go to key…"), this, [this] { m_filterBar->focusToGoTo(); });
    goTo->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));

    auto* scanMenu = menuBar()->addMenu(tr("&Scan"));
    m_pauseAction = scanMenu->addAction(icon("pause"), tr("&Pause"), this, [this] {
        m_session->pause();
        updateScanActions();
    });
    m_resumeAction = scanMenu->addAction(icon("resume"), tr("&Resume"), this, [this] {
        m_session->resume();
        updateScanActions();
    });
    m_cancelAction = scanMenu->addAction(icon("cancel"), tr("&Cancel"), this, [this] { m_session->cancel(); });
    m_rescanAction = scanMenu->addAction(icon("rescan"), tr("Re&scan"), this, &MainWindow::rescan);
    m_rescanAction->setShortcuts({QKeySequence::Refresh, QKeySequence(Qt::CTRL | Qt::Key_R)});
    m_pauseAction->setToolTip(tr("Pause the scan (the server is left alone until you resume)"));
    m_resumeAction->setToolTip(tr("Resume the scan where it paused"));
    m_cancelAction->setToolTip(tr("Stop the scan; what was scanned stays"));
    m_rescanAction->setToolTip(tr("Scan the server again (F5)"));

    auto* viewMenu = menuBar()->addMenu(tr("&View"));
    // In View and in Help: one action.
    m_legendAction = viewMenu->addAction(icon("legend"), tr("&Legend…"), this, [this] {
        auto* legend = new LegendDialog(this);
        legend->setAttribute(Qt::WA_DeleteOnClose);
        legend->show();
    });
    m_console = new ConsoleView;
    m_consoleDock = new QDockWidget(tr("Console"), this);
    m_consoleDock->setObjectName(QStringLiteral("console"));
    m_consoleDock->setWidget(m_console);
    addDockWidget(Qt::BottomDockWidgetArea, m_consoleDock);
    m_consoleDock->hide();
    QAction* consoleAction = m_consoleDock->toggleViewAction();
    consoleAction->setText(tr("C&onsole"));
    consoleAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_QuoteLeft));
    viewMenu->addAction(consoleAction);
    connect(m_console, &ConsoleView::keysWritten, this, &MainWindow::storeFollowsKeys);
    connect(consoleAction, &QAction::toggled, this, [this](bool shown) {
        if (!shown)
            return;
        // Room to read replies: a third of the window's height below, half its width at a side (a dock first shows
        // at its smallest).
        const Qt::DockWidgetArea area = dockWidgetArea(m_consoleDock);
        if (!m_consoleDock->isFloating() && (area == Qt::BottomDockWidgetArea || area == Qt::TopDockWidgetArea) &&
            m_consoleDock->height() < height() / 3)
            resizeDocks({m_consoleDock}, {height() / 3}, Qt::Vertical);
        else if (!m_consoleDock->isFloating() && m_consoleDock->width() < width() / 2 &&
                 (area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea))
            resizeDocks({m_consoleDock}, {width() / 2}, Qt::Horizontal);
        m_console->input()->setFocus();
    });
    viewMenu->addAction(tr("&Collapse all"), this, [this] {
        m_tree->collapseAll();
        m_patternView->collapseAll();
    });
    viewMenu->addSeparator();
    auto* views = new QActionGroup(this);
    m_rawViewAction = viewMenu->addAction(tr("&Keys"), this, [this] { showPatterns(false); });
    m_rawViewAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    m_rawViewAction->setToolTip(tr("The keys split on the delimiter, every segment a row (Ctrl+1)"));
    m_patternViewAction = viewMenu->addAction(tr("&Patterns"), this, [this] { showPatterns(true); });
    m_patternViewAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
    m_patternViewAction->setToolTip(
        tr("Ids folded into patterns: user:<int>:profile is one row for every user (Ctrl+2)"));
    for (QAction* action : {m_rawViewAction, m_patternViewAction}) {
        action->setCheckable(true);
        views->addAction(action);
    }
    m_rawViewAction->setChecked(true);
    m_viewMenu = viewMenu;

    createHelpMenu();
}

void MainWindow::createLayout()
{
    auto* bar = addToolBar(tr("Connection"));
    m_toolbar = bar;
    bar->setObjectName(QStringLiteral("connectionBar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_connectionLabel = new QLabel(tr("Not connected"));
    m_connectionLabel->setContentsMargins(6, 0, 10, 0);
    m_connectionLabel->setTextFormat(Qt::RichText);
    bar->addWidget(m_connectionLabel);
    bar->addAction(icon("connect"), tr("Connect…"), this, &MainWindow::openConnectionDialog);
    bar->addSeparator();
    bar->addAction(m_pauseAction);
    bar->addAction(m_resumeAction);
    bar->addAction(m_cancelAction);
    bar->addAction(m_rescanAction);
    bar->addSeparator();
    bar->addAction(m_rawViewAction);
    bar->addAction(m_patternViewAction);

    m_filterBar = new KeyFilterBar;
    m_filterBar->setStore(&m_session->keyspace());
    m_tree = new QTreeView;
    m_tree->setModel(treeModel());
    m_treeColumns = setUpKeyTreeView(*m_tree);
    m_tree->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_tree->addActions(QList<QAction*>{m_copyAction, m_deleteAction} + m_bulkActions);
    connect(m_tree, &QTreeView::expanded, this, [this] { m_userExpanded = true; });
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &MainWindow::showSelection);

    m_banner = new QLabel;
    m_banner->setWordWrap(true);
    m_banner->setVisible(false);
    m_banner->setMargin(8);
    m_banner->setStyleSheet(QStringLiteral("QLabel { background: rgba(214, 69, 69, 0.18); border-radius: 4px; }"));

    m_readOnlyBanner = new QLabel(tr("<b>Read-only connection.</b> Keylens sends no command here "
                                     "that could change the data or the server."));
    m_readOnlyBanner->setObjectName(QStringLiteral("readOnlyBanner"));
    m_readOnlyBanner->setWordWrap(true);
    m_readOnlyBanner->setVisible(false);
    m_readOnlyBanner->setMargin(6);
    m_readOnlyBanner->setStyleSheet(tr("QLabel { background: rgba(66, 133, 214, 0.18); border-radius: 4px; }"));

    m_placeholder = new QLabel(tr("Select a namespace or a key."));
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setEnabled(false);
    m_keyDetails = new KeyDetailsView(m_inspector);
    m_namespaceDetails = new NamespaceDetailsView;
    m_details = new QStackedWidget;
    m_details->insertWidget(PlaceholderPage, m_placeholder);
    m_details->insertWidget(KeyPage, m_keyDetails);
    m_details->insertWidget(NamespacePage, m_namespaceDetails);
    m_patternDetails = new PatternDetailsView;
    m_details->insertWidget(PatternPage, m_patternDetails);

    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_readOnlyBanner);
    leftLayout->addWidget(m_filterBar);
    leftLayout->addWidget(m_banner);
    m_delimiterSuggestion = new DelimiterSuggestionBar;
    connect(m_delimiterSuggestion, &DelimiterSuggestionBar::splitRequested, this,
            [this](const keyspace::Delimiters& delimiters) {
                m_target.delimiter = delimiters;
                rescan();
            });
    leftLayout->addWidget(m_delimiterSuggestion);
    m_patternView = new PatternView(m_session->patternModel());
    // The pattern view speaks for the details only while it shows (its model resets with every scan).
    connect(m_patternView, &PatternView::nodeSelected, this, [this](keyspace::NodeId node) {
        m_selectedPattern = patterns::PatternTree::Root;
        if (showsPatterns())
            showNode(node);
    });
    connect(m_patternView, &PatternView::patternSelected, this, [this](patterns::PatternTree::PatternId pattern) {
        if (!showsPatterns())
            return;
        m_selectedPattern = pattern;
        m_charts->showPattern(*m_session->patternModel(), pattern);
        m_charts->refresh(!m_session->isRunning());
        m_shownNamespace = keyspace::InvalidNode;
        m_patternDetails->showPattern(*m_session->patternModel(), pattern);
        m_details->setCurrentIndex(PatternPage);
        m_deleteAction->setEnabled(false);
    });
    m_patternView->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_patternView->addActions(m_bulkActions);
    connect(m_patternView, &PatternView::nothingSelected, this, [this] {
        m_selectedPattern = patterns::PatternTree::Root;
        if (showsPatterns())
            showNode(keyspace::InvalidNode);
    });
    m_trees = new QStackedWidget;
    m_trees->addWidget(m_tree);
    m_trees->addWidget(m_patternView);
    leftLayout->addWidget(m_trees, 1);

    m_charts = new ChartsPane;
    m_side = new QTabWidget;
    // Every tab in sight at 800 px (Server was behind scroll arrows), elided before it hides; and room for the key's
    // edit buttons in a row.
    m_side->setUsesScrollButtons(false);
    m_side->setElideMode(Qt::ElideRight);
    m_side->setMinimumWidth(300);
    // The details scroll rather than hold the window wide: at 800 px the tree needs the width more.
    // A row that is a key and a namespace at once gets a tab for each (the key's value, the namespace's totals).
    m_detailsSwitch = new QTabBar;
    m_detailsSwitch->setObjectName(QStringLiteral("detailsSwitch"));
    m_detailsSwitch->addTab(tr("Key"));
    m_detailsSwitch->addTab(tr("Namespace"));
    m_detailsSwitch->setDrawBase(false);
    m_detailsSwitch->setExpanding(false);
    m_detailsSwitch->setElideMode(Qt::ElideRight); // never the reason the pane scrolls sideways
    m_detailsSwitch->setVisible(false);
    connect(m_detailsSwitch, &QTabBar::currentChanged, this, [this](int tab) {
        if (!m_detailsSwitch->isVisibleTo(this))
            return;
        m_details->setCurrentIndex(tab == 0 ? KeyPage : NamespacePage);
        refreshNamespaceDetails();
    });
    auto* detailsBox = new QWidget;
    auto* detailsLayout = new QVBoxLayout(detailsBox);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->setSpacing(0);
    detailsLayout->addWidget(m_detailsSwitch);
    detailsLayout->addWidget(m_details, 1);
    auto* detailsTab = new QScrollArea;
    detailsTab->setWidgetResizable(true);
    detailsTab->setFrameShape(QFrame::NoFrame);
    detailsTab->setWidget(detailsBox);
    m_detailsTab = detailsTab;
    m_side->addTab(m_detailsTab, tr("Details"));
    m_side->addTab(m_charts, tr("Charts"));
    m_treemap = new TreemapPane;
    m_side->addTab(m_treemap, tr("Treemap"));
    // The scanned keys' memory is set beside used_memory, as the store has it when INFO answers.
    m_serverPanel = new ServerPanel(m_inspector, [this] { return scannedTotals(); });
    m_side->addTab(m_serverPanel, tr("Server"));
    // A cluster's shards: a tab of their own while the target is one.
    // Owned by the window while it is no tab (a single server): a parentless pane leaked with every window.
    m_shards = new ShardsPane(this);
    m_shards->setObjectName(QStringLiteral("shards"));
    m_shards->hide();
    connect(m_session, &models::ScanSession::serverInfoReady, this, [this] { refreshShards(); });
    connect(m_session, &models::ScanSession::started, this, [this] { refreshShards(); });
    connect(m_session, &models::ScanSession::published, this, [this] {
        if (m_side->currentWidget() == m_shards)
            refreshShards();
    });
    connect(m_session, &models::ScanSession::finished, this, [this](const scan::ScanSummary& summary) {
        refreshShards();
        // A sampled scan's bounds need one walk over the keys: once, when it ends.
        if (summary.sampleProbability) {
            m_sampledMemory = std::make_unique<keyspace::SampledMemory>(m_session->keyspace());
            m_namespaceDetails->setSampledMemory(m_sampledMemory.get());
        }
    });
    connect(m_side, &QTabWidget::currentChanged, this, [this] {
        if (m_side->currentWidget() == m_shards)
            refreshShards();
    });
    m_treemap->setStore(&m_session->keyspace());
    // Whatever reads the store a slice at a time (or on a worker) stops before it goes.
    connect(m_session, &models::ScanSession::aboutToReplaceStore, this, [this] {
        m_findings->forgetStore();
        m_treemap->setStore(nullptr);
        m_filterBar->setStore(nullptr);
        m_namespaceDetails->forgetStore();
        m_namespaceDetails->setSampledMemory(nullptr);
        m_sampledMemory.reset();
        m_charts->forgetStore();
        m_expiryWalk.cancel();
        m_expiries = {};
    });
    connect(m_session, &models::ScanSession::started, this, [this] {
        m_treemap->setStore(&m_session->keyspace());
        m_filterBar->setStore(&m_session->keyspace());
    });
    connect(m_session, &models::ScanSession::published, this, [this] { m_treemap->refresh(); });
    connect(m_session, &models::ScanSession::findingsChanged, this, [this] { m_treemap->refresh(); });
    // In the pattern view the map is of patterns; a new tree (live, then exact) means new pattern ids.
    connect(m_session->patternModel(), &QAbstractItemModel::modelReset, this, [this] {
        if (showsPatterns())
            m_treemap->view()->setPatterns(m_session->patternModel());
    });
    connect(m_treemap->view(), &TreemapView::patternActivated, this, [this](patterns::PatternTree::PatternId pattern) {
        if (const patterns::PatternTree* tree = m_session->patternModel()->tree())
            m_patternView->selectPattern(tree->text(pattern));
    });
    connect(m_treemap->view(), &TreemapView::nodeActivated, this, [this](keyspace::NodeId node) {
        if (showsPatterns())
            showPatterns(false);
        selectPath(m_session->keyspace().path(node));
    });
    connect(m_side, &QTabWidget::currentChanged, this, [this] { m_charts->refresh(!m_session->isRunning()); });
    connect(m_session, &models::ScanSession::published, this, [this] { m_charts->refresh(false); });

    m_splitter = new QSplitter;
    m_splitter->addWidget(left);
    m_splitter->addWidget(m_side);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_central = new QStackedWidget;
    m_central->addWidget(m_splitter);
    setCentralWidget(m_central);

    m_findings = new FindingsPanel;
    connect(m_findings, &FindingsPanel::groupingReady, this, &MainWindow::refreshFindings);
    // The keys of a rule, acted on as a whole ("these 330 cache keys have no TTL").
    m_findings->list()->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_findings->list()->addAction(tr("Set the TTL of these keys…"), this,
                                  [this] { openBulkActionOnFinding(edit::BulkKind::Expire); });
    m_findings->list()->addAction(tr("Remove the TTL of these keys…"), this,
                                  [this] { openBulkActionOnFinding(edit::BulkKind::Persist); });
    m_findings->list()->addAction(tr("Delete these keys…"), this,
                                  [this] { openBulkActionOnFinding(edit::BulkKind::Delete); });
    m_findings->list()->addAction(tr("Plan renames to the convention's spelling…"), this,
                                  &MainWindow::planNamingVariantRenames);
    m_findingsDock = new QDockWidget(tr("Findings"), this);
    m_findingsDock->setObjectName(QStringLiteral("findingsDock"));
    m_findingsDock->setWidget(m_findings);
    m_findingsDock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                                QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::BottomDockWidgetArea, m_findingsDock);
    QAction* toggleFindings = m_findingsDock->toggleViewAction();
    toggleFindings->setText(tr("&Findings panel"));
    toggleFindings->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F)); // Ctrl+L goes to a key
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(toggleFindings);

    m_status = new ScanStatusBar;
    statusBar()->addWidget(m_status, 1);
    // The scan's controls are in the connection bar, labelled, once: the status bar only says how it goes.
    statusBar()->setSizeGripEnabled(true);
}

void MainWindow::restoreSettings()
{
    // The first size fits the screen: on a 1366x768 laptop or an 800x600 VM every edge stays in sight.
    const QSize size = QSize(1280, 800).boundedTo(screen()->availableGeometry().size());
    resize(size);
    m_splitter->setSizes({size.width() * 68 / 100, size.width() * 32 / 100});
    // On a short screen the findings take a quarter of the height, so the tree and a key's value stay in sight.
    resizeDocks({m_findingsDock}, {std::min(220, size.height() / 4)}, Qt::Vertical);
    restoreGeometry(m_settings->value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(m_settings->value(QStringLiteral("window/state")).toByteArray());
    m_splitter->restoreState(m_settings->value(QStringLiteral("window/splitter")).toByteArray());
    // v3: the columns are fitted to the width (ColumnFitter), the last one no longer stretches; a v2 state would
    // make it stretch again (and a v1 state misplaced Type, before the Findings column).
    const QByteArray header = m_settings->value(QStringLiteral("tree/header/v3")).toByteArray();
    if (!header.isEmpty())
        m_treeColumns->restoreHeaderState(header);
    m_treeColumns->setUserWidths(m_settings->value(QStringLiteral("tree/columns")).toMap());
}

void MainWindow::saveSettings()
{
    m_settings->setValue(QStringLiteral("window/geometry"), saveGeometry());
    m_settings->setValue(QStringLiteral("window/state"), saveState());
    m_settings->setValue(QStringLiteral("window/splitter"), m_splitter->saveState());
    m_settings->setValue(QStringLiteral("tree/header/v3"), m_tree->header()->saveState());
    m_settings->setValue(QStringLiteral("tree/columns"), m_treeColumns->userWidths());
    m_settings->sync();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_screenshotFile.isEmpty())
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
    m_pauseAction->setEnabled(running && !m_session->isPaused());
    m_resumeAction->setEnabled(running && m_session->isPaused());
    m_cancelAction->setEnabled(running);
    m_rescanAction->setEnabled(m_hasTarget);
}

void MainWindow::rescan()
{
    if (!m_hasTarget)
        return;
    if (loginWasRefused()) {
        askAgainForCredentials(); // the same password would be refused again, silently
        return;
    }
    TreeViewState state;
    if (showsPatterns())
        state = m_viewState; // the hidden key tree's, kept while it is folded
    else
        state.capture(*m_tree, *treeModel());
    connectTo(m_target);
    m_viewState = std::move(state); // after connectTo(), which forgets the view of another target
    m_userExpanded = m_viewState.hasExpanded();
}

void MainWindow::connectTo(const Target& chosen)
{
    // Every connection to this target shares one routing table: on a cluster, each key is read and edited on the
    // node serving its slot (learned on the first key read; a single server answers that once and is left alone).
    Target target = chosen;
    target.options.cluster = std::make_shared<redis::ClusterRoutes>();
    showBrowser();
    m_connectFailure.reset();
    m_viewState.clear();
    // Another server or database starts unfiltered: the last one's filter would hide this one's keys. A rescan of
    // the same one keeps it.
    const bool another = !m_hasTarget || m_target.options.description() != target.options.description();
    m_target = target;
    m_hasTarget = true;
    m_keyDetails->setDatabase(target.options.db);
    m_keyDetails->setReadOnly(target.options.readOnly);
    if (another) {
        m_filterBar->reset();
        m_delimiterSuggestion->reset();
    }
    m_console->setConnection(target.options, target.production,
                             target.name.isEmpty() ? target.options.description() : target.name);
    const QString name = target.name.isEmpty() ? target.options.description() : target.name;
    QString label = QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped());
    if (target.options.db != 0)
        label += tr(" db%1").arg(target.options.db);
    if (target.options.readOnly)
        label += tr(" · read-only");
    if (target.colour.isValid())
        label = tr("<span style='color:%1'>■</span> ").arg(target.colour.name()) + label;
    m_connectionLabel->setText(label);
    setWindowTitle(tr("%1 — Keylens").arg(name));
    m_banner->setVisible(false);
    m_readOnlyBanner->setVisible(target.options.readOnly);
    m_details->setCurrentIndex(PlaceholderPage);
    m_shownNamespace = keyspace::InvalidNode;
    m_userExpanded = false;

    m_inspector->setConnection(target.options);
    m_serverPanel->serverChanged();
    ++m_scanGeneration;
    scan::ScanOptions options;
    options.connection = target.options;
    options.maxKeysPerSecond = target.maxKeysPerSecond;
    options.sampleSize = target.sampleSize;
    options.speed = target.speed.value_or(scan::defaultSpeedFor(target.options));
    m_session->start(options, target.delimiter);
    // After start(): set on the fresh, empty store (before it, the new profile re-linted the previous
    // scan's keys, a second per million, only to throw them away). No key arrives before the event loop.
    applyLintProfile(m_lintProfileOverride.isEmpty() ? target.lintProfile : m_lintProfileOverride);
    refreshFindings();
    m_tree->sortByColumn(m_tree->header()->sortIndicatorSection(), m_tree->header()->sortIndicatorOrder());
    m_status->showStarting(tr("Connecting to %1…").arg(target.options.description()));
    updateScanActions();
}

void MainWindow::startDemo(std::uint64_t keys, double maxKeysPerSecond, quint16 port)
{
    showBrowser();
    delete m_demo;
    m_demo = new DemoLauncher(this);
    m_connectionLabel->setText(tr("<b>Demo server</b>"));
    m_status->showStarting(
        tr("Starting the demo server and writing %1 keys…").arg(displayText(keyspace::formatCount(keys))));
    connect(m_demo, &DemoLauncher::ready, this, [this, maxKeysPerSecond](const redis::ConnectionOptions& options) {
        // Said on stderr too, so one can point redis-cli at it while the window is open.
        std::fprintf(stderr, "keylens: demo server at %s; it stops when the window closes\n",
                     qPrintable(options.uriWithoutPassword()));
        Target target;
        target.options = options;
        target.name = tr("Demo server (%1)").arg(options.address());
        target.remember = false; // its port is gone when the window closes
        target.maxKeysPerSecond = maxKeysPerSecond;
        connectTo(target);
    });
    connect(m_demo, &DemoLauncher::failed, this, [this](const QString& reason) {
        showConnectionProblem(reason);
        if (m_screenshotPending) {
            std::fprintf(stderr, "keylens: %s\n", qPrintable(reason));
            QApplication::exit(1);
        }
    });
    m_demo->start(keys, port);
}

void MainWindow::scanDone(const scan::ScanSummary& summary)
{
    const keyspace::Keyspace& keyspace = m_session->keyspace();
    m_status->showFinished(summary, keyspace.keyCount(), keyspace.stats(keyspace::Keyspace::root()).memoryBytes);
    m_expiries = {};
    // A walk over the whole store (11-18 ms for a million keys at once, at the end of a scan that is busy enough).
    m_expiryWalk.start(
        [this](std::size_t nodes) { return m_expiries.collect(m_session->keyspace(), nodes); },
        [this] { m_status->showExpiredSince(m_expiries.expiredBy(QDateTime::currentMSecsSinceEpoch())); });
    if (summary.serverRestarted) {
        m_banner->setText(tr("The server restarted (or another took over in a failover) during this scan, "
                             "so the scan started over; rows may still list keys that are gone since. "
                             "Rescan (F5) to see the server as it is."));
        m_banner->setVisible(true);
    }
    if (summary.error && summary.scanCalls == 0)
        connectionFailed(*summary.error);
    else if (m_target.remember) // offered again on the welcome page: a server that answered, not a typo
        m_recent->remember({m_target.name.isEmpty() ? m_target.options.description() : m_target.name,
                            m_target.options.uriWithoutPassword(), m_target.savedId, m_target.options.tls,
                            m_target.options.ssh, m_target.options.readOnly});
    if (!showsPatterns()) {
        m_viewState.reapply(*m_tree, *treeModel());
        m_viewState.clear(); // what did not come back is gone from the server
    }
    // A newcomer sees the biggest namespace selected (its details on the right) and, when it has few
    // children, opened; an id level of thousands of rows would push every other namespace out of view.
    askBigKeyLengths();
    // (The user's own selection gets its top keys now that the scan is over; it excludes the default.)
    refreshNamespaceDetails();
    if (showsPatterns())
        m_patternView->selectBiggest(); // the details follow the view that shows
    else if (!m_userExpanded && treeModel()->rowCount() > 0 && !m_tree->currentIndex().isValid()) {
        const QModelIndex first = treeModel()->index(0, 0);
        if (treeModel()->hasChildren(first) && m_session->keyspace().stats(treeModel()->nodeOf(first)).childCount <= 30)
            m_tree->expand(first);
        m_userExpanded = false; // that expansion was ours, not the user's
        m_tree->setCurrentIndex(first);
    }
    if (!summary.cancelled && !summary.error)
        m_delimiterSuggestion->suggest(m_session->takeDelimiterUses(), keyspace.delimiters());
    m_charts->refresh(true, true);   // counted once more over the whole store, off the GUI thread when big
    m_serverPanel->refreshIfShown(); // the whole scan's totals, without waiting for the next turn
    updateScanActions();
    Q_EMIT scanFinished(summary);

    if (m_screenshotPending)
        screenshotAfterScan(summary);
}

void MainWindow::askBigKeyLengths()
{
    // One O(1) length command each, pipelined.
    lint::BigKeyCandidates candidates = m_session->takeBigKeyCandidates();
    if (!candidates.keys.empty())
        m_inspector->requestLengths(m_scanGeneration, std::move(candidates.nodes), std::move(candidates.keys));
}

bool MainWindow::selectPath(const QByteArray& path)
{
    // `bull:` as keylens-cli prints a namespace: the node is `bull`.
    const keyspace::Keyspace& store = m_session->keyspace();
    keyspace::NodeId node = store.find(path);
    if (node == keyspace::InvalidNode && !path.isEmpty() && store.delimiters().contains(path.back()))
        node = store.find(QByteArrayView(path).chopped(1));
    if (node == keyspace::InvalidNode)
        return false;
    const QModelIndex index = treeModel()->indexOfNode(node);
    if (!index.isValid())
        return false;
    for (QModelIndex parent = index.parent(); parent.isValid(); parent = parent.parent())
        m_tree->expand(parent);
    if (treeModel()->hasChildren(index))
        m_tree->expand(index);
    m_tree->setCurrentIndex(index);
    m_tree->scrollTo(index, QAbstractItemView::PositionAtCenter);
    return true;
}

keyspace::NodeId MainWindow::selectedNode() const
{
    const QModelIndex current = m_tree->currentIndex();
    return current.isValid() ? treeModel()->nodeOf(current) : keyspace::InvalidNode;
}

void MainWindow::showSelection()
{
    showNode(selectedNode());
}

bool MainWindow::showsPatterns() const
{
    return m_trees->currentWidget() == m_patternView;
}

void MainWindow::showPatterns(bool patterns)
{
    m_patternViewAction->setChecked(patterns);
    m_rawViewAction->setChecked(!patterns);
    // Folding runs only while the pattern view shows: the raw tree alone costs nothing more.
    m_session->patternModel()->setActive(patterns);
    const bool wasRaw = m_trees->currentWidget() == m_tree;
    if (patterns && wasRaw) {
        // A hidden tree is still laid out (on a rescan, and as rows arrive), and an open namespace of a million
        // keys makes the model sort all of them: the key tree is folded while hidden, its state kept by path.
        TreeViewState shown;
        shown.capture(*m_tree, *treeModel());
        m_viewState.add(shown);
        m_tree->collapseAll();
    }
    m_trees->setCurrentWidget(patterns ? static_cast<QWidget*>(m_patternView) : m_tree);
    if (!patterns && !wasRaw) {
        m_viewState.reapply(*m_tree, *treeModel());
        if (!m_session->isRunning())
            m_viewState.clear(); // as at the end of a scan
    }
    m_treemap->view()->setPatterns(patterns ? m_session->patternModel() : nullptr);
    // The details follow the view that shows.
    if (patterns) {
        m_patternView->selectBiggest();
        m_patternView->announceSelection();
    } else {
        showSelection();
    }
}

void MainWindow::widenSidePane()
{
    // Two columns of charts, or a treemap, want about half the window.
    if (m_splitter->sizes().value(1) < width() * 45 / 100)
        m_splitter->setSizes({width() * 52 / 100, width() * 48 / 100});
}

void MainWindow::showCharts(bool charts)
{
    m_side->setCurrentWidget(charts ? static_cast<QWidget*>(m_charts) : m_detailsTab);
    if (charts)
        widenSidePane();
}

void MainWindow::showServerPanel()
{
    m_side->setCurrentWidget(m_serverPanel);
}

void MainWindow::showTreemap()
{
    m_side->setCurrentWidget(m_treemap);
    widenSidePane();
    m_treemap->refresh(true);
}

void MainWindow::showNode(keyspace::NodeId node)
{
    m_treemap->view()->setSelected(node);
    m_charts->showNode(m_session->keyspace(), node);
    m_charts->refresh(!m_session->isRunning());
    if (node == keyspace::InvalidNode) {
        m_details->setCurrentIndex(PlaceholderPage);
        m_detailsSwitch->setVisible(false);
        m_shownNamespace = keyspace::InvalidNode;
        return;
    }
    const keyspace::Keyspace& keyspace = m_session->keyspace();
    const bool isKey = keyspace.isKey(node);
    const bool both = isKey && keyspace.hasChildren(node);
    m_shownNamespace = isKey && !both ? keyspace::InvalidNode : node;
    if (isKey) {
        m_keyDetails->showKey(keyspace.path(node), node);
        m_keyDetails->showFindings(models::findingRulesOfKey(keyspace, node));
    }
    if (m_shownNamespace != keyspace::InvalidNode)
        m_namespaceDetails->showNamespace(*treeModel(), node);
    // Both: the tab last chosen for such a row (the key's value first).
    m_detailsSwitch->setVisible(both);
    if (both)
        m_detailsSwitch->setTabText(
            1, tr("Namespace (%1 below)")
                   .arg(displayText(keyspace::formatCount(keyspace::subtreeKeys(keyspace, node) - 1))));
    m_details->setCurrentIndex(both    ? (m_detailsSwitch->currentIndex() == 0 ? KeyPage : NamespacePage)
                               : isKey ? KeyPage
                                       : NamespacePage);
    // Enabled on a namespace and a read-only connection too: pressing Delete there says what it would do.
    m_deleteAction->setEnabled(true);
}

models::ScannedTotals MainWindow::scannedTotals() const
{
    const keyspace::Keyspace& store = m_session->keyspace();
    models::ScannedTotals totals;
    totals.keys = store.keyCount();
    totals.memoryBytes = keyspace::subtreeMemory(store, keyspace::Keyspace::root());
    totals.complete = !m_session->isRunning() && m_session->summary() && m_session->summary()->complete;
    return totals;
}

bool MainWindow::showsKeyDetails() const
{
    return m_details->currentIndex() == KeyPage;
}

void MainWindow::refreshNamespaceDetails()
{
    // While the scan runs only the aggregates: the top keys wait for its end (see showNamespace).
    if (m_shownNamespace != keyspace::InvalidNode && m_details->currentIndex() == NamespacePage)
        m_namespaceDetails->showNamespace(*treeModel(), m_shownNamespace, !m_session->isRunning());
}

void MainWindow::setFilterText(const QString& filterText)
{
    m_filterBar->setText(filterText); // applies at once
}

void MainWindow::applyFilter()
{
    const keyspace::KeyFilter filter = m_filterBar->filter();
    KeyTreeModel* model = treeModel();
    keepingTreeState([&] { model->setFilter(filter.glob); });
    // The details follow: a key the filter hides is not shown beside a tree that no longer has it. (A reset
    // clears the view's current index without a currentChanged.)
    if (!showsPatterns() && !m_tree->currentIndex().isValid())
        showNode(keyspace::InvalidNode);
    filterChanged(!model->filter().isEmpty());
    // The text is a key: go to it (its ancestors open, it selected and in view). Going to a key overrides the
    // findings panel's narrowing, which may hide it: the tree shows all keys again.
    if (!filter.key.isEmpty()) {
        if (model->findingsFilter().enabled)
            m_findings->treeFilterBox()->setCurrentIndex(0); // "All keys": emits, and the tree follows
        selectPath(filter.key);
    }
}

void MainWindow::setTreeFindingsFilter(const KeyTreeModel::FindingsFilter& filter)
{
    KeyTreeModel* model = treeModel();
    if (model->findingsFilter() == filter)
        return;
    keepingTreeState([&] { model->setFindingsFilter(filter); });
    filterChanged(filter.enabled);
}

void MainWindow::keepingTreeState(const std::function<void()>& resetTheModel)
{
    // The reset a filter change makes forgets what was open and selected: put it back by path.
    TreeViewState state;
    state.capture(*m_tree, *treeModel());
    resetTheModel();
    state.reapply(*m_tree, *treeModel());
}

void MainWindow::filterChanged(bool narrowed)
{
    updateFilterInfo();
    refreshNamespaceDetails(); // its figures are the matching keys' under a filter
    // Few matches: open the way to all of them.
    if (narrowed && treeModel()->filterMatches() <= 500)
        m_tree->expandRecursively(QModelIndex(), 16);
}

void MainWindow::updateFilterInfo()
{
    const KeyTreeModel* model = treeModel();
    const KeyTreeModel::FindingsFilter findings = model->findingsFilter();
    if (model->filter().isEmpty() && !findings.enabled) {
        m_filterBar->setInfo({});
        return;
    }
    const std::uint64_t matches = model->filterMatches();
    const QString keys = matches == 1 ? tr("key") : tr("keys");
    QString what = tr("matching %1").arg(keys);
    if (findings.enabled && findings.rule >= 0 && std::size_t(findings.rule) < lint::allRules().size())
        what = tr("%1 with %2").arg(keys, QLatin1String(lint::allRules()[std::size_t(findings.rule)].id));
    else if (findings.enabled)
        what = tr("%1 with findings").arg(keys);
    m_filterBar->setInfo(QStringLiteral("%1 %2").arg(displayText(keyspace::formatCount(matches)), what));
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
    m_session->setLintProfile(std::move(*profile));
}

void MainWindow::refreshFindings()
{
    m_findingsRefresh.stop();
    if (m_findingsDock->isVisible())
        m_findings->showFindings(m_session->linter(), m_session->isRunning(), &m_session->keyspace());
}

void MainWindow::showFindingsPanel()
{
    m_findingsDock->show();
    m_findingsDock->raise();
    refreshFindings();
    m_findings->openFirstRule();
}

void MainWindow::copySelectedKey()
{
    const keyspace::NodeId node = selectedNode();
    if (node == keyspace::InvalidNode)
        return;
    const keyspace::Keyspace& keyspace = m_session->keyspace();
    const QByteArray path = keyspace.isKey(node) ? keyspace.path(node) : keyspace.namespaceGlob(node);
    auto* mime = new QMimeData;
    // Text as one would type it into redis-cli; the exact bytes for programs that take them.
    mime->setText(displayText(keyspace::displayBytes(path)));
    mime->setData(QStringLiteral("application/x-redis-key"), path);
    QApplication::clipboard()->setMimeData(mime);
    m_status->showMessage(tr("Copied %1").arg(displayText(keyspace::displayBytes(path))));
}

void MainWindow::deleteSelectedKey()
{
    const keyspace::NodeId node = selectedNode();
    if (node == keyspace::InvalidNode)
        return;
    const keyspace::Keyspace& keyspace = m_session->keyspace();
    const std::uint64_t below = keyspace::subtreeKeys(keyspace, node) - (keyspace.isKey(node) ? 1 : 0);
    const QString belowText = displayText(keyspace::formatCount(below));
    if (!keyspace.isKey(node)) {
        openBulkAction(edit::BulkKind::Delete); // a namespace: the preview, the backup and the typed confirmation
        return;
    }
    const QByteArray key = keyspace.path(node);
    // No question to answer on a read-only connection: the write gate refuses the UNLINK, and says so.
    if (m_target.options.readOnly) {
        m_inspector->requestDelete(key);
        return;
    }
    QString question =
        tr("Delete the key %1 from %2?").arg(displayText(keyspace::displayBytes(key)), m_target.options.address());
    if (below > 0)
        question += (below == 1 ? tr("\n\nOnly the key: the key below it stays")
                                : tr("\n\nOnly the key: the %1 keys below it stay").arg(belowText)) +
                    tr(" (Edit ▸ Delete all keys below deletes them too).");
    question += tr("\n\nThis cannot be undone.");
    QMessageBox confirm(QMessageBox::Warning, tr("Delete key"), question, QMessageBox::Cancel, this);
    QPushButton* deleteButton = confirm.addButton(tr("Delete"), QMessageBox::DestructiveRole);
    confirm.setDefaultButton(QMessageBox::Cancel);
    confirm.exec();
    if (confirm.clickedButton() != deleteButton)
        return;
    m_inspector->requestDelete(key);
}

void MainWindow::refreshShards()
{
    const std::vector<scan::ShardScan> shards = m_session->shards();
    const int index = m_side->indexOf(m_shards);
    m_namespaceDetails->setCluster(!shards.empty());
    if (shards.empty()) {
        if (index >= 0)
            m_side->removeTab(index);
        return;
    }
    if (index < 0)
        m_side->insertTab(m_side->indexOf(m_serverPanel), m_shards, tr("Shards"));
    const bool memoryMeasured =
        m_session->summary() ? m_session->summary()->memoryMeasured : m_session->options().measureMemory;
    m_shards->showShards(shards, memoryMeasured);
}

} // namespace keylens::ui
