// The window before a connection: the welcome page offers a local server only when one answers (PONG, or a
// request for a password), connects to it, remembers it for next time, never remembers the demo; and the Help
// menu's shortcuts, tour and README.
#include "PlainClient.h"
#include "TestServer.h"
#include "models/KeyTreeModel.h"
#include "models/RecentConnections.h"
#include "models/ScanSession.h"
#include "ui/BrowserPane.h"
#include "ui/HelpWindows.h"
#include "ui/KeyFilterBar.h"
#include "ui/MainWindow.h"
#include "ui/WelcomePage.h"

#include <QAbstractButton>
#include <QCommandLinkButton>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace keylens;

class TestWelcome : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    demo::RedisServerProcess m_server;

    QString settingsPath() const { return m_dir.filePath(QStringLiteral("keylens.ini")); }

    static QAbstractButton* buttonTitled(const ui::WelcomePage& page, const QString& title)
    {
        for (QAbstractButton* button : page.buttons()) {
            if (button->text() == title)
                return button;
        }
        return nullptr;
    }

    static bool probe(ui::WelcomePage& page, quint16 port)
    {
        QSignalSpy probed(&page, &ui::WelcomePage::localServerProbed);
        page.probeLocalServer(QStringLiteral("127.0.0.1"), port);
        if (!probed.wait(5000))
            return false;
        return probed.first().first().toBool();
    }

