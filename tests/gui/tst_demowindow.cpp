// The window on the demo keyspace (200,000 keys, `keylens --demo`), as a user sees it at 800x600: the
// key tree does not scroll sideways at 800 px and cuts none of its figures ("75," for "75,123" in the Findings
// column), also while comparing with an earlier scan (Δ Memory was cut).
#include "GrabAtSizes.h"
#include "PlainClient.h"
#include "TreeCells.h"
#include "models/Comparison.h"
#include "models/ScanSession.h"
#include "models/SnapshotKeeper.h"
#include "ui/BrowserPane.h"
#include "ui/MainWindow.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
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
};

QTEST_MAIN(TestDemoWindow)
#include "tst_demowindow.moc"
