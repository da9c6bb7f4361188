#include "ui/BrowserPane.h"

#include "history/SnapshotDiff.h"
#include "history/SnapshotStore.h"
#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "lint/Rules.h"
#include "models/DisplayText.h"
#include "models/EndOfScan.h"
#include "models/FindingsText.h"
#include "models/KeyspaceView.h"
#include "models/PatternTreeModel.h"
#include "models/ScanSession.h"
#include "models/ServerStatusText.h"
#include "models/SnapshotKeeper.h"
#include "models/StoreChanges.h"
#include "redis/ConnectionOptions.h"
#include "ui/ChartsPane.h"
#include "ui/ColumnFitter.h"
#include "ui/DelimiterSuggestionBar.h"
#include "ui/HistoryPane.h"
#include "ui/KeyDetailsView.h"
#include "ui/KeyFilterBar.h"
#include "ui/KeyTreeDelegate.h"
#include "ui/NamespaceDetailsView.h"
#include "ui/PatternDetailsView.h"
#include "ui/PatternView.h"
#include "ui/ServerPanel.h"
#include "ui/ShardsPane.h"
#include "ui/TreemapPane.h"
#include "ui/TreemapView.h"

#include <QHeaderView>
#include <QLabel>
#include <QProxyStyle>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>

namespace keylens::ui {

namespace {

// The style's tabs with less margin beside their text (16 px for Fusion's 24): whole, five of them still leave the
// tree its columns' least widths at 900 px.
class SlimTabStyle : public QProxyStyle
{
public:
    using QProxyStyle::QProxyStyle;
    int pixelMetric(PixelMetric metric, const QStyleOption* option, const QWidget* widget) const override
    {
        const int value = QProxyStyle::pixelMetric(metric, option, widget);
        return metric == PM_TabBarTabHSpace ? std::max(8, value * 2 / 3) : value;
    }
};

using models::displayText;
using models::KeyTreeModel;

enum DetailsPage { PlaceholderPage, KeyPage, NamespacePage, PatternPage };

} // namespace

BrowserPane::BrowserPane(models::ScanSession* session, models::ValueInspector* inspector, QWidget* parent)
    : QSplitter(parent)
    , m_session(session)
    , m_inspector(inspector)
{
    addWidget(createLeft());
    addWidget(createSide());
    setStretchFactor(0, 3);
    setStretchFactor(1, 2);
    followSession();

    m_namespaceRefresh.setObjectName(QStringLiteral("namespace refresh"));
    m_namespaceRefresh.setSingleShot(true);
    m_namespaceRefresh.setInterval(1000);
    connect(&m_namespaceRefresh, &QTimer::timeout, this, &BrowserPane::refreshNamespaceDetails);
    m_countdown.setObjectName(QStringLiteral("ttl countdown"));
    m_countdown.setInterval(1000);
    // TTLs count down: the model computes them when painted, so a repaint is all it takes.
    connect(&m_countdown, &QTimer::timeout, m_tree->viewport(), qOverload<>(&QWidget::update));
    m_countdown.start();
}

BrowserPane::~BrowserPane()
{
    // The children outlive this class's part of the object: a view that tells of its selection while ~QWidget
    // deletes it (the pattern view does, as its model resets) must not reach this pane.
    disconnect(m_patternView, nullptr, this, nullptr);
    disconnect(m_treemap->view(), nullptr, this, nullptr);
}

QWidget* BrowserPane::createLeft()
{
    m_readOnlyBanner = new QLabel(tr("<b>Read-only connection.</b> Keylens sends no command here "
                                     "that could change the data or the server."));
    m_readOnlyBanner->setObjectName(QStringLiteral("readOnlyBanner"));
    m_readOnlyBanner->setWordWrap(true);
    m_readOnlyBanner->setVisible(false);
    m_readOnlyBanner->setMargin(6);
    m_readOnlyBanner->setStyleSheet(tr("QLabel { background: rgba(66, 133, 214, 0.18); border-radius: 4px; }"));

    // While comparing: with what, what the columns mean, what to mistrust, and the way out.
    m_comparisonBanner = new QLabel;
    m_comparisonBanner->setObjectName(QStringLiteral("comparisonBanner"));
    m_comparisonBanner->setWordWrap(true);
    m_comparisonBanner->setVisible(false);
    m_comparisonBanner->setMargin(6);
    m_comparisonBanner->setTextFormat(Qt::RichText);
    m_comparisonBanner->setStyleSheet(
        QStringLiteral("QLabel { background: rgba(66, 133, 214, 0.12); border-radius: 4px; }"));
    connect(m_comparisonBanner, &QLabel::linkActivated, this, [this] { compareWith(nullptr); });

    m_filterBar = new KeyFilterBar(m_session->view());
    connect(m_filterBar, &KeyFilterBar::filterChanged, this, &BrowserPane::applyFilter);

    m_banner = new QLabel;
    m_banner->setObjectName(QStringLiteral("problemBanner"));
    m_banner->setWordWrap(true);
    m_banner->setVisible(false);
    m_banner->setMargin(8);
    m_banner->setStyleSheet(QStringLiteral("QLabel { background: rgba(214, 69, 69, 0.18); border-radius: 4px; }"));

    m_delimiterSuggestion = new DelimiterSuggestionBar;
    connect(m_delimiterSuggestion, &DelimiterSuggestionBar::splitRequested, this, &BrowserPane::splitRequested);

    m_tree = new QTreeView;
    m_tree->setModel(treeModel());
    m_treeColumns = setUpKeyTreeView(*m_tree);
    m_tree->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(m_tree, &QTreeView::expanded, this, [this] { m_userExpanded = true; });
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &BrowserPane::showSelection);

