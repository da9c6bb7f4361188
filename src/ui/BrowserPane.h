#pragma once

#include "keyspace/Delimiters.h"
#include "models/KeyTreeModel.h"
#include "models/NodeRef.h"
#include "patterns/PatternTree.h"
#include "ui/TreeViewState.h"

#include <QSplitter>
#include <QTimer>

#include <functional>
#include <memory>

class QLabel;
class QSettings;
class QStackedWidget;
class QTabBar;
class QTabWidget;
class QTreeView;
class QVBoxLayout;

namespace keylens::models {
class ScanSession;
class ValueInspector;
struct ScannedTotals;
} // namespace keylens::models

namespace keylens::redis {
struct ConnectionOptions;
}

namespace keylens::scan {
struct ScanSummary;
}

namespace keylens::ui {

class ChartsPane;
class ColumnFitter;
class DelimiterSuggestionBar;
class HistoryPane;
class KeyDetailsView;
class KeyFilterBar;
class NamespaceDetailsView;
class PatternDetailsView;
class PatternView;
class ServerPanel;
class ShardsPane;
class TreemapPane;

// The browser: on the left the key tree or the pattern view, with the filter, the banners and the delimiter
// suggestion above them; on the right the selection's details, its charts, the treemap, the server and a cluster's
// shards. It routes the selection (what the tree or the pattern view selects, the details, charts and treemap show)
// and follows the session's store as a scan fills it. The window around it owns the actions, the docks and the
// connection.
class BrowserPane : public QSplitter
{
    Q_OBJECT

public:
    BrowserPane(models::ScanSession* session, models::ValueInspector* inspector, QWidget* parent = nullptr);
    ~BrowserPane() override;

    // A connection to `options` is about to scan: the details start empty, the banners say what holds for it.
    // Another server or database (`another`) starts unfiltered and forgets what was open; a rescan of the same one
    // keeps the filter.
    void targetChanged(const redis::ConnectionOptions& options, bool another);
    // The scan started: rows arrive in the tree's current order.
    void scanStarted();
    // What is open and selected, by path, for the rescan to reopen as the nodes come back (call before the rescan's
    // targetChanged, hand back after it).
    TreeViewState viewForRescan() const;
    void reopenAsScanned(TreeViewState state);
    // The scan ended: the view reopened, a newcomer's default selection, the delimiter suggestion, the final charts.
    void scanFinished(const scan::ScanSummary& summary);
    // A banner above the tree (a problem with the connection, a restart during the scan).
    void showBanner(const QString& message);
    // A bar of the window's (the live view's) above the trees, below the banners.
    void addBar(QWidget* bar);

    // Expands to and selects a key or namespace by its path (`bull:` selects the namespace `bull`); false when there
    // is no such node in the tree as filtered.
    bool selectPath(const QByteArray& path);
    models::NodeRef selectedNode() const;
    // The pattern selected in the pattern view while it shows; Root otherwise.
    patterns::PatternTree::PatternId selectedPattern() const;
    // The tree folded on its ids (true) or the raw tree.
    void showPatterns(bool patterns);
    bool showsPatterns() const;
    void setFilterText(const QString& text); // applies at once
    void setTreeFindingsFilter(const models::KeyTreeModel::FindingsFilter& filter);
    void collapseAll();
    // The details of the selection read again (after a bulk action on it).
    void refreshSelection() { showSelection(); }

    // The right-hand side: the details of the selection, or its charts; the treemap, the server, the shards (false
    // when the server is not a cluster).
    void showCharts(bool charts);
    void showTreemap();
    void showServerPanel();
    bool showShards();
    bool showsKeyDetails() const;

    // Compares the scan on screen with an earlier one (Δ columns in both trees, the Change line in the details, the
    // treemap's growth colouring, vanished namespaces struck out), or stops comparing (nullptr). The comparison
    // holds across rescans of the same server; another server or database ends it.
    void compareWith(std::shared_ptr<const models::Comparison> comparison);
    const models::Comparison* comparison() const { return m_comparison.get(); }
    // The History tab: the selection's memory and keys across this server's snapshots.
    void showHistory();

