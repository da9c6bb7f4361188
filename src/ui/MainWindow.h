#pragma once

#include "edit/BulkAction.h"
#include "edit/KeySelection.h"
#include "keyspace/ExpiryTimeline.h"
#include "keyspace/Keyspace.h"
#include "keyspace/MemoryEstimate.h"
#include "models/KeyTreeModel.h"
#include "models/ServerStatusText.h"
#include "models/SlicedJob.h"
#include "models/ValueInspector.h"
#include "redis/ConnectionOptions.h"
#include "scan/ScanTypes.h"
#include "ui/CredentialsDialog.h"
#include "ui/TreeViewState.h"

#include <QColor>
#include <QMainWindow>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

class QAction;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMenu;
class QSettings;
class QSplitter;
class QStackedWidget;
class QTabBar;
class QToolBar;
class QTabWidget;
class QTreeView;

namespace keylens::models {
struct ConnectionProfile;
class RecentConnections;
struct RecentConnection;
class SavedConnections;
class ScanSession;
class ValueInspector;
} // namespace keylens::models

namespace keylens::ui {

class ChartsPane;
class ColumnFitter;
class DelimiterSuggestionBar;
class KeyFilterBar;
class TreemapPane;
class DemoLauncher;
class FindingsPanel;
class KeyDetailsView;
class ConsoleView;
class NamespaceDetailsView;
class PasswordVault;
class PatternDetailsView;
class PatternView;
class ScanStatusBar;
class ShardsPane;
class ServerPanel;
class WelcomePage;
class WindowTour;

// The browser: a connection bar, the live key tree, the details of the selected node, and the scan's
// progress with Pause / Resume / Cancel / Rescan.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    struct Target
    {
        redis::ConnectionOptions options;
        keyspace::Delimiters delimiter = ':';
        QString name; // shown in the connection bar; the address when empty
        QColor colour;
        bool production = false;              // the console asks before a dangerous command
        double maxKeysPerSecond = 0;          // 0: as fast as the server answers
        std::uint64_t sampleSize = 0;         // memory of a random sample of about this many keys; 0: every key
        std::optional<scan::ScanSpeed> speed; // none: scan::defaultSpeedFor the server
        QString lintProfile;                  // a built-in profile's name or a profile file; empty: default
        QString savedId;                      // the saved connection it came from
        bool remember = true;                 // offered again on the welcome page (not the demo's passing port)
    };

    explicit MainWindow(QSettings* settings, QWidget* parent = nullptr);
    ~MainWindow() override;

    void connectTo(const Target& target);
    // Scans the same target again, keeping the expanded nodes and the selection by path (F5).
    void rescan();
    void startDemo(std::uint64_t keys, double maxKeysPerSecond = 0, quint16 port = 0);
    void openConnectionDialog();
    void openSavedConnection(const QString& idOrName);

    // After the scan, select `path` (or the biggest namespace), render the window to `file` and quit
    // the application with 0 (1 when the scan or the file failed). With `view` "findings", the Findings
    // panel shows, with its first rule open.
    void requestScreenshot(const QString& file, const QByteArray& path, const QString& view = {});
    // A profile (name or file) that every connection uses instead of its own: --profile.
    void setLintProfileOverride(const QString& nameOrPath) { m_lintProfileOverride = nameOrPath; }

    // The page shown before any connection: saved and recent connections, the local server, the demo.
    void showWelcome();
    bool showsWelcome() const;
    WelcomePage* welcomePage() const { return m_welcome; }
    // Asks for the user and password (NOAUTH, or a refused password), then connects with them.
    CredentialsDialog* askForCredentials(const Target& target, CredentialsDialog::Reason reason);
    // The last connection failed at its login; Rescan then asks again rather than retrying the same password.
    bool loginWasRefused() const;

    // Help > What am I looking at?: a few steps over the window's parts.
    WindowTour* startTour();

