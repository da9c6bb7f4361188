// The window at 800x600 and 1600x1000, as a user sees it after a scan: the Findings panel shows rows of its list, not
// two, with the height the user gives it kept across runs; no figure of the trees is cut ("26,2…,582", "76.3% · 4…",
// "string 1…"), and the tree does not scroll sideways at 1600 px. Against a real server whose keys make wide cells: a
// filter's "111 of 300", TTLs of which some ran out since the scan ("some expired"), a namespace of five types.
#include "GrabAtSizes.h"
#include "PlainClient.h"
#include "TestServer.h"
#include "TreeCells.h"
#include "WindowScan.h"
#include "models/KeyTreeModel.h"
#include "models/PatternTreeModel.h"
#include "models/ScanSession.h"
#include "ui/BrowserPane.h"
#include "ui/FindingsPanel.h"
#include "ui/MainWindow.h"
#include "ui/PatternView.h"

#include <QDockWidget>
#include <QHeaderView>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>

using namespace keylens;
using models::TreeColumns;

namespace {

constexpr int TtlMs = 1500; // the keys that run out between the scan and the look

QDockWidget* findingsDock(ui::MainWindow& window)
{
    return window.findChild<QDockWidget*>(QStringLiteral("findingsDock"));
}

// Rows of the Findings list that fit its viewport, measured with a row of the list.
int findingsRowsShown(ui::MainWindow& window)
{
    QTreeWidget* list = window.findingsPanel()->list();
    const int row = list->sizeHintForRow(0);
    return row > 0 ? list->viewport()->height() / row : 0;
}

int treeRowsShown(QTreeView* tree)
{
    const int row = tree->sizeHintForRow(0);
    return row > 0 ? tree->viewport()->height() / row : 0;
}

void settle()
{
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
}

} // namespace

class TestWindowFit : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    QTemporaryDir m_dir;

    std::unique_ptr<QSettings> settingsNamed(const QString& name)
    {
        return std::make_unique<QSettings>(m_dir.filePath(name + QStringLiteral(".ini")), QSettings::IniFormat);
    }

