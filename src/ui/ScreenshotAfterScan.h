#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>

#include <functional>

namespace keylens::models {
class ScanSession;
}

namespace keylens::scan {
struct ScanSummary;
}

namespace keylens::ui {

class BrowserPane;
class FindingsPanel;

// `keylens --screenshot`: after the scan, the view asked for is shown and `window` rendered to a PNG, then the
// application quits (0; 1 when the file or --select failed; 3 when nothing could be read, as keylens-cli). It waits
// for what the view needs first: a key's value from the server, the exact patterns, the charts, the findings grouped.
class ScreenshotAfterScan : public QObject
{
    Q_OBJECT

public:
    struct Request
    {
        QString file;
        QByteArray path; // --select: a key, namespace or pattern; empty: the biggest
        QString view;    // --view: findings, patterns, treemap, server, shards, charts; empty: the details
    };

    // `showFindings` opens the Findings panel on its first rule (the window's dock).
    ScreenshotAfterScan(QWidget& window, models::ScanSession& session, BrowserPane& browser, FindingsPanel& findings,
                        std::function<void()> showFindings, Request request);

    // The window's scan ended: show the view, then take the picture once it is ready.
    void scanFinished(const scan::ScanSummary& summary);
    // Nothing to take: the window could not even start a scan (the demo's server failed).
    void failed(const QString& reason);

private:
    void patternsReady();
    void takeSoon(); // once what was just shown has painted
    void take();

    QWidget& m_window;
    models::ScanSession& m_session;
    BrowserPane& m_browser;
    FindingsPanel& m_findings;
    std::function<void()> m_showFindings;
    Request m_request;
    bool m_pending = true;
};

} // namespace keylens::ui