    // Expands to and selects a key or namespace by its path; false when there is no such node.
    bool selectPath(const QByteArray& path);
    // A bulk action on the selected node and every key below it, through BulkActionDialog (a child of the window,
    // open when this returns); the store follows what it did (MainWindowEditing.cpp).
    void openBulkAction(keylens::edit::BulkKind kind);
    // The same on the keys of the Findings panel's selected rule.
    void openBulkActionOnFinding(keylens::edit::BulkKind kind);
    // The naming-variants rename plan (RenamePlanDialog, open when this returns), which runs through a bulk action.
    void planNamingVariantRenames();
    // A key of any type, under the selected namespace by default (NewKeyDialog).
    void createKey();
    // Exports (MainWindowExport.cpp), each through a temporary file that replaces `path` once complete: the selected
    // node's table of children, the whole tree in keylens-cli scan's JSON schema, and the values of the keys below
    // the selected node as JSON lines (in the background: valuesExported() tells when, in words).
    bool exportNodeTable(const QString& path, bool json, QString* problem);
    bool exportTree(const QString& path, QString* problem);
    void exportValues(const QString& path);
    void setFilterText(const QString& text);

    // For tests and the benchmark.
    models::ScanSession* session() const { return m_session; }
    models::KeyTreeModel* treeModel() const;
    KeyFilterBar* filterBar() const { return m_filterBar; }
    QTreeView* tree() const { return m_tree; }
    PatternView* patternView() const { return m_patternView; }
    PatternDetailsView* patternDetails() const { return m_patternDetails; }
    ChartsPane* charts() const { return m_charts; }
    TreemapPane* treemap() const { return m_treemap; }
    ServerPanel* serverPanel() const { return m_serverPanel; }
    // Shows the Server tab.
    void showServerPanel();
    void showTreemap();
    // The right-hand side: the details of the selection, or its charts.
    void showCharts(bool charts);
    // The tree folded on its ids (true) or the raw tree; a toggle in View and the toolbar.
    void showPatterns(bool patterns);
    bool showsPatterns() const;
    KeyDetailsView* keyDetails() const { return m_keyDetails; }
    ConsoleView* console() const { return m_console; }
    QTabBar* detailsSwitch() const { return m_detailsSwitch; }
    bool showsKeyDetails() const;
    NamespaceDetailsView* namespaceDetails() const { return m_namespaceDetails; }
    FindingsPanel* findingsPanel() const { return m_findings; }
    QString statusText() const;

Q_SIGNALS:
    void valuesExported(const QString& message, bool ok);
    void scanFinished(const keylens::scan::ScanSummary& summary);

protected:
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void createActions();
    void createHelpMenu();
    void createLayout();
    void createWelcome();
    void showBrowser(); // the tree and details instead of the welcome page
    void openRecentConnection(const models::RecentConnection& connection);
    void restoreSettings();
    void saveSettings();
    void updateScanActions();
    void showSelection();
    void showNode(keyspace::NodeId node); // in the details pane
    void takeScreenshotOfPatterns();
    void widenSidePane();
    void refreshNamespaceDetails();
    void applyFilter();
    void copySelectedKey();
    void deleteSelectedKey();
    void addExportMenu(QMenu* fileMenu);
    // Shows or hides the Shards tab, as the target is a cluster or not, and fills it.
    void refreshShards();
    // A BulkActionDialog over these keys (with a rename's planned names), once no scan runs.
    void showBulkAction(edit::BulkKind kind, edit::KeySelection selection, std::vector<QByteArray> names = {});
    void storeFollowsEdit(const models::ValueInspector::Edit& edit);
    // Keys as they are now (nothing: gone) after an edit, a console write or a bulk action: the store follows.
    void storeFollowsKeys(const std::vector<std::pair<QByteArray, std::optional<keyspace::KeyInfo>>>& keys);
    void storeFollowsBulkAction(const edit::BulkRequest& request, const edit::KeySelection& selection,
                                const edit::BulkSummary& summary);
    void scanDone(const scan::ScanSummary& summary);
    void askBigKeyLengths();
    void applyLintProfile(const QString& nameOrPath);
    void refreshFindings();
    void showFindingsPanel();
    void setTreeFindingsFilter(const models::KeyTreeModel::FindingsFilter& filter);
    void updateFilterInfo();
    // Runs a change that resets the tree model, keeping what was open and selected by path.
    void keepingTreeState(const std::function<void()>& resetTheModel);
    // After a filter changed: the match count, and the matches opened when there are few (`narrowed`).
    void filterChanged(bool narrowed);
    void takeScreenshot();
    void screenshotAfterScan(const scan::ScanSummary& summary);
    void showConnectionProblem(const QString& message);
    static redis::Result<Target> targetOf(const models::ConnectionProfile& profile, const QByteArray& password);
    void connectionFailed(const redis::Error& error);
    // After a login the server refused or wanted: the user and password again, for the same target.
    void askAgainForCredentials();
    keyspace::NodeId selectedNode() const;
    models::ScannedTotals scannedTotals() const;