    m_patternView = new PatternView(m_session->patternModel());
    m_patternView->setContextMenuPolicy(Qt::ActionsContextMenu);
    // The pattern view speaks for the details only while it shows (its model resets with every scan).
    connect(m_patternView, &PatternView::nodeSelected, this, [this](keyspace::NodeId node) {
        m_selectedPattern = patterns::PatternTree::Root;
        if (showsPatterns())
            showNode(m_session->view().ref(node));
    });
    connect(m_patternView, &PatternView::patternSelected, this, [this](patterns::PatternTree::PatternId pattern) {
        if (showsPatterns())
            showPattern(pattern);
    });
    connect(m_patternView, &PatternView::nothingSelected, this, [this] {
        m_selectedPattern = patterns::PatternTree::Root;
        if (showsPatterns())
            showNode({});
    });
    m_trees = new QStackedWidget;
    m_trees->addWidget(m_tree);
    m_trees->addWidget(m_patternView);

    auto* left = new QWidget;
    auto* layout = new QVBoxLayout(left);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_readOnlyBanner);
    layout->addWidget(m_comparisonBanner);
    layout->addWidget(m_filterBar);
    layout->addWidget(m_banner);
    layout->addWidget(m_delimiterSuggestion);
    layout->addWidget(m_trees, 1);
    m_leftLayout = layout;
    return left;
}