private Q_SLOTS:
    void initTestCase()
    {
        KEYLENS_START_SERVER(m_server);
        test::PlainClient client(m_server.port());
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 0; i < 120; ++i)
            commands.push_back({"SET", "welcome:" + QByteArray::number(i), "v"});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
    }

    void opensOnTheWelcomePage()
    {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        ui::MainWindow window(&settings);
        window.show();
        QVERIFY(window.showsWelcome());
        QVERIFY(window.welcomePage()->isVisible());
        QVERIFY(!window.browser()->tree()->isVisible());
        QVERIFY(!window.findChild<QDockWidget*>()->isVisible());
        // The demo, with a sentence on what it is.
        auto* demo = qobject_cast<QCommandLinkButton*>(
            buttonTitled(*window.welcomePage(), QStringLiteral("Open the demo keyspace")));
        QVERIFY(demo);
        QVERIFY(demo->description().contains(QStringLiteral("private redis-server")));
        // The shortcuts, read from the window's own actions.
        const QList<QLabel*> labels = window.welcomePage()->findChildren<QLabel*>();
        const auto shows = [&labels](const QString& text) {
            return std::any_of(labels.begin(), labels.end(), [&](QLabel* label) { return label->text() == text; });
        };
        QVERIFY(shows(QStringLiteral("Go to key")));
        QVERIFY(shows(QStringLiteral("<b>Ctrl+L</b>")));
        QVERIFY(shows(QStringLiteral("Filter keys")));
    }

    // The local server is offered only when something answers as Redis does; a port where nothing listens, or a
    // service that is not Redis, is not offered.
    void offersTheLocalServerOnlyWhenItAnswers()
    {
        ui::WelcomePage page;
        page.show();
        QVERIFY(probe(page, m_server.port()));
        QVERIFY(page.localServerButton()->isVisible());
        QCOMPARE(page.localServerButton()->text(), QStringLiteral("Connect to 127.0.0.1:%1").arg(m_server.port()));

        QVERIFY(!probe(page, test::freeLoopbackPort()));
        QVERIFY(!page.localServerButton()->isVisible());

        QTcpServer notRedis;
        QVERIFY(notRedis.listen(QHostAddress::LocalHost));
        connect(&notRedis, &QTcpServer::newConnection, &notRedis, [&notRedis] {
            QTcpSocket* socket = notRedis.nextPendingConnection();
            socket->write("SSH-2.0-OpenSSH_9.2\r\n");
        });
        QVERIFY(!probe(page, notRedis.serverPort()));
        QVERIFY(!page.localServerButton()->isVisible());

        demo::RedisServerProcess locked;
        demo::RedisServerProcess::Options options;
        options.extraArguments = {QStringLiteral("--requirepass"), QStringLiteral("pw")};
        KEYLENS_START_SERVER(locked, options);
        QVERIFY(probe(page, locked.port()));
        QVERIFY(static_cast<QCommandLinkButton*>(page.localServerButton())->description().contains(u"password"));
    }

    // Clicking it connects and scans; the next window offers it again under Recent, and that connects too.
    void connectsAndRemembers()
    {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        {
            ui::MainWindow window(&settings);
            window.show();
            QVERIFY(probe(*window.welcomePage(), m_server.port()));
            QSignalSpy finished(&window, &ui::MainWindow::scanFinished);
            window.welcomePage()->localServerButton()->click();
            QVERIFY(!window.showsWelcome());
            QVERIFY(finished.wait(30000));
            test::PlainClient client(m_server.port());
            QCOMPARE(std::int64_t(window.session()->keyspace().keyCount()), client.integer({"DBSIZE"}));
            QVERIFY(window.browser()->tree()->isVisible());
            QVERIFY(window.browser()->filterBar()->isEnabled());
        }
        {
            // A server that did not answer is not offered again.
            ui::MainWindow window(&settings);
            ui::MainWindow::Target dead;
            dead.options.port = test::freeLoopbackPort();
            QSignalSpy finished(&window, &ui::MainWindow::scanFinished);
            window.connectTo(dead);
            QVERIFY(finished.wait(30000));
        }
        ui::MainWindow again(&settings);
        again.show();
        const QString address = QStringLiteral("127.0.0.1:%1").arg(m_server.port());
        for (QAbstractButton* button : again.welcomePage()->buttons())
            QVERIFY2(!button->text().startsWith(QStringLiteral("127.0.0.1:")) || button->text() == address,
                     qPrintable(button->text()));
        QAbstractButton* recent = buttonTitled(*again.welcomePage(), address);
        QVERIFY2(recent, "the last connection is not offered");
        QSignalSpy finished(&again, &ui::MainWindow::scanFinished);
        recent->click();
        QVERIFY(finished.wait(30000));
        QCOMPARE(again.session()->keyspace().keyCount(), std::size_t(120));
    }

    // A recent connection comes back as it was: read-only stays read-only, and a TLS connection keeps its CA and
    // certificate files, which its URI cannot carry.
    void recentConnectionsKeepWhatTheUriCannotSay()
    {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        {
            ui::MainWindow window(&settings);
            ui::MainWindow::Target readOnly;
            readOnly.options = m_server.connectionOptions();
            readOnly.options.readOnly = true;
            QSignalSpy finished(&window, &ui::MainWindow::scanFinished);
            window.connectTo(readOnly);
            QVERIFY(finished.wait(30000));
        }
        ui::MainWindow again(&settings);
        again.show();
        QAbstractButton* recent =
            buttonTitled(*again.welcomePage(), QStringLiteral("127.0.0.1:%1").arg(m_server.port()));
        QVERIFY(recent);
        QSignalSpy finished(&again, &ui::MainWindow::scanFinished);
        recent->click();
        QVERIFY(finished.wait(30000));
        QVERIFY(again.findChild<QLabel*>(QStringLiteral("readOnlyBanner"))->isVisible());

        redis::TlsOptions tls;
        tls.enabled = true;
        tls.caCertFile = QStringLiteral("/etc/keylens-test/ca.pem");
        tls.certFile = QStringLiteral("/etc/keylens-test/client.pem");
        tls.keyFile = QStringLiteral("/etc/keylens-test/client.key");
        tls.serverName = QStringLiteral("cache.internal");
        redis::SshOptions ssh;
        ssh.host = QStringLiteral("bastion.example.com");
        ssh.port = 2222;
        ssh.user = QStringLiteral("deploy");
        ssh.identityFile = QStringLiteral("/home/deploy/.ssh/id_ed25519");
        ssh.knownHostsFile = QStringLiteral("/etc/keylens-test/known_hosts");
        {
            models::RecentConnections list(&settings);
            list.remember(
                {QStringLiteral("tls cache"), QStringLiteral("rediss://cache.internal:6380"), {}, tls, ssh, true});
        }
        models::RecentConnections reread(&settings);
        QCOMPARE(reread.list().front().uri, QStringLiteral("rediss://cache.internal:6380"));
        QVERIFY(reread.list().front().tls == tls);
        QVERIFY(reread.list().front().ssh == ssh);
        QVERIFY(reread.list().front().readOnly);
    }

    void helpMenu()
    {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        ui::MainWindow window(&settings);
        window.resize(1100, 700);
        window.show();
        const auto shortcuts = ui::windowShortcuts(window);
        const auto has = [&shortcuts](const QString& keys, const QString& what) {
            return std::find(shortcuts.begin(), shortcuts.end(), std::make_pair(keys, what)) != shortcuts.end();
        };
        QVERIFY(has(QStringLiteral("Ctrl+F"), QStringLiteral("Filter keys")));
        QVERIFY(has(QStringLiteral("F5 or Ctrl+R"), QStringLiteral("Rescan")));
        QVERIFY(has(QStringLiteral("Ctrl+Shift+F"), QStringLiteral("Findings panel")));

        // The README is the one in the source tree.
        ui::ReadmeDialog readme;
        QFile source(QStringLiteral(KEYLENS_SOURCE_DIR "/README.md"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        QCOMPARE(readme.text(), QString::fromUtf8(source.readAll()));

        // The tour outlines each part in turn, and Next reaches its end.
        QSignalSpy finished(&window, &ui::MainWindow::scanFinished);
        ui::MainWindow::Target target;
        target.options = m_server.connectionOptions();
        window.connectTo(target);
        QVERIFY(finished.wait(30000));
        ui::WindowTour* tour = window.startTour();
        QCOMPARE(tour->currentStep(), std::size_t(0));
        QWidget* outline = window.findChild<QWidget*>(QStringLiteral("tourOutline"));
        QVERIFY(outline && outline->isVisible());
        tour->show(1);
        QCOMPARE(tour->highlighted(), static_cast<QWidget*>(window.browser()->filterBar()));
        const QRect bar(window.browser()->filterBar()->mapTo(&window, QPoint()), window.browser()->filterBar()->size());
        QVERIFY(outline->geometry().contains(bar));
        QVERIFY(bar.adjusted(-3, -3, 3, 3).contains(outline->geometry())); // around it, not around the window
        QSignalSpy ended(tour, &ui::WindowTour::finished);
        QWidget* card = window.findChild<QWidget*>(QStringLiteral("tourCard"));
        QPushButton* nextButton = nullptr;
        for (QPushButton* button : card->findChildren<QPushButton*>()) {
            if (button->text() == QStringLiteral("Next"))
                nextButton = button;
        }
        QVERIFY(nextButton);
        for (std::size_t step = 1; step < tour->stepCount(); ++step)
            nextButton->click();
        QCOMPARE(nextButton->text(), QStringLiteral("Done"));
        nextButton->click();
        QVERIFY(ended.count() == 1 || ended.wait(2000));
        QVERIFY(!window.findChild<QWidget*>(QStringLiteral("tourOutline")));
    }
};

QTEST_MAIN(TestWelcome)
#include "tst_welcome.moc"
