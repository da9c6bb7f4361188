// The window on the demo keyspace (200,000 keys, `keylens --demo`), as a user sees it at 800x600 and 1280x800: the
// key tree does not scroll sideways at 800 px and cuts none of its figures ("75," for "75,123" in the Findings
// column), also while comparing with an earlier scan (Δ Memory was cut); and a sorted set's scores are inside the
// details pane at 1280 px (the Score column sat past the pane's right edge).
#include "GrabAtSizes.h"
#include "PlainClient.h"
#include "TreeCells.h"
#include "models/Comparison.h"
#include "models/ScanSession.h"
#include "models/SnapshotKeeper.h"
#include "models/ValueTableModel.h"
#include "ui/BrowserPane.h"
#include "ui/KeyDetailsView.h"
#include "ui/MainWindow.h"

#include <QHeaderView>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace keylens;
using models::TreeColumns;

class TestDemoWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<ui::MainWindow> m_window;

    void resizeTo(const QSize& size)
    {
        m_window->resize(size);
        QTRY_COMPARE(m_window->size(), size);
        for (int i = 0; i < 5; ++i) // splitters and the column fitting settle over a few turns
            QCoreApplication::processEvents();
    }

    // The tree's shown columns whole in its viewport, their figures whole, at the window's size.
    static QString treeProblems(QTreeView* tree)
    {
        return (test::columnsPastTheEdge(tree) + test::cutCells(tree)).join(QStringLiteral("; "));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // the snapshots kept go to a test folder
        QVERIFY(m_dir.isValid());
        m_settings = std::make_unique<QSettings>(m_dir.filePath(QStringLiteral("keylens.ini")), QSettings::IniFormat);
        m_window = std::make_unique<ui::MainWindow>(m_settings.get());
        m_window->resize(800, 600);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QSignalSpy finished(m_window.get(), &ui::MainWindow::scanFinished);
        QSignalSpy kept(m_window->session()->snapshots(), &models::SnapshotKeeper::snapshotKept);
        m_window->startDemo(200'000);
        QVERIFY(finished.wait(120000));
        QTRY_VERIFY_WITH_TIMEOUT(kept.count() == 1, 30000);
        // What the demo server holds is what the window shows.
        test::PlainClient client(m_window->session()->options().connection.port);
        QCOMPARE(std::uint64_t(client.integer({"DBSIZE"})), m_window->session()->keyspace().keyCount());
    }
    void cleanupTestCase() { m_window.reset(); }

    // At 800 px every column the tree shows is in sight, whole, with whole figures: the name gives way first, then
    // the columns that say what another place says too (the details' types); never a figure.
    void treeFitsAt800()
    {
        resizeTo(QSize(800, 600));
        QTreeView* tree = m_window->browser()->tree();
        QTRY_VERIFY2(treeProblems(tree).isEmpty(), qPrintable(treeProblems(tree)));
        // The figures a user reads first are among them.
        QHeaderView* header = tree->header();
        for (const int column : {int(TreeColumns::KeysColumn), int(TreeColumns::MemoryColumn),
                                 int(TreeColumns::FindingsColumn), int(TreeColumns::TtlColumn)})
            QVERIFY2(!header->isSectionHidden(column),
                     qPrintable(tree->model()->headerData(column, Qt::Horizontal).toString()));
        test::grabAtSizes(m_window.get(), QStringLiteral("demo-tree"));
    }

    // While comparing (here with the scan on screen itself), the Δ columns join the tree at 800 px: they and every
    // other column shown stay in sight and whole.
    void comparisonFitsAt800()
    {
        resizeTo(QSize(800, 600));
        const std::shared_ptr<const history::Snapshot> snapshot = m_window->session()->snapshots()->lastSnapshot();
        QVERIFY(snapshot);
        m_window->browser()->compareWith(std::make_shared<models::Comparison>(*snapshot, QStringLiteral("then")));
        QTreeView* tree = m_window->browser()->tree();
        QHeaderView* header = tree->header();
        QTRY_VERIFY(!header->isSectionHidden(TreeColumns::DeltaMemoryColumn));
        QVERIFY(!header->isSectionHidden(TreeColumns::DeltaKeysColumn));
        QTRY_VERIFY2(treeProblems(tree).isEmpty(), qPrintable(treeProblems(tree)));
        test::grabAtSizes(m_window.get(), QStringLiteral("demo-compare"));
        m_window->browser()->compareWith(nullptr);
    }

    // A sorted set's members and scores in the details pane at 1280x800: the table inside the pane (which does not
    // scroll sideways), the Score column inside the table, every score on screen whole.
    void zsetScoresInsideThePaneAt1280()
    {
        resizeTo(QSize(1280, 800));
        ui::BrowserPane* browser = m_window->browser();
        browser->sidePane()->setCurrentIndex(0); // Details
        ui::KeyDetailsView* details = browser->keyDetails();
        QSignalSpy loaded(details, &ui::KeyDetailsView::loaded);
        QVERIFY(browser->selectPath("leaderboard:global"));
        QTRY_VERIFY(details->isLoaded() && details->key() == "leaderboard:global");
        QTableView* table = details->valueView();
        QTRY_VERIFY(table->isVisible() && table->model()->rowCount() > 10);
        for (int i = 0; i < 5; ++i)
            QCoreApplication::processEvents();
        auto* pane = qobject_cast<QScrollArea*>(browser->sidePane()->currentWidget());
        QVERIFY(pane);
        QTRY_COMPARE(pane->horizontalScrollBar()->maximum(), 0);
        // The table's right edge within the pane's viewport.
        const QRect inPane(table->mapTo(pane->viewport(), QPoint(0, 0)), table->size());
        QVERIFY2(
            inPane.right() <= pane->viewport()->width(),
            qPrintable(QStringLiteral("table ends at %1 of %2 px").arg(inPane.right()).arg(pane->viewport()->width())));
        // The Score column within the table's viewport, its scores whole (the member's may be elided in the middle).
        QHeaderView* header = table->horizontalHeader();
        const int score = 1;
        QCOMPARE(table->model()->headerData(score, Qt::Horizontal).toString(), QStringLiteral("Score"));
        QVERIFY2(header->sectionViewportPosition(score) + header->sectionSize(score) <= table->viewport()->width(),
                 qPrintable(QStringLiteral("Score at %1..%2 of %3 px")
                                .arg(header->sectionViewportPosition(score))
                                .arg(header->sectionViewportPosition(score) + header->sectionSize(score))
                                .arg(table->viewport()->width())));
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
        test::PlainClient client(m_window->session()->options().connection.port);
        for (int row = table->rowAt(0); row >= 0 && row <= table->rowAt(table->viewport()->height() - 1); ++row) {
            const QModelIndex cell = table->model()->index(row, score);
            const QString text = cell.data().toString();
            // The server's score of the row's member, as the table shows it.
            const QByteArray member = table->model()->index(row, 0).data(Qt::UserRole + 1).toByteArray();
            const double server = client.command({"ZSCORE", "leaderboard:global", member}).toDouble();
            QCOMPARE(text.toDouble(), server);
            QVERIFY2(table->sizeHintForIndex(cell).width() <= header->sectionSize(score),
                     qPrintable(QStringLiteral("%1 in %2 px").arg(text).arg(header->sectionSize(score))));
        }
        test::grabAtSizes(m_window.get(), QStringLiteral("demo-zset"));
    }
};

QTEST_MAIN(TestDemoWindow)
#include "tst_demowindow.moc"