QWidget* BrowserPane::createSide()
{
    m_placeholder = new QLabel(tr("Select a namespace or a key."));
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setEnabled(false);
    m_keyDetails = new KeyDetailsView(m_inspector);
    connect(m_keyDetails, &KeyDetailsView::lengthKnown, this, [this](models::NodeRef node, std::uint64_t length) {
        if (m_session->view().isCurrent(node)) // a key of the scan before: its node id names another key now
            m_session->changes()->lengthsKnown({{node.node, length}});
    });
    m_namespaceDetails = new NamespaceDetailsView(*m_session);
    connect(m_namespaceDetails, &NamespaceDetailsView::keyActivated, this, [this](models::NodeRef node) {
        const keyspace::NodeId current = m_session->view().nodeOf(node);
        if (current == keyspace::InvalidNode)
            return;
        const QModelIndex index = treeModel()->indexOfNode(current);
        if (index.isValid()) {
            m_tree->scrollTo(index);
            m_tree->setCurrentIndex(index);
        }
    });
    m_patternDetails = new PatternDetailsView;
    m_details = new QStackedWidget;
    m_details->insertWidget(PlaceholderPage, m_placeholder);
    m_details->insertWidget(KeyPage, m_keyDetails);
    m_details->insertWidget(NamespacePage, m_namespaceDetails);
    m_details->insertWidget(PatternPage, m_patternDetails);

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
    // The details scroll rather than hold the window wide: at 800 px the tree needs the width more.
    auto* detailsTab = new QScrollArea;
    detailsTab->setWidgetResizable(true);
    detailsTab->setFrameShape(QFrame::NoFrame);
    detailsTab->setWidget(detailsBox);
    m_detailsTab = detailsTab;

    m_side = new QTabWidget;
    // Every tab in sight at 800 px (Server was behind scroll arrows), and whole: elided, they read "Det… Ch…" at 800
    // and 900 px. Unelided, the tabs are the pane's least width, which the splitter keeps; and room for the key's
    // edit buttons in a row.
    m_side->setUsesScrollButtons(false);
    m_side->setElideMode(Qt::ElideNone);
    auto* slimTabs = new SlimTabStyle;
    slimTabs->setParent(m_side->tabBar());
    m_side->tabBar()->setStyle(slimTabs);
    m_side->addTab(m_detailsTab, tr("Details"));
    m_charts = new ChartsPane(m_session->view());
    m_side->addTab(m_charts, tr("Charts"));
    m_treemap = new TreemapPane(m_session->view());
    m_side->addTab(m_treemap, tr("Treemap"));
    // The scanned keys' memory is set beside used_memory, as the store has it when INFO answers.
    m_serverPanel = new ServerPanel(m_inspector, *m_session, [this] { return scannedTotals(); });
    m_side->addTab(m_serverPanel, tr("Server"));
    m_history = new HistoryPane;
    m_side->addTab(m_history, tr("History"));
    fitSideWidth();
    // A cluster's shards: a tab of their own while the target is one. Owned by the tabs while it is none of them (a
    // single server): a parentless pane leaked with every window, and a child of the splitter would be a third side.
    m_shards = new ShardsPane(m_side);
    m_shards->setObjectName(QStringLiteral("shards"));
    m_shards->hide();
    connect(m_side, &QTabWidget::currentChanged, this, [this] {
        if (m_side->currentWidget() == m_shards)
            refreshShards();
        m_charts->refresh(!m_session->isRunning());
    });
    // In the pattern view the map is of patterns.
    connect(m_treemap->view(), &TreemapView::patternActivated, this, [this](patterns::PatternTree::PatternId pattern) {
        if (const patterns::PatternTree* tree = m_session->patternModel()->tree())
            m_patternView->selectPattern(tree->text(pattern));
    });
    connect(m_treemap->view(), &TreemapView::nodeActivated, this, [this](models::NodeRef node) {
        if (!m_session->view().isCurrent(node))
            return;
        if (showsPatterns())
            showPatterns(false);
        selectPath(m_session->view().path(node));
    });
    return m_side;
}

