// What the window says at 800 and 900 px, whole, and what looks clickable does something: the side pane's tabs are
// not elided ("Det… Ch…"), and the status bar's "⚠ N notices" lists the scan's notices when clicked. The notices are
// the server's doing: an ACL user that may not run MEMORY USAGE.
#include "DialogAnswers.h"
#include "GrabAtSizes.h"
#include "PlainClient.h"
#include "TestServer.h"
#include "WindowScan.h"
#include "models/PatternTreeModel.h"
#include "models/ScanSession.h"
#include "ui/BrowserPane.h"
#include "ui/MainWindow.h"
#include "ui/PatternView.h"

#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace keylens;

class TestNarrowWindow : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<ui::MainWindow> m_window;

private Q_SLOTS:
    void initTestCase()
    {
        KEYLENS_START_SERVER(m_server);
        test::PlainClient client(m_server.port());
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 1; i <= 200; ++i)
            commands.push_back({"SET", "user:" + QByteArray::number(i), "u"});
        commands.push_back({"ACL", "SETUSER", "nomemory", "on", ">pw", "~*", "+@all", "-memory"});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
        QVERIFY(m_dir.isValid());
        m_settings = std::make_unique<QSettings>(m_dir.filePath(QStringLiteral("keylens.ini")), QSettings::IniFormat);
        m_window = std::make_unique<ui::MainWindow>(m_settings.get());
        m_window->resize(800, 600);
        m_window->show();
        redis::ConnectionOptions options = m_server.connectionOptions();
        options.user = "nomemory";
        options.password = "pw";
        options.hasPassword = true;
        QVERIFY(test::scanInWindow(*m_window, options));
    }
    void cleanupTestCase()
    {
        m_window.reset();
        m_server.stop();
    }

    void sideTabsAreWhole()
    {
        QTabBar* tabs = m_window->browser()->sidePane()->tabBar();
        for (const QSize size : {QSize(800, 600), QSize(900, 700), QSize(1600, 1000)}) {
            m_window->resize(size);
            const auto whole = [&] {
                for (int i = 0; i < tabs->count(); ++i) {
                    const QRect rect = tabs->tabRect(i);
                    // The width its whole text asks for, with the style's margins (QTabBar::tabSizeHint's sum); an
                    // elided tab is laid out narrower.
                    const int wanted = tabs->fontMetrics().size(Qt::TextShowMnemonic, tabs->tabText(i)).width() +
                                       tabs->style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, tabs);
                    if (rect.width() < wanted || rect.right() > tabs->width())
                        return false;
                }
                return true;
            };
            QTRY_VERIFY2(whole(), qPrintable(QStringLiteral("at %1 px").arg(size.width())));
        }
        m_window->resize(800, 600);
        test::grabAtSizes(m_window.get(), QStringLiteral("narrow-tabs"));
    }

    // The Patterns view's row of a pattern's members ("26,299 me…est first") reads whole in its column at 800 px.
    void membersRowIsWhole()
    {
        m_window->resize(800, 600);
        ui::BrowserPane* browser = m_window->browser();
        browser->showPatterns(true);
        models::PatternTreeModel* patterns = m_window->session()->patternModel();
        if (!patterns->isExact()) {
            QSignalSpy exact(patterns, &models::PatternTreeModel::exactTreeReady);
            QVERIFY(exact.wait(10000));
        }
        QVERIFY(browser->patternView()->selectPattern("user:<int>"));
        const QModelIndex pattern = browser->patternView()->currentIndex();
        browser->patternView()->expand(pattern);
        QTRY_VERIFY(patterns->rowCount(pattern) > 0);
        const QModelIndex members = patterns->index(patterns->rowCount(pattern) - 1, 0, pattern);
        QCOMPARE(patterns->kindOf(members), models::PatternTreeModel::RowKind::Members);
        const QString text = members.data().toString();
        // The server's count of the keys it stands for is in it.
        QVERIFY2(text.contains(QString::number(test::PlainClient(m_server.port()).allKeys("user:*").size())),
                 qPrintable(text));
        browser->patternView()->scrollTo(members);
        const int room = browser->patternView()->visualRect(members).width();
        QTRY_VERIFY2(room >= browser->patternView()->fontMetrics().horizontalAdvance(text) + 8,
                     qPrintable(QStringLiteral("%1 in %2 px").arg(text).arg(room)));
        test::grabAtSizes(m_window.get(), QStringLiteral("narrow-members"));
        browser->showPatterns(false);
    }

    void noticesOpenWhenClicked()
    {
        auto* notices = m_window->findChild<QToolButton*>(QStringLiteral("scanNotices"));
        QVERIFY(notices);
        QTRY_VERIFY(notices->isVisible());
        QVERIFY2(notices->text().contains(u'⚠'), qPrintable(notices->text()));
        auto said = std::make_shared<QString>();
        const auto answered = test::answerNextMessageBox(QStringLiteral("OK"), said);
        QTest::mouseClick(notices, Qt::LeftButton);
        QTRY_VERIFY(*answered);
        // Every notice the button's tooltip names, whole; among them that memory was not measured (MEMORY denied).
        QVERIFY2(said->contains(QStringLiteral("MEMORY"), Qt::CaseInsensitive), qPrintable(*said));
        const QStringList lines = notices->toolTip().split(u'\n', Qt::SkipEmptyParts);
        for (const QString& line : lines.mid(0, lines.size() - 1)) // the last line says to click
            QVERIFY2(said->contains(line), qPrintable(line + QStringLiteral(" | ") + *said));
    }
};

QTEST_MAIN(TestNarrowWindow)
#include "tst_narrowwindow.moc"
