// `keylens --demo`: the private server lives exactly as long as the window (also when the app is
// killed), and the window remembers its geometry and column widths.
#include "GuiRunner.h"
#include "PlainClient.h"
#include "models/ScanSession.h"
#include "ui/MainWindow.h"

#include <QHeaderView>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
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
        QVERIFY(keylens.waitForStarted());
        const QRegularExpression announced(QStringLiteral("demo server at redis://127\\.0\\.0\\.1:(\\d+)"));
        QByteArray err;
        QTRY_VERIFY_WITH_TIMEOUT(
            (err += keylens.readAllStandardError(), announced.match(QString::fromUtf8(err)).hasMatch()), 30000);
        const auto port = quint16(announced.match(QString::fromUtf8(err)).captured(1).toUInt());
        QVERIFY(serverAnswers(port));
        keylens.kill(); // SIGKILL: no destructor runs; the server must still go
        QVERIFY(keylens.waitForFinished(5000));
        QTRY_VERIFY_WITH_TIMEOUT(!serverAnswers(port), 5000);
    }

    void geometryAndColumnWidthsAreRemembered()
    {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        {
            ui::MainWindow window(&settings);
            window.show();
            window.resize(1010, 640);
            window.tree()->header()->resizeSection(0, 333);
            QTest::qWait(50);
            window.close();
        }
        ui::MainWindow again(&settings);
        again.show();
        QCOMPARE(again.size(), QSize(1010, 640));
        QCOMPARE(again.tree()->header()->sectionSize(0), 333);
    }
};

QTEST_MAIN(TestGuiDemo)
#include "tst_guidemo.moc"