void BrowserPane::followSession()
{
    // What reads the store a slice at a time (the treemap, the top keys, the completions) follows the session's
    // KeyspaceView, which tells of a new store; a worker stops before it goes.
    connect(m_session, &models::ScanSession::aboutToReplaceStore, this, [this] { m_charts->forgetStore(); });
    connect(m_session, &models::ScanSession::started, this, [this] { refreshShards(); });
    connect(m_session, &models::ScanSession::serverInfoReady, this, [this] { refreshShards(); });
    connect(m_session, &models::ScanSession::published, this, [this] {
        if (!showsPatterns()) // a hidden key tree stays folded: see showPatterns()
            m_viewState.reapply(*m_tree, *treeModel());
        if (!m_shownNamespace.isNull() && !m_namespaceRefresh.isActive())
            m_namespaceRefresh.start();
        updateFilterInfo(); // keys that arrive match too
        m_treemap->refresh();
        m_charts->refresh(false);
        if (m_side->currentWidget() == m_shards)
            refreshShards();
    });
    connect(m_session, &models::ScanSession::findingsChanged, this, [this] {
        // Under a findings filter new findings change which rows exist: keep what was open by path.
        if (treeModel()->findingsFilter().enabled)
            keepingTreeState([this] { treeModel()->refreshFindings(); });
        else
            treeModel()->refreshFindings();
        updateFilterInfo();
        if (const models::NodeRef node = selectedNode(); !node.isNull() && m_details->currentIndex() == KeyPage)
            m_keyDetails->showFindings(models::findingRulesOfKey(m_session->view(), node));
        refreshNamespaceDetails();
        m_treemap->refresh();
    });
    connect(m_session, &models::ScanSession::finished, this, [this] { refreshShards(); });
    // Each scan's snapshot joins the history (the file may still be on its way: the snapshot itself is handed over).
    connect(m_session->snapshots(), &models::SnapshotKeeper::snapshotKept, this, [this] {
        const std::shared_ptr<const history::Snapshot>& snapshot = m_session->snapshots()->lastSnapshot();
        const QString root = m_session->snapshots()->folder();
        m_history->setFolder(root.isEmpty()
                                 ? QString()
                                 : history::SnapshotStore(root).folderOf(snapshot->server.address, snapshot->server.db),
                             snapshot);
        updateComparisonBanner(); // the caveats are of the scan on screen
    });
    // A new tree (live, then exact) means new pattern ids.
    connect(m_session->patternModel(), &QAbstractItemModel::modelReset, this, [this] {
        if (showsPatterns())
            m_treemap->view()->setPatterns(m_session->patternModel());
    });
}

models::KeyTreeModel* BrowserPane::treeModel() const
{
    return m_session->model();
}

void BrowserPane::targetChanged(const redis::ConnectionOptions& options, bool another)
{
    m_viewState.clear();
    m_keyDetails->setDatabase(options.db);
    m_keyDetails->setReadOnly(options.readOnly);
    if (another) {
        m_filterBar->reset();
        m_delimiterSuggestion->reset();
        compareWith(nullptr); // a comparison of this server's scans, not of the next one's
        m_history->setFolder({});
    }
    m_banner->setVisible(false);
    m_readOnlyBanner->setVisible(options.readOnly);
    m_details->setCurrentIndex(PlaceholderPage);
    m_shownNamespace = {};
    m_userExpanded = false;
    m_serverPanel->serverChanged();
}

void BrowserPane::scanStarted()
{
    m_tree->sortByColumn(m_tree->header()->sortIndicatorSection(), m_tree->header()->sortIndicatorOrder());
}

TreeViewState BrowserPane::viewForRescan() const
{
    if (showsPatterns())
        return m_viewState; // the hidden key tree's, kept while it is folded
    TreeViewState state;
    state.capture(*m_tree, *treeModel());
    return state;
}

void BrowserPane::reopenAsScanned(TreeViewState state)
{
    m_viewState = std::move(state);
    m_userExpanded = m_viewState.hasExpanded();
}

