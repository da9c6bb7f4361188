// `keylens --screenshot`: after the scan, the view asked for is shown and the window rendered to a PNG, then the
// application quits (0; 1 when the file or --select failed; 3 when nothing could be read, as keylens-cli). Apart
// from MainWindow.cpp, which is about browsing.
#include "models/ChartJob.h"
#include "models/PatternTreeModel.h"
#include "models/ScanSession.h"
#include "ui/ChartsPane.h"
#include "ui/FindingsPanel.h"
#include "ui/KeyDetailsView.h"
#include "ui/MainWindow.h"
#include "ui/PatternView.h"
#include "ui/ServerPanel.h"
#include "ui/ShardsPane.h"

#include <QApplication>
#include <QPixmap>
#include <QTimer>
#include <QTreeView>

#include <cstdio>

namespace keylens::ui {

void MainWindow::requestScreenshot(const QString& file, const QByteArray& path, const QString& view)
{
    m_screenshotFile = file;
    m_screenshotPath = path;
    m_screenshotView = view;
    m_screenshotPending = true;
}

void MainWindow::takeScreenshotOfPatterns()
{
    if (!m_screenshotPath.isEmpty() && !m_patternView->selectPattern(m_screenshotPath)) {
        // A key or namespace path selects its member row's pattern.
        const keyspace::NodeId node = m_session->keyspace().find(m_screenshotPath);
        const models::PatternTreeModel& model = *m_session->patternModel();
        if (node == keyspace::InvalidNode ||
            !m_patternView->selectPattern(model.tree()->text(model.patternOfNode(node)))) {
            std::fprintf(stderr, "keylens: --select: no pattern, key or namespace '%s'\n",
                         m_screenshotPath.constData());
            QApplication::exit(1);
            return;
        }
    }
    m_patternView->selectBiggest();
    QTimer::singleShot(150, this, &MainWindow::takeScreenshot);
}

void MainWindow::takeScreenshot()
{
    if (!m_screenshotPending)
        return;
    m_screenshotPending = false;
    const QPixmap image = grab();
    if (!image.save(m_screenshotFile, "PNG")) {
        std::fprintf(stderr, "keylens: could not write %s\n", qPrintable(m_screenshotFile));
        QApplication::exit(1);
        return;
    }
    QApplication::exit(0);
}

void MainWindow::screenshotAfterScan(const scan::ScanSummary& summary)
{
    if (summary.error && summary.scanCalls == 0) {
        std::fprintf(stderr, "keylens: %s\n", qPrintable(summary.error->message));
        QApplication::exit(3); // as keylens-cli: nothing could be read
        return;
    }
    if (m_screenshotView == QStringLiteral("patterns")) {
        showPatterns(true);
        // The exact pattern tree is built off the GUI thread once the scan is over.
        if (m_session->patternModel()->isExact())
            takeScreenshotOfPatterns();
        else
            connect(m_session->patternModel(), &models::PatternTreeModel::exactTreeReady, this,
                    &MainWindow::takeScreenshotOfPatterns, Qt::SingleShotConnection);
        return;
    }
    if (!m_screenshotPath.isEmpty() && !selectPath(m_screenshotPath)) {
        std::fprintf(stderr, "keylens: --select: no key or namespace '%s'\n", m_screenshotPath.constData());
        QApplication::exit(1);
        return;
    }
    if (m_screenshotPath.isEmpty() && treeModel()->rowCount() > 0)
        m_tree->setCurrentIndex(treeModel()->index(0, 0));
    if (m_screenshotView == QStringLiteral("findings"))
        showFindingsPanel();
    if (m_screenshotView == QStringLiteral("treemap")) {
        showTreemap();
        QTimer::singleShot(150, this, &MainWindow::takeScreenshot);
        return;
    }
    if (m_screenshotView == QStringLiteral("server")) {
        connect(
            m_serverPanel, &ServerPanel::updated, this,
            [this] { QTimer::singleShot(150, this, &MainWindow::takeScreenshot); }, Qt::SingleShotConnection);
        showServerPanel();
        return;
    }
    if (m_screenshotView == QStringLiteral("shards")) {
        if (m_side->indexOf(m_shards) < 0) {
            std::fprintf(stderr, "keylens: --view shards: the server is not a cluster\n");
            QApplication::exit(1);
            return;
        }
        m_side->setCurrentWidget(m_shards);
        QTimer::singleShot(150, this, &MainWindow::takeScreenshot);
        return;
    }
    if (m_screenshotView == QStringLiteral("charts")) {
        connect(
            m_charts->job(), &models::ChartJob::done, this,
            [this] { QTimer::singleShot(150, this, &MainWindow::takeScreenshot); }, Qt::SingleShotConnection);
        showCharts(true); // counts the selection's charts
        m_charts->refresh(true, true);
        return;
    }
    // The findings grouped by pattern take slices of the event loop on a big store.
    if (m_findings->isGrouping()) {
        connect(
            m_findings, &FindingsPanel::groupingReady, this,
            [this] { QTimer::singleShot(150, this, &MainWindow::takeScreenshot); }, Qt::SingleShotConnection);
        return;
    }
    // A key's details arrive from the server first; a namespace's are there at once.
    if (!showsKeyDetails() || m_keyDetails->isLoaded())
        QTimer::singleShot(150, this, &MainWindow::takeScreenshot);
}

} // namespace keylens::ui