    void restoreSettings(const QSettings& settings, int width);
    void saveSettings(QSettings& settings) const;

    // The panes, for the window's actions, its tour and screenshots, and for tests and the benchmark.
    models::KeyTreeModel* treeModel() const;
    QTreeView* tree() const { return m_tree; }
    KeyFilterBar* filterBar() const { return m_filterBar; }
    PatternView* patternView() const { return m_patternView; }
    PatternDetailsView* patternDetails() const { return m_patternDetails; }
    KeyDetailsView* keyDetails() const { return m_keyDetails; }
    NamespaceDetailsView* namespaceDetails() const { return m_namespaceDetails; }
    QTabBar* detailsSwitch() const { return m_detailsSwitch; }
    ChartsPane* charts() const { return m_charts; }
    TreemapPane* treemap() const { return m_treemap; }
    HistoryPane* history() const { return m_history; }
    ServerPanel* serverPanel() const { return m_serverPanel; }
    QTabWidget* sidePane() const { return m_side; }

Q_SIGNALS:
    void comparisonChanged(bool comparing);
    // The delimiter suggestion was taken: the same target again, split on these.
    void splitRequested(const keyspace::Delimiters& delimiters);
    void patternsShown(bool patterns);
    // The details show a node (a key or namespace: Delete applies) or not (nothing, or a pattern).
    void nodeShown(bool shown);
    // Going to a key needs every key in the tree: a findings narrowing that may hide it should be dropped.
    void allKeysWanted();

private:
    QWidget* createLeft();
    QWidget* createSide();
    void followSession();
    void showSelection();
    void showNode(models::NodeRef node); // in the details pane
    void showPattern(patterns::PatternTree::PatternId pattern);
    void refreshNamespaceDetails();
    void refreshShards();
    void widenSidePane();
    void applyFilter();
    // Runs a change that resets the tree model, keeping what was open and selected by path.
    void patternsFollowFilter();
    void fitSideWidth();
    void keepingTreeState(const std::function<void()>& resetTheModel);
    // After a filter changed: the match count, and the matches opened when there are few (`narrowed`).
    void filterChanged(bool narrowed);
    void updateFilterInfo();
    models::ScannedTotals scannedTotals() const;

    models::ScanSession* m_session;
    models::ValueInspector* m_inspector;

    QLabel* m_banner;
    QVBoxLayout* m_leftLayout = nullptr; // the banners and bars above the trees
    QLabel* m_readOnlyBanner;            // shown for as long as the connection is read-only
    QLabel* m_comparisonBanner;
    void updateComparisonBanner();
    KeyFilterBar* m_filterBar;
    DelimiterSuggestionBar* m_delimiterSuggestion;
    QStackedWidget* m_trees;
    QTreeView* m_tree;
    ColumnFitter* m_treeColumns;
    PatternView* m_patternView;

    QTabWidget* m_side;
    QWidget* m_detailsTab;    // the details, in a scroll area
    QTabBar* m_detailsSwitch; // Key | Namespace, for a row that is both
    QStackedWidget* m_details;
    QLabel* m_placeholder;
    KeyDetailsView* m_keyDetails;
    NamespaceDetailsView* m_namespaceDetails;
    PatternDetailsView* m_patternDetails;
    ChartsPane* m_charts;
    TreemapPane* m_treemap;
    ServerPanel* m_serverPanel;
    ShardsPane* m_shards;
    HistoryPane* m_history;
    std::shared_ptr<const models::Comparison> m_comparison;

    TreeViewState m_viewState; // what F5 reopens as the rescan brings the nodes back
    bool m_userExpanded = false;
    models::NodeRef m_shownNamespace;
    patterns::PatternTree::PatternId m_selectedPattern = patterns::PatternTree::Root; // Root: none
    QTimer m_namespaceRefresh; // the namespace's figures follow the scan once a second
    QTimer m_countdown;        // TTLs count down: the tree repaints each second
};

} // namespace keylens::ui