    QSettings* m_settings;
    models::SavedConnections* m_saved;
    std::unique_ptr<models::RecentConnections> m_recent;
    PasswordVault* m_vault;
    models::ScanSession* m_session;
    models::ValueInspector* m_inspector;
    DemoLauncher* m_demo = nullptr;
    Target m_target;
    bool m_hasTarget = false;
    std::optional<redis::Error> m_connectFailure; // of the last connection, when it could read nothing

    QTreeView* m_tree;
    ColumnFitter* m_treeColumns;
    PatternView* m_patternView;
    PatternDetailsView* m_patternDetails;
    QStackedWidget* m_trees;
    ChartsPane* m_charts;
    TreemapPane* m_treemap;
    ShardsPane* m_shards = nullptr;
    std::unique_ptr<keyspace::SampledMemory> m_sampledMemory; // a sampled scan's estimates, once it ended
    ServerPanel* m_serverPanel;
    QTabWidget* m_side;
    QAction* m_rawViewAction;
    QAction* m_patternViewAction;
    QSplitter* m_splitter;
    QToolBar* m_toolbar;
    QStackedWidget* m_central; // the welcome page, then the splitter
    WelcomePage* m_welcome;
    bool m_findingsWereVisible = true;
    QStackedWidget* m_details;
    QTabBar* m_detailsSwitch; // Key | Namespace, for a row that is both
    QLabel* m_placeholder;
    KeyDetailsView* m_keyDetails;
    NamespaceDetailsView* m_namespaceDetails;
    ScanStatusBar* m_status;
    QLabel* m_connectionLabel;
    QLabel* m_banner;
    QLabel* m_readOnlyBanner; // shown for as long as the connection is read-only
    QWidget* m_detailsTab;    // the details, in a scroll area
    KeyFilterBar* m_filterBar;
    QTimer m_countdown;
    // Builds m_expiries after a scan, a slice per turn of the event loop; 20,000 nodes at most per look at the clock.
    models::SlicedJob m_expiryWalk{20'000, QStringLiteral("expiry timeline"), this};
    QTimer m_namespaceRefresh;
    QTimer m_findingsRefresh; // the panel follows the scan once a second
    FindingsPanel* m_findings;
    QDockWidget* m_findingsDock;
    QString m_lintProfileOverride;
    bool m_userExpanded = false;
    keyspace::ExpiryTimeline m_expiries; // of the finished scan: how many keys have expired since
    TreeViewState m_viewState;           // what F5 reopens as the rescan brings the nodes back
    std::uint64_t m_scanGeneration = 0;  // one per connectTo(), to drop answers meant for an earlier store
    keyspace::NodeId m_shownNamespace = keyspace::InvalidNode;

    QMenu* m_viewMenu = nullptr;
    QAction* m_pauseAction;
    QAction* m_resumeAction;
    QAction* m_cancelAction;
    QAction* m_rescanAction;
    DelimiterSuggestionBar* m_delimiterSuggestion;
    QAction* m_copyAction;
    QAction* m_legendAction;
    QAction* m_deleteAction;
    QList<QAction*> m_bulkActions;
    patterns::PatternTree::PatternId m_selectedPattern = patterns::PatternTree::Root; // Root: none
    ConsoleView* m_console;
    QDockWidget* m_consoleDock;
    QByteArray m_createdKey; // the last key New key… asked for: selected once it exists

    QString m_screenshotFile;
    QByteArray m_screenshotPath;
    QString m_screenshotView;
    bool m_screenshotPending = false;
};

} // namespace keylens::ui
