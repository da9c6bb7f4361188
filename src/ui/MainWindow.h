#pragma once

#include "base/SlicedJob.h"
#include "models/ConnectionTarget.h"
#include "redis/ConnectionOptions.h"
#include "scan/ScanTypes.h"
#include "ui/CredentialsDialog.h"

#include <QMainWindow>
#include <QTimer>

#include <memory>
#include <optional>

class QDockWidget;
class QLabel;
class QSettings;
class QStackedWidget;
class QToolBar;

namespace keylens::models {
class DemoLauncher;
class ExpiryCount;
struct ConnectionProfile;
class RecentConnections;
struct RecentConnection;
class SavedConnections;
class ScanSession;
class LiveSession;
class ValueInspector;
} // namespace keylens::models

namespace keylens::ui {

class BrowserPane;
class ConsoleView;
class EditActions;
class ExportActions;
class FindingsPanel;
class LiveBar;
class PasswordVault;
class ScanSettings;
class ScanStatusBar;
class ScreenshotAfterScan;
class WelcomePage;
class WindowActions;
class WindowTour;

// The window, a shell around the browser (BrowserPane: the tree, the details, charts and treemap): the connection
// bar and the menus, the Findings and Console docks, the status bar, the welcome page, and the connection's
// lifecycle (connect, scan, rescan, the demo, a refused login). Connecting is in MainWindowConnections.cpp, the
// welcome page and the tour in MainWindowStart.cpp, the live view in MainWindowLive.cpp; the edits are EditActions',
// the exports ExportActions', the Scan menu's settings ScanSettings', --screenshot is ScreenshotAfterScan's.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    using Target = models::ConnectionTarget;

    explicit MainWindow(QSettings* settings, QWidget* parent = nullptr);
    ~MainWindow() override;

    void connectTo(const Target& target);
    // Scans the same target again, keeping the expanded nodes and the selection by path (F5).
    void rescan();
    // `scanSettings`: how to scan it (speed, rate, sample, delimiters), as the command line gave them.
    void startDemo(std::uint64_t keys, const Target& scanSettings = {}, quint16 port = 0);
    // keylens --exact-memory: every scan of this window measures big collections whole (Scan > Measure…, not saved).
    void measureCollectionsWhole();
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

    // The session (the scan, its store and models) and the panes, each with its own interface.
    models::ScanSession* session() const { return m_session; }
    BrowserPane* browser() const { return m_browser; }
    models::LiveSession* live() const { return m_live; }
    LiveBar* liveBar() const { return m_liveBar; }
    FindingsPanel* findingsPanel() const { return m_findings; }
    ExportActions* exports() const { return m_exports; }
    EditActions* edits() const { return m_edits; } // copy, delete, new key, bulk actions, rename plans
    ConsoleView* console() const { return m_console; }
    QString statusText() const;

Q_SIGNALS:
    void scanFinished(const keylens::scan::ScanSummary& summary);

protected:
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void createActions();
    void createLayout();
    void createLiveView(); // the live tree's session, bar, column and action (MainWindowLive.cpp)
    void createWelcome();
    void showBrowser(); // the tree and details instead of the welcome page
    void openRecentConnection(const models::RecentConnection& connection);
    void restoreSettings();
    void saveSettings();
    void updateScanActions();
    void scanDone(const scan::ScanSummary& summary);
    void applyLintProfile(const QString& nameOrPath);
    void refreshFindings();
    void showFindingsPanel();
    void showConnectionProblem(const QString& message);
    void connectionFailed(const redis::Error& error);
    // After a login the server refused or wanted: the user and password again, for the same target.
    void askAgainForCredentials();

    QSettings* m_settings;
    models::SavedConnections* m_saved;
    std::unique_ptr<models::RecentConnections> m_recent;
    PasswordVault* m_vault;
    models::ScanSession* m_session;
    models::ValueInspector* m_inspector;
    models::DemoLauncher* m_demo = nullptr;
    Target m_target;
    bool m_hasTarget = false;
    std::optional<redis::Error> m_connectFailure; // of the last connection, when it could read nothing

    BrowserPane* m_browser;
    ExportActions* m_exports;
    EditActions* m_edits = nullptr;
    ScanSettings* m_scanSettings = nullptr; // the Scan menu's settings
    QToolBar* m_toolbar;
    QStackedWidget* m_central; // the welcome page, then the browser
    WelcomePage* m_welcome;
    bool m_findingsWereVisible = true;
    ScanStatusBar* m_status;
    models::LiveSession* m_live = nullptr;
    LiveBar* m_liveBar = nullptr;
    QLabel* m_connectionLabel;
    QTimer m_countdown;       // how many keys have expired since the scan, said each second
    QTimer m_findingsRefresh; // the panel follows the scan once a second
    FindingsPanel* m_findings;
    QDockWidget* m_findingsDock;
    QString m_lintProfileOverride;
    models::ExpiryCount* m_expiries; // of the finished scan: how many keys have expired since

    std::unique_ptr<WindowActions> m_actions;
    ConsoleView* m_console;
    QDockWidget* m_consoleDock;

    ScreenshotAfterScan* m_screenshot = nullptr; // --screenshot
};

} // namespace keylens::ui
