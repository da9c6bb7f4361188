// The browser under the hardening cases: a password on its command line, URIs it cannot open, a scan
// that fails before any key, and keys that expire while the window shows them.
#include "GuiRunner.h"
#include "PlainClient.h"
#include "ProcessFiles.h"
#include "TestServer.h"
#include "models/KeyTreeModel.h"
#include "models/ScanSession.h"
#include "ui/BrowserPane.h"
#include "ui/KeyDetailsView.h"
#include "ui/MainWindow.h"

#include <QDateTime>
#include <QDirIterator>
#include <QFile>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <csignal>

using namespace keylens;
using models::KeyTreeModel;

namespace {

const QByteArray Canary = "c4nary-Gui-9913";

QByteArray everythingUnder(const QString& folder)
{
    QByteArray all;
    QDirIterator files(folder, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (files.hasNext()) {
        QFile file(files.next());
        if (file.open(QIODevice::ReadOnly))
            all += file.readAll();
    }
    return all;
}

} // namespace

class TestGuiFaults : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void passwordLeavesTheCommandLineAndGoesNowhere()
    {
        demo::RedisServerProcess::Options options;
        options.configText = "requirepass " + Canary + "\n";
        demo::RedisServerProcess server;
        KEYLENS_START_SERVER(server, options);
        QCOMPARE(test::fillStringKeys(server.port(), 3000, 0, "k:", Canary), std::size_t(0));
        QTemporaryDir config;
        QProcess gui;
        test::startGui(gui,
                       {QStringLiteral("redis://:%1@127.0.0.1:%2").arg(QString::fromLatin1(Canary)).arg(server.port()),
                        QStringLiteral("--max-rate"), QStringLiteral("3000"), QStringLiteral("--screenshot"),
                        config.filePath(QStringLiteral("shot.png"))},
                       config.path());
        QVERIFY(gui.waitForStarted());
        // Looked at once the scan runs (the server has seen a SCAN): main() scrubbed the arguments long before. A fixed
        // 500 ms raced a loaded machine, where loading the libraries alone can take longer.
        test::PlainClient admin(server.port(), {}, Canary);
        QTRY_VERIFY_WITH_TIMEOUT(admin.commandCalls("scan") > 0 || gui.state() != QProcess::Running, 60000);
        QCOMPARE(::kill(pid_t(gui.processId()), SIGSTOP), 0); // held while looked at: the scan takes about a second
        QCOMPARE(gui.state(), QProcess::Running);
        const QByteArray arguments = test::processCommandLine(gui.processId());
        QCOMPARE(::kill(pid_t(gui.processId()), SIGCONT), 0);
        QVERIFY(!arguments.isEmpty());
        QVERIFY2(!arguments.contains(Canary), arguments.constData());
        QVERIFY(gui.waitForFinished(60000));
        QCOMPARE(gui.exitCode(), 0);
        const QByteArray err = gui.readAllStandardError();
        QVERIFY2(err.contains("Using a password with '-a' or '-u' option"), err.constData());
        QVERIFY(!err.contains(Canary));
        QVERIFY(!gui.readAllStandardOutput().contains(Canary));
        QVERIFY(QFile::exists(config.filePath(QStringLiteral("shot.png"))));
        QVERIFY(!everythingUnder(config.path()).contains(Canary));
    }

    void exitCodesMatchTheCli()
    {
        QTemporaryDir config;
        QProcess tls;
        test::startGui(tls,
                       {QStringLiteral("rediss://u:%1@127.0.0.1:1").arg(QString::fromLatin1(Canary)),
                        QStringLiteral("--screenshot"), config.filePath(QStringLiteral("tls.png"))},
                       config.path());
        QVERIFY(tls.waitForFinished(20000));
        QCOMPARE(tls.exitCode(), 3); // a connection keylens cannot make, as in keylens-cli; not a usage error
        QVERIFY(!tls.readAllStandardError().contains(Canary));

        const quint16 deadPort = test::freeLoopbackPort();
        QProcess refused;
        test::startGui(refused,
                       {QStringLiteral("redis://127.0.0.1:%1").arg(deadPort), QStringLiteral("--screenshot"),
                        config.filePath(QStringLiteral("none.png"))},
                       config.path());
        QVERIFY(refused.waitForFinished(20000));
        QCOMPARE(refused.exitCode(), 3);
        QVERIFY(refused.readAllStandardError().contains("connection refused"));
    }

    void keysThatExpireWhileShown()
    {
        demo::RedisServerProcess server;
        KEYLENS_START_SERVER(server);
        test::PlainClient client(server.port());
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 0; i < 40; ++i)
            commands.push_back({"SET", "soon:" + QByteArray::number(i), "v", "PX", "1500"});
        for (int i = 0; i < 10; ++i)
            commands.push_back({"SET", "soon:keep:" + QByteArray::number(i), "v"});
        commands.push_back({"SET", "later", "v", "EX", "500"});
        QCOMPARE(client.pipeline(commands), std::size_t(0));

        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("keylens.ini")), QSettings::IniFormat);
        ui::MainWindow window(&settings);
        window.show();
        QSignalSpy finished(&window, &ui::MainWindow::scanFinished);
        ui::MainWindow::Target target;
        target.options = server.connectionOptions();
        window.connectTo(target);
        QVERIFY(finished.wait(20000));
        KeyTreeModel* model = window.browser()->treeModel();
        const keyspace::NodeId soon = model->keyspace()->find("soon");
        QVERIFY(model->overlaysOf(soon, QDateTime::currentMSecsSinceEpoch()) & KeyTreeModel::ExpiringSoon);

        // Once the server has dropped them: the status bar says how many, and nothing is "expiring soon".
        QTRY_COMPARE_WITH_TIMEOUT(client.integer({"DBSIZE"}), 11LL, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(window.statusText().contains(QStringLiteral("as of the scan (40 expired since)")),
                                 3000);
        const std::int64_t now = QDateTime::currentMSecsSinceEpoch();
        QVERIFY(!(model->overlaysOf(soon, now) & KeyTreeModel::ExpiringSoon));
        const QModelIndex soonTtl = model->indexOfNode(soon, KeyTreeModel::TtlColumn);
        QVERIFY2(soonTtl.data().toString().contains(QStringLiteral("some expired")),
                 qPrintable(soonTtl.data().toString()));
        const QModelIndex oneKey = model->indexOfNode(model->keyspace()->find("soon:3"), KeyTreeModel::TtlColumn);
        QCOMPARE(oneKey.data().toString(), QStringLiteral("expired"));

        // The details pane counts down like the tree.
        QVERIFY(window.browser()->selectPath("later"));
        QTRY_VERIFY_WITH_TIMEOUT(window.browser()->keyDetails()->isLoaded(), 5000);
        const auto ttlText = [&] {
            for (QLabel* label : window.browser()->keyDetails()->findChildren<QLabel*>()) {
                if (label->text().endsWith(QStringLiteral(" ms)")))
                    return label->text();
            }
            return QString();
        };
        const QString first = ttlText();
        QVERIFY2(!first.isEmpty(), "no TTL label");
        QTRY_VERIFY_WITH_TIMEOUT(ttlText() != first, 2500);
    }
};

QTEST_MAIN(TestGuiFaults)
#include "tst_guifaults.moc"