void BrowserPane::scanFinished(const scan::ScanSummary& summary)
{
    if (!showsPatterns()) {
        m_viewState.reapply(*m_tree, *treeModel());
        m_viewState.clear(); // what did not come back is gone from the server
    }
    // (The user's own selection gets its top keys now that the scan is over; it excludes the default.)
    refreshNamespaceDetails();
    // A newcomer sees the biggest namespace selected (its details on the right) and, when it has few children,
    // opened; an id level of thousands of rows would push every other namespace out of view.
    if (showsPatterns()) {
        m_patternView->selectBiggest(); // the details follow the view that shows
    } else if (!m_userExpanded && treeModel()->rowCount() > 0 && !m_tree->currentIndex().isValid()) {
        const QModelIndex first = treeModel()->index(0, 0);
        if (treeModel()->hasChildren(first) &&
            m_session->view().stats(m_session->view().ref(treeModel()->nodeOf(first))).childCount <= 30)
            m_tree->expand(first);
        m_userExpanded = false; // that expansion was ours, not the user's
        m_tree->setCurrentIndex(first);
    }
    if (!summary.cancelled && !summary.error)
        m_delimiterSuggestion->suggest(m_session->endOfScan()->takeDelimiterUses(), m_session->view().delimiters());
    m_charts->refresh(true, true);   // counted once more over the whole store, off the GUI thread when big
    m_serverPanel->refreshIfShown(); // the whole scan's totals, without waiting for the next turn
}

void BrowserPane::addBar(QWidget* bar)
{
    m_leftLayout->insertWidget(m_leftLayout->indexOf(m_trees), bar);
}

void BrowserPane::showBanner(const QString& message)
{
    m_banner->setText(message);
    m_banner->setVisible(true);
}

