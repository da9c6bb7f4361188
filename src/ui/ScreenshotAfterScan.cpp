#include "ui/ScreenshotAfterScan.h"

#include "models/ChartJob.h"
#include "models/PatternTreeModel.h"
#include "models/ScanSession.h"
#include "ui/BrowserPane.h"
#include "ui/ChartsPane.h"
#include "ui/FindingsPanel.h"
#include "ui/KeyDetailsView.h"
#include "ui/PatternView.h"
#include "ui/ServerPanel.h"

#include <QApplication>
#include <QPixmap>
#include <QTimer>
#include <QTreeView>

#include <cstdio>

namespace keylens::ui {

ScreenshotAfterScan::ScreenshotAfterScan(QWidget& window, models::ScanSession& session, BrowserPane& browser,
                                         FindingsPanel& findings, std::function<void()> showFindings, Request request)
    : QObject(&window)
    , m_window(window)
    , m_session(session)
    , m_browser(browser)
    , m_findings(findings)
    , m_showFindings(std::move(showFindings))
    , m_request(std::move(request))
{
    // A key's details arrive from the server after the scan selected it.
    connect(browser.keyDetails(), &KeyDetailsView::loaded, this, [this] {
        if (!m_session.isRunning())
            takeSoon();
    });
}

void ScreenshotAfterScan::failed(const QString& reason)
{
    std::fprintf(stderr, "keylens: %s\n", qPrintable(reason));
    QApplication::exit(1);
}

void ScreenshotAfterScan::scanFinished(const scan::ScanSummary& summary)
{
    if (summary.error && summary.scanCalls == 0) {
        std::fprintf(stderr, "keylens: %s\n", qPrintable(summary.error->message));
        QApplication::exit(3); // as keylens-cli: nothing could be read
        return;
    }
    const QString& view = m_request.view;
    if (view == QStringLiteral("patterns")) {
        m_browser.showPatterns(true);
        // The exact pattern tree is built off the GUI thread once the scan is over.
        if (m_session.patternModel()->isExact())
            patternsReady();
        else
            connect(m_session.patternModel(), &models::PatternTreeModel::exactTreeReady, this,
                    &ScreenshotAfterScan::patternsReady, Qt::SingleShotConnection);
        return;
    }
    if (!m_request.path.isEmpty() && !m_browser.selectPath(m_request.path)) {
        std::fprintf(stderr, "keylens: --select: no key or namespace '%s'\n", m_request.path.constData());
        QApplication::exit(1);
        return;
    }
    if (m_request.path.isEmpty() && m_session.model()->rowCount() > 0)
        m_browser.tree()->setCurrentIndex(m_session.model()->index(0, 0));
    if (view == QStringLiteral("findings"))
        m_showFindings();
    if (view == QStringLiteral("treemap")) {
        m_browser.showTreemap();
        takeSoon();
        return;
    }
    if (view == QStringLiteral("server")) {
        connect(m_browser.serverPanel(), &ServerPanel::updated, this, &ScreenshotAfterScan::takeSoon,
                Qt::SingleShotConnection);
        m_browser.showServerPanel();
        return;
    }
    if (view == QStringLiteral("shards")) {
        if (!m_browser.showShards()) {
            std::fprintf(stderr, "keylens: --view shards: the server is not a cluster\n");
            QApplication::exit(1);
            return;
        }
        takeSoon();
        return;
    }
    if (view == QStringLiteral("charts")) {
        connect(m_browser.charts()->job(), &models::ChartJob::done, this, &ScreenshotAfterScan::takeSoon,
                Qt::SingleShotConnection);
        m_browser.showCharts(true); // counts the selection's charts
        m_browser.charts()->refresh(true, true);
        return;
    }
    // The findings grouped by pattern take slices of the event loop on a big store.
    if (m_findings.isGrouping()) {
        connect(&m_findings, &FindingsPanel::groupingReady, this, &ScreenshotAfterScan::takeSoon,
                Qt::SingleShotConnection);
        return;
    }
    // A key's details arrive from the server first; a namespace's are there at once.
    if (!m_browser.showsKeyDetails() || m_browser.keyDetails()->isLoaded())
        takeSoon();
}

void ScreenshotAfterScan::patternsReady()
{
    const QByteArray& path = m_request.path;
    if (!path.isEmpty() && !m_browser.patternView()->selectPattern(path)) {
        // A key or namespace path selects its member row's pattern.
        const models::NodeRef node = m_session.view().find(path);
        const models::PatternTreeModel& model = *m_session.patternModel();
        if (node.isNull() ||
            !m_browser.patternView()->selectPattern(model.tree()->text(model.patternOfNode(node.node)))) {
            std::fprintf(stderr, "keylens: --select: no pattern, key or namespace '%s'\n", path.constData());
            QApplication::exit(1);
            return;
        }
    }
    m_browser.patternView()->selectBiggest();
    takeSoon();
}

void ScreenshotAfterScan::takeSoon()
{
    QTimer::singleShot(150, this, &ScreenshotAfterScan::take);
}

void ScreenshotAfterScan::take()
{
    if (!m_pending)
        return;
    m_pending = false;
    const QPixmap image = m_window.grab();
    if (!image.save(m_request.file, "PNG")) {
        std::fprintf(stderr, "keylens: could not write %s\n", qPrintable(m_request.file));
        QApplication::exit(1);
        return;
    }
    QApplication::exit(0);
}

} // namespace keylens::ui
