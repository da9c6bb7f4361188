// The window at 800x600 and 1600x1000, as a user sees it after a scan: the Findings panel shows rows of its list, not
// two, with the height the user gives it kept across runs.
#include "GrabAtSizes.h"
#include "PlainClient.h"
#include "TestServer.h"
#include "WindowScan.h"
#include "ui/BrowserPane.h"
#include "ui/FindingsPanel.h"
#include "ui/MainWindow.h"

#include <QDockWidget>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>

using namespace keylens;

namespace {

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
};

QTEST_MAIN(TestWindowFit)
#include "tst_windowfit.moc"