private Q_SLOTS:
    void initTestCase()
    {
        KEYLENS_START_SERVER(m_server);
        QVERIFY(m_dir.isValid());
        test::PlainClient client(m_server.port());
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 1; i <= 300; ++i)
            commands.push_back({"SET", "user:" + QByteArray::number(i), QByteArray(40, 'u')});
        // A namespace of which some keys run out after the scan, the others in a day: "x% · some expired".
        for (int i = 1; i <= 40; ++i)
            commands.push_back({"SET", "otp:" + QByteArray::number(i), "123456", "PX",
                                QByteArray::number(i <= 10 ? TtlMs : 86'400'000)});
        for (int i = 1; i <= 40; ++i)
            commands.push_back({"SET", "otp:plain:" + QByteArray::number(i), "x"});
        // Five types in one namespace: a long type mix.
        for (int i = 1; i <= 8; ++i) {
            const QByteArray n = QByteArray::number(i);
            commands.push_back({"SET", "mix:s" + n, "v"});
            commands.push_back({"HSET", "mix:h" + n, "f", "v"});
            commands.push_back({"RPUSH", "mix:l" + n, "v"});
            commands.push_back({"SADD", "mix:t" + n, "v"});
            if (i <= 3)
                commands.push_back({"ZADD", "mix:z" + n, "1", "v"});
        }
        // A BullMQ queue: the Findings panel then has a notice (its keys skipped the naming rules).
        commands.push_back({"SET", "bull:emailQueue:id", "3"});
        commands.push_back({"RPUSH", "bull:emailQueue:wait", "3"});
        commands.push_back({"HSET", "bull:emailQueue:meta", "opts.maxLenEvents", "10000"});
        for (int i = 1; i <= 3; ++i)
            commands.push_back({"HSET", "bull:emailQueue:" + QByteArray::number(i), "name", "welcomeMail"});
        // Findings: a list to count rows of.
        for (int i = 1; i <= 30; ++i)
            commands.push_back({"SET", "CACHE:" + QByteArray::number(i), "x"});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
    }
    void cleanupTestCase() { m_server.stop(); }

    // At 800x600 (the offscreen screen's size, so the window's first size) and at 1600x1000, the Findings panel shows
    // six rows of its list at least, and the tree keeps most of the height. Its first height was 150 px at 800x600
    // (two rows under the notices), and the History tab's chart held the side pane 350 px tall, which squeezed it
    // to that whatever its height.
    void findingsShowRows_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QSize>("before"); // the window's size before, the user's resize from it
        QTest::newRow("800x600") << QSize(800, 600) << QSize();
        QTest::newRow("800x600 from 1280x800") << QSize(800, 600) << QSize(1280, 800);
        QTest::newRow("1600x1000") << QSize(1600, 1000) << QSize();
    }
    void findingsShowRows()
    {
        QFETCH(QSize, size);
        QFETCH(QSize, before);
        const std::unique_ptr<QSettings> settings = settingsNamed(QString::fromLatin1(QTest::currentDataTag()));
        ui::MainWindow window(settings.get());
        if (before.isValid())
            window.resize(before);
        else
            window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(test::scanInWindow(window, m_server.connectionOptions()));
        window.resize(size);
        QTRY_COMPARE(window.size(), size);
        QTRY_VERIFY(window.findingsPanel()->list()->topLevelItemCount() > 0);
        settle();
        QVERIFY(findingsDock(window)->isVisible());
        QTRY_VERIFY(!window.findingsPanel()->noticesText().isEmpty());
        settle();
        QVERIFY2(findingsRowsShown(window) >= 6, qPrintable(QStringLiteral("%1 rows of findings in a %2 px dock")
                                                                .arg(findingsRowsShown(window))
                                                                .arg(findingsDock(window)->height())));
        // Not at the tree's cost: it keeps the larger share.
        QTreeView* tree = window.browser()->tree();
        QVERIFY2(treeRowsShown(tree) >= 9, qPrintable(QString::number(treeRowsShown(tree))));
        QVERIFY(tree->viewport()->height() > window.findingsPanel()->list()->viewport()->height());
        test::grabAtSizes(&window, QStringLiteral("findings-rows"));
    }

    // The height the user gives the panel is the next run's.
    void findingsHeightIsRemembered()
    {
        const std::unique_ptr<QSettings> settings = settingsNamed(QStringLiteral("remembered"));
        int height = 0;
        {
            ui::MainWindow window(settings.get());
            window.resize(800, 600);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(test::scanInWindow(window, m_server.connectionOptions()));
            const int first = findingsDock(window)->height();
            window.resizeDocks({findingsDock(window)}, {first - 50}, Qt::Vertical);
            QTRY_VERIFY2(findingsDock(window)->height() < first - 30,
                         qPrintable(QStringLiteral("%1 from %2").arg(findingsDock(window)->height()).arg(first)));
            height = findingsDock(window)->height();
            window.close(); // saves the window's state
        }
        ui::MainWindow again(settings.get());
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QTRY_COMPARE(findingsDock(again)->height(), height);
    }

    // No figure of either tree is cut, filtered or not, in the Keys and the Patterns view, at either size; and at
    // 1600 px the tree does not scroll sideways (three hidden columns' old widths made it 300 px wider than them).
    void figuresAreWhole_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("patterns");
        QTest::addColumn<QString>("filter");
        for (const QSize size : {QSize(800, 600), QSize(1600, 1000)}) {
            const QString at = QStringLiteral("%1px ").arg(size.width());
            QTest::newRow(qPrintable(at + QStringLiteral("keys"))) << size << false << QString();
            QTest::newRow(qPrintable(at + QStringLiteral("keys filtered")))
                << size << false << QStringLiteral("user:1*");
            QTest::newRow(qPrintable(at + QStringLiteral("patterns"))) << size << true << QString();
            QTest::newRow(qPrintable(at + QStringLiteral("patterns filtered")))
                << size << true << QStringLiteral("user:1*");
        }
    }
    void figuresAreWhole()
    {
        QFETCH(QSize, size);
        QFETCH(bool, patterns);
        QFETCH(QString, filter);
        const std::unique_ptr<QSettings> settings = settingsNamed(QStringLiteral("figures"));
        ui::MainWindow window(settings.get());
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // Some TTLs run out between the scan and the look.
        test::PlainClient client(m_server.port());
        for (int i = 1; i <= 10; ++i)
            client.command({"SET", "otp:" + QByteArray::number(i), "123456", "PX", QByteArray::number(TtlMs)});
        QVERIFY(test::scanInWindow(window, m_server.connectionOptions()));
        QTest::qWait(TtlMs + 200);
        ui::BrowserPane* browser = window.browser();
        browser->setFilterText(filter);
        QTreeView* view = browser->tree();
        if (patterns) {
            models::PatternTreeModel* model = window.session()->patternModel();
            QSignalSpy exact(model, &models::PatternTreeModel::exactTreeReady);
            browser->showPatterns(true);
            if (!model->isExact())
                QVERIFY(exact.wait(30000));
            view = browser->patternView();
        }
        window.resize(size);
        QTRY_COMPARE(window.size(), size);
        view->sortByColumn(TreeColumns::NameColumn, Qt::AscendingOrder);
        for (int row = 0; row < view->model()->rowCount(); ++row) { // the TTLs' namespace: its keys on screen too
            const QModelIndex index = view->model()->index(row, 0);
            if (index.data().toString() == QStringLiteral("otp"))
                view->expand(index);
        }
        // The cells that make the widest figures are among those on screen.
        const auto shownText = [&](int column) {
            QStringList texts;
            for (QModelIndex row = view->indexAt(QPoint(0, 0));
                 row.isValid() && view->visualRect(row).top() < view->viewport()->height(); row = view->indexBelow(row))
                texts << row.siblingAtColumn(column).data().toString();
            return texts.join(u'|');
        };
        if (filter.isEmpty())
            QVERIFY2(shownText(TreeColumns::TtlColumn).contains(QStringLiteral("some expired")),
                     qPrintable(shownText(TreeColumns::TtlColumn)));
        else
            QVERIFY2(shownText(TreeColumns::KeysColumn).contains(QStringLiteral(" of ")),
                     qPrintable(shownText(TreeColumns::KeysColumn)));
        QTRY_VERIFY2(test::cutCells(view).isEmpty(), qPrintable(test::cutCells(view).join(QStringLiteral(", "))));
        if (size.width() >= 1600)
            QTRY_COMPARE(view->horizontalScrollBar()->maximum(), 0);
        test::grabAtSizes(&window, QStringLiteral("figures-") +
                                       QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'-'));
    }

    // A cell that changes with the clock alone, no signal said: the namespace's soonest key expires after the scan and
    // its TTL reads "some expired", wider than what the column was measured for. It widens within seconds.
    void figuresThatChangeWithTimeStayWhole()
    {
        const std::unique_ptr<QSettings> settings = settingsNamed(QStringLiteral("clock"));
        ui::MainWindow window(settings.get());
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        test::PlainClient client(m_server.port());
        for (int i = 1; i <= 10; ++i)
            client.command({"SET", "otp:" + QByteArray::number(i), "123456", "PX", "2500"});
        QVERIFY(test::scanInWindow(window, m_server.connectionOptions()));
        QTreeView* view = window.browser()->tree();
        view->sortByColumn(TreeColumns::NameColumn, Qt::AscendingOrder);
        QModelIndex otp;
        for (int row = 0; row < view->model()->rowCount(); ++row) {
            if (view->model()->index(row, 0).data().toString() == QStringLiteral("otp"))
                otp = view->model()->index(row, TreeColumns::TtlColumn);
        }
        QVERIFY(otp.isValid());
        QVERIFY2(!otp.data().toString().contains(QStringLiteral("expired")), qPrintable(otp.data().toString()));
        QTRY_VERIFY2(test::cutCells(view).isEmpty(), qPrintable(test::cutCells(view).join(QStringLiteral(", "))));
        QTRY_VERIFY_WITH_TIMEOUT(otp.data().toString().contains(QStringLiteral("some expired")), 10000);
        QTRY_VERIFY2(test::cutCells(view).isEmpty(), qPrintable(test::cutCells(view).join(QStringLiteral(", "))));
    }
};

QTEST_MAIN(TestWindowFit)
#include "tst_windowfit.moc"