bool BrowserPane::selectPath(const QByteArray& path)
{
    // `bull:` as keylens-cli prints a namespace: the node is `bull`.
    const models::KeyspaceView& store = m_session->view();
    models::NodeRef node = store.find(path);
    if (node.isNull() && !path.isEmpty() && store.delimiters().contains(path.back()))
        node = store.find(QByteArrayView(path).chopped(1));
    if (node.isNull())
        return false;
    const QModelIndex index = treeModel()->indexOfNode(node.node);
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

models::NodeRef BrowserPane::selectedNode() const
{
    const QModelIndex current = m_tree->currentIndex();
    return current.isValid() ? m_session->view().ref(treeModel()->nodeOf(current)) : models::NodeRef{};
}

patterns::PatternTree::PatternId BrowserPane::selectedPattern() const
{
    return showsPatterns() ? m_selectedPattern : patterns::PatternTree::Root;
}

void BrowserPane::showSelection()
{
    showNode(selectedNode());
}

bool BrowserPane::showsPatterns() const
{
    return m_trees->currentWidget() == m_patternView;
}

void BrowserPane::showPatterns(bool patterns)
{
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
    Q_EMIT patternsShown(patterns);
    // The details follow the view that shows.
    if (patterns) {
        m_patternView->selectBiggest();
        m_patternView->announceSelection();
    } else {
        showSelection();
    }
}

void BrowserPane::collapseAll()
{
    m_tree->collapseAll();
    m_patternView->collapseAll();
}

void BrowserPane::widenSidePane()
{
    // Two columns of charts, or a treemap, want about half the width.
    if (sizes().value(1) < width() * 45 / 100)
        setSizes({width() * 52 / 100, width() * 48 / 100});
}

void BrowserPane::showCharts(bool charts)
{
    m_side->setCurrentWidget(charts ? static_cast<QWidget*>(m_charts) : m_detailsTab);
    if (charts)
        widenSidePane();
}

void BrowserPane::showServerPanel()
{
    m_side->setCurrentWidget(m_serverPanel);
}

void BrowserPane::showTreemap()
{
    m_side->setCurrentWidget(m_treemap);
    widenSidePane();
    m_treemap->refresh(true);
}

bool BrowserPane::showShards()
{
    if (m_side->indexOf(m_shards) < 0)
        return false;
    m_side->setCurrentWidget(m_shards);
    return true;
}

void BrowserPane::compareWith(std::shared_ptr<const models::Comparison> comparison)
{
    if (comparison == m_comparison)
        return;
    const bool wasComparing = m_comparison != nullptr;
    m_comparison = comparison;
    // The key tree resets (vanished rows come and go): what was open is reopened by path.
    keepingTreeState([&] { treeModel()->setComparison(comparison); });
    m_session->patternModel()->setComparison(comparison);
    const bool comparing = comparison != nullptr;
    for (QTreeView* view : {m_tree, static_cast<QTreeView*>(m_patternView)}) {
        showDeltaColumns(*view, comparing);
        // Biggest growth first (by keys when memory cannot be compared); the memory order again after.
        const bool memory = treeModel()->comparesMemory();
        if (comparing && !wasComparing)
            view->sortByColumn(memory ? KeyTreeModel::DeltaMemoryColumn : KeyTreeModel::DeltaKeysColumn,
                               Qt::DescendingOrder);
        else if (!comparing && KeyTreeModel::isDeltaColumn(view->header()->sortIndicatorSection()))
            view->sortByColumn(KeyTreeModel::MemoryColumn, Qt::DescendingOrder);
    }
    if (comparing)
        m_treemap->setGrowth([this](std::uint32_t id) {
            return m_treemap->view()->showsPatterns() ? m_session->patternModel()->deltaOfPattern(id)
                                                      : treeModel()->deltaOfNode(id);
        });
    else
        m_treemap->setGrowth({});
    updateComparisonBanner();
    if (showsPatterns() && m_selectedPattern != patterns::PatternTree::Root)
        showPattern(m_selectedPattern);
    else
        showSelection();
    Q_EMIT comparisonChanged(comparing);
}

void BrowserPane::updateComparisonBanner()
{
    m_comparisonBanner->setVisible(m_comparison != nullptr);
    if (!m_comparison)
        return;
    const history::Snapshot& then = m_comparison->baseline();
    QString text = tr("Compared with the scan of <b>%1</b> (%2 keys, %3 then): Δ columns, growth in red, what is "
                      "gone since struck out. <a href=\"stop\">Stop comparing</a>")
                       .arg(m_comparison->label().toHtmlEscaped(), displayText(keyspace::formatCount(then.totals.keys)),
                            displayText(keyspace::formatBytes(then.totals.memoryBytes)));
    QStringList caveats;
    if (const std::shared_ptr<const history::Snapshot>& now = m_session->snapshots()->lastSnapshot())
        caveats = history::caveatsOf(then, *now);
    if (then.totals.keysMemoryUnmeasured > 0)
        caveats << tr("That scan did not measure every key's memory: Δ Memory is not compared.");
    for (const QString& caveat : caveats)
        text += QStringLiteral("<br>⚠ ") + caveat.toHtmlEscaped();
    m_comparisonBanner->setText(text);
}

void BrowserPane::showHistory()
{
    // Not widened: one chart reads at a third of the window, and the tree keeps room for its Δ columns.
    m_side->setCurrentWidget(m_history);
}

void BrowserPane::showNode(models::NodeRef node)
{
    m_treemap->view()->setSelected(node);
    m_charts->showNode(node);
    m_charts->refresh(!m_session->isRunning());
    const models::KeyspaceView& keyspace = m_session->view();
    if (!keyspace.isCurrent(node)) {
        m_details->setCurrentIndex(PlaceholderPage);
        m_detailsSwitch->setVisible(false);
        m_shownNamespace = {};
        m_history->showSubject(HistoryPane::Subject::Keyspace);
        return;
    }
    // Snapshots keep namespaces, not keys: a key's history is its namespace's.
    const models::NodeRef historyNode = keyspace.hasChildren(node) ? node : keyspace.parent(node);
    if (keyspace.nodeOf(historyNode) == keyspace::RootNode)
        m_history->showSubject(HistoryPane::Subject::Keyspace);
    else
        m_history->showSubject(HistoryPane::Subject::Namespace, keyspace.namespacePrefix(historyNode));
    const bool isKey = keyspace.isKey(node);
    const bool both = isKey && keyspace.hasChildren(node);
    m_shownNamespace = isKey && !both ? models::NodeRef{} : node;
    if (isKey && keyspace.fromFile()) {
        const std::optional<scan::ScanSummary>& read = m_session->summary();
        std::optional<std::uint64_t> length;
        if (read && read->knownLengths) {
            if (const auto found = read->knownLengths->constFind(keyspace.path(node));
                found != read->knownLengths->cend())
                length = *found;
        }
        m_keyDetails->showFileKey(keyspace.path(node), node, *keyspace.keyInfo(node), length);
        m_keyDetails->showFindings(models::findingRulesOfKey(keyspace, node));
    } else if (isKey) {
        const std::optional<keyspace::KeyInfo> info = keyspace.keyInfo(node);
        m_keyDetails->showKey(keyspace.path(node), node, info && info->memorySampled);
        m_keyDetails->showFindings(models::findingRulesOfKey(keyspace, node));
    }
    if (!m_shownNamespace.isNull())
        m_namespaceDetails->showNamespace(node);
    // Both: the tab last chosen for such a row (the key's value first).
    m_detailsSwitch->setVisible(both);
    if (both)
        m_detailsSwitch->setTabText(
            1, tr("Namespace (%1 below)").arg(displayText(keyspace::formatCount(keyspace.totals(node).keys - 1))));
    m_details->setCurrentIndex(both    ? (m_detailsSwitch->currentIndex() == 0 ? KeyPage : NamespacePage)
                               : isKey ? KeyPage
                                       : NamespacePage);
    // Enabled on a namespace and a read-only connection too: pressing Delete there says what it would do.
    Q_EMIT nodeShown(true);
}

void BrowserPane::showPattern(patterns::PatternTree::PatternId pattern)
{
    m_selectedPattern = pattern;
    m_charts->showPattern(*m_session->patternModel(), pattern);
    m_charts->refresh(!m_session->isRunning());
    m_shownNamespace = {};
    m_patternDetails->showPattern(*m_session->patternModel(), pattern);
    if (const patterns::PatternTree* tree = m_session->patternModel()->tree())
        m_history->showSubject(HistoryPane::Subject::Pattern, tree->text(pattern), tree->isPartial(pattern));
    m_details->setCurrentIndex(PatternPage);
    Q_EMIT nodeShown(false);
}

models::ScannedTotals BrowserPane::scannedTotals() const
{
    const models::KeyspaceView& store = m_session->view();
    models::ScannedTotals totals;
    totals.keys = store.keyCount();
    totals.memoryBytes = store.subtreeMemory(store.root());
    totals.complete = !m_session->isRunning() && m_session->summary() && m_session->summary()->complete;
    return totals;
}

bool BrowserPane::showsKeyDetails() const
{
    return m_details->currentIndex() == KeyPage;
}

void BrowserPane::refreshNamespaceDetails()
{
    // While the scan runs only the aggregates: the top keys wait for its end (see showNamespace).
    if (!m_shownNamespace.isNull() && m_details->currentIndex() == NamespacePage)
        m_namespaceDetails->showNamespace(m_shownNamespace, !m_session->isRunning());
}

void BrowserPane::refreshShards()
{
    const std::vector<scan::ShardScan> shards = m_session->shards();
    const int index = m_side->indexOf(m_shards);
    m_namespaceDetails->setCluster(!shards.empty());
    if (shards.empty()) {
        if (index >= 0)
            m_side->removeTab(index);
        fitSideWidth();
        return;
    }
    if (index < 0)
        m_side->insertTab(m_side->indexOf(m_serverPanel), m_shards, tr("Shards"));
    fitSideWidth();
    const bool memoryMeasured =
        m_session->summary() ? m_session->summary()->memoryMeasured : m_session->options().measureMemory;
    m_shards->showShards(shards, memoryMeasured);
}

void BrowserPane::setFilterText(const QString& filterText)
{
    m_filterBar->setText(filterText); // applies at once
}

void BrowserPane::applyFilter()
{
    const keyspace::KeyFilter filter = m_filterBar->filter();
    KeyTreeModel* model = treeModel();
    keepingTreeState([&] { model->setFilter(filter.glob); });
    patternsFollowFilter();
    // The details follow: a key the filter hides is not shown beside a tree that no longer has it. (A reset
    // clears the view's current index without a currentChanged.)
    if (!showsPatterns() && !m_tree->currentIndex().isValid())
        showNode({});
    filterChanged(!model->filter().isEmpty());
    // The text is a key: go to it (its ancestors open, it selected and in view). Going to a key overrides the
    // findings panel's narrowing, which may hide it: the tree shows all keys again.
    if (!filter.key.isEmpty()) {
        if (model->findingsFilter().enabled)
            Q_EMIT allKeysWanted();
        selectPath(filter.key);
    }
}

void BrowserPane::setTreeFindingsFilter(const KeyTreeModel::FindingsFilter& filter)
{
    KeyTreeModel* model = treeModel();
    if (model->findingsFilter() == filter)
        return;
    keepingTreeState([&] { model->setFindingsFilter(filter); });
    patternsFollowFilter();
    filterChanged(filter.enabled);
}

void BrowserPane::fitSideWidth()
{
    // As wide as its tabs, whole (and 300 px at least, for the key's edit buttons in a row): a width set by hand
    // overrides the tab widget's own minimum, which the splitter would otherwise keep.
    m_side->setMinimumWidth(std::max(300, m_side->tabBar()->sizeHint().width() + 4));
}

void BrowserPane::patternsFollowFilter()
{
    // The Patterns view narrows as the Keys view does: its counts alone changing looked like a broken filter.
    KeyTreeModel* model = treeModel();
    m_session->patternModel()->setFilter(model->isFiltering() ? model : nullptr);
}

void BrowserPane::keepingTreeState(const std::function<void()>& resetTheModel)
{
    // The reset a filter change makes forgets what was open and selected: put it back by path.
    TreeViewState state;
    state.capture(*m_tree, *treeModel());
    resetTheModel();
    state.reapply(*m_tree, *treeModel());
}

void BrowserPane::filterChanged(bool narrowed)
{
    updateFilterInfo();
    refreshNamespaceDetails(); // its figures are the matching keys' under a filter
    // Few matches: open the way to all of them.
    if (narrowed && treeModel()->filterMatches() <= 500)
        m_tree->expandRecursively(QModelIndex(), 16);
}

void BrowserPane::updateFilterInfo()
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

void BrowserPane::restoreSettings(const QSettings& settings, int width)
{
    setSizes({width * 68 / 100, width * 32 / 100});
    restoreState(settings.value(QStringLiteral("window/splitter")).toByteArray());
    // v3: the columns are fitted to the width (ColumnFitter), the last one no longer stretches; a v2 state would
    // make it stretch again (and a v1 state misplaced Type, before the Findings column).
    const QByteArray header = settings.value(QStringLiteral("tree/header/v3")).toByteArray();
    if (!header.isEmpty())
        m_treeColumns->restoreHeaderState(header);
    showDeltaColumns(*m_tree, m_comparison != nullptr); // a state saved while comparing shows them
    m_treeColumns->setUserWidths(settings.value(QStringLiteral("tree/columns")).toMap());
}

void BrowserPane::saveSettings(QSettings& settings) const
{
    settings.setValue(QStringLiteral("window/splitter"), saveState());
    settings.setValue(QStringLiteral("tree/header/v3"), m_tree->header()->saveState());
    settings.setValue(QStringLiteral("tree/columns"), m_treeColumns->userWidths());
}

} // namespace keylens::ui
