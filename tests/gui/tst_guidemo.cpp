// `keylens --demo`: the private server lives exactly as long as the window (also when the app is
// killed), and the window remembers its geometry and column widths.
#include "GuiRunner.h"
#include "PlainClient.h"
#include "demo/RedisServerProcess.h"
#include "models/ScanSession.h"
#include "ui/BrowserPane.h"
#include "ui/MainWindow.h"

#include <QHeaderView>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace keylens;

class TestGuiDemo : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString settingsPath() const { return m_dir.filePath(QStringLiteral("keylens.ini")); }

    static bool serverAnswers(quint16 port)
    {
        test::PlainClient client(port);
        return client.isConnected() && client.command({"PING"}) == "PONG";
    }

    // The port a started `keylens --demo` says its server is on (stderr), or 0.
    static void announcedPort(QProcess& keylens, quint16* port)
    {
        QVERIFY(keylens.waitForStarted());
        const QRegularExpression announced(QStringLiteral("demo server at redis://127\\.0\\.0\\.1:(\\d+)"));
        QByteArray err;
        QTRY_VERIFY_WITH_TIMEOUT(
            (err += keylens.readAllStandardError(), announced.match(QString::fromUtf8(err)).hasMatch()), 30000);
        *port = quint16(announced.match(QString::fromUtf8(err)).captured(1).toUInt());
    }

private Q_SLOTS:
    void closingTheWindowStopsTheServer()
    {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        auto window = std::make_unique<ui::MainWindow>(&settings);
        window->show();
        QSignalSpy finished(window.get(), &ui::MainWindow::scanFinished);
        window->startDemo(3000);
        QVERIFY(finished.wait(60000));
        const quint16 port = window->session()->options().connection.port;
        QVERIFY(serverAnswers(port));
        test::PlainClient client(port);
        QCOMPARE(client.integer({"DBSIZE"}), 3000LL);
        QCOMPARE(window->session()->keyspace().keyCount(), std::uint64_t(3000));

        window->close();
        window.reset();
        QTRY_VERIFY_WITH_TIMEOUT(!serverAnswers(port), 5000);
    }

    void killingTheAppStopsTheServer()
    {
        QProcess keylens;
        test::startGui(keylens, {QStringLiteral("--demo"), QStringLiteral("--demo-keys"), QStringLiteral("2000")},
                       m_dir.path());
        quint16 port = 0;
        announcedPort(keylens, &port);
        QVERIFY(port != 0);
        QVERIFY(serverAnswers(port));
        keylens.kill(); // SIGKILL: no destructor runs; the server must still go
        QVERIFY(keylens.waitForFinished(5000));
        QTRY_VERIFY_WITH_TIMEOUT(!serverAnswers(port), 5000);
    }

    // --help and --version print without a display (no QT_QPA_PLATFORM, no DISPLAY).
    void helpAndVersionNeedNoDisplay()
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
            environment.remove(QString::fromLatin1(name));
        const auto run = [&](const QString& argument) {
            QProcess keylens;
            keylens.setProcessEnvironment(environment);
            keylens.start(QStringLiteral(KEYLENS_GUI_PATH), {argument});
            if (!keylens.waitForFinished(10000))
                return QStringLiteral("(still running)");
            return QStringLiteral("%1 %2")
                .arg(keylens.exitCode())
                .arg(QString::fromUtf8(keylens.readAllStandardOutput()));
        };
        const QString help = run(QStringLiteral("--help"));
        QVERIFY2(help.startsWith(QStringLiteral("0 ")) && help.contains(QStringLiteral("--demo-port")),
                 qPrintable(help));
        const QString version = run(QStringLiteral("--version")); // its content: tst_packagefiles
        QVERIFY2(version.startsWith(QStringLiteral("0 keylens %1 (commit ").arg(QStringLiteral(KEYLENS_VERSION))),
                 qPrintable(version));
    }

    // --demo-port puts the demo server on that port; a port in use says so.
    void demoPortChoosesThePort()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        const quint16 taken = probe.serverPort();
        demo::RedisServerProcess server;
        demo::RedisServerProcess::Options options;
        options.port = taken;
        const redis::Status refused = server.start(options);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(QStringLiteral("port %1 is in use").arg(taken)),
                 qPrintable(refused.error().message));
        probe.close(); // now free: the app's demo server takes it

        QProcess keylens;
        test::startGui(keylens,
                       {QStringLiteral("--demo"), QStringLiteral("--demo-keys"), QStringLiteral("500"),
                        QStringLiteral("--demo-port"), QString::number(taken)},
                       m_dir.path());
        quint16 port = 0;
        announcedPort(keylens, &port);
        QCOMPARE(port, taken);
        QVERIFY(serverAnswers(taken));
        keylens.kill();
        QVERIFY(keylens.waitForFinished(5000));
        QTRY_VERIFY_WITH_TIMEOUT(!serverAnswers(taken), 5000);
    }

    void geometryAndColumnWidthsAreRemembered()
    {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        {
            ui::MainWindow window(&settings);
            window.show();
            window.resize(1010, 640);
            // The name, which takes what room there is, keeps at least what it was given; the others exactly.
            window.browser()->tree()->header()->resizeSection(0, 333);
            window.browser()->tree()->header()->resizeSection(2, 140);
            QTest::qWait(50);
            window.close();
        }
        ui::MainWindow again(&settings);
        again.show();
        QCOMPARE(again.size(), QSize(1010, 640));
        QTRY_VERIFY(again.browser()->tree()->header()->sectionSize(0) >= 333);
        QCOMPARE(again.browser()->tree()->header()->sectionSize(2), 140);
    }
};

QTEST_MAIN(TestGuiDemo)
#include "tst_guidemo.moc"
