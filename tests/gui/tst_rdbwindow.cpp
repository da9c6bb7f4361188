// The window reads an RDB file as it scans a server (File > Open RDB file…, `keylens dump.rdb`): the tree holds the
// file's keys, the status line says how the reading went, and a damaged file shows the keys before the damage and
// says where it is. Every memory figure says it is estimated; the Server tab shows what the file says of itself; the
// TTLs are read as of the save or of now, as Scan > TTLs as of the save says.
#include "PlainClient.h"
#include "RdbHex.h"
#include "TestServer.h"
#include "lint/Linter.h"
#include "models/ConnectionTarget.h"
#include "models/KeyTreeModel.h"
#include "models/LiveSession.h"
#include "models/ScanSession.h"
#include "ui/BrowserPane.h"
#include "ui/GuiCommandLine.h"
#include "ui/KeyDetailsView.h"
#include "ui/MainWindow.h"
#include "ui/NamespaceDetailsView.h"
#include "ui/ServerPanel.h"

#include <QAction>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <sys/stat.h>

using namespace keylens;

class TestRdbWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    static QString fixture(const char* name)
    {
        return QStringLiteral(KEYLENS_FIXTURES_DIR "/rdb/") + QLatin1String(name);
    }

private Q_SLOTS:
    void readsAFileAndAFileCutShort()
    {
        QSettings settings(m_dir.filePath(QStringLiteral("keylens.ini")), QSettings::IniFormat);
        settings.setValue(QStringLiteral("scan/followLive"), true); // a file has nothing to follow: no bar, no error
        ui::MainWindow window(&settings);
        window.show();
        QSignalSpy finished(&window, &ui::MainWindow::scanFinished);
        window.connectTo(models::ConnectionTarget::offlineFile(fixture("redis_encodings.rdb")));
        QVERIFY(finished.wait(20000));
        const keyspace::Keyspace& store = window.session()->keyspace();
        QCOMPARE(store.keyCount(), 13u);
        QVERIFY(store.find("zset_zipped") != keyspace::InvalidNode);
        QVERIFY(window.session()->summary()->memoryEstimated);
        QVERIFY2(window.statusText().contains(QLatin1String("13 keys")), qPrintable(window.statusText()));
        QVERIFY2(window.statusText().contains(QLatin1String("estimated")), qPrintable(window.statusText()));
        QCOMPARE(window.live()->state(), models::LiveSession::State::Off);

        // Cut in the middle: the keys before the cut, and where it is.
        QFile whole(fixture("redis_encodings.rdb"));
        QVERIFY(whole.open(QIODevice::ReadOnly));
        const QByteArray bytes = whole.readAll();
        const QString cut = m_dir.filePath(QStringLiteral("cut.rdb"));
        QFile part(cut);
        QVERIFY(part.open(QIODevice::WriteOnly));
        part.write(bytes.left(bytes.size() / 2));
        part.close();
        window.connectTo(models::ConnectionTarget::offlineFile(cut));
        QVERIFY(finished.wait(20000));
        const std::uint64_t partial = window.session()->keyspace().keyCount();
        QVERIFY(partial > 0 && partial < 13);
        QVERIFY(window.session()->summary()->error);
        QVERIFY2(window.statusText().contains(QLatin1String("damaged at byte")), qPrintable(window.statusText()));
        // Not only the status line: the banner a failed scan gets, and the title, say the tree is partial.
        auto* banner = window.browser()->findChild<QLabel*>(QStringLiteral("problemBanner"));
        QVERIFY(banner && !banner->isHidden());
        QVERIFY2(banner->text().contains(QLatin1String("partial result")) &&
                     banner->text().contains(QString::number(partial)),
                 qPrintable(banner->text()));
        QVERIFY2(window.windowTitle().contains(QLatin1String("(partial)")), qPrintable(window.windowTitle()));
        auto* bar = window.findChild<QLabel*>(QStringLiteral("connectionLabel"));
        QVERIFY(bar);
        QVERIFY2(bar->text().contains(QLatin1String("partial")), qPrintable(bar->text()));
        // Read whole again: none stays.
        window.connectTo(models::ConnectionTarget::offlineFile(fixture("redis_encodings.rdb")));
        QVERIFY(finished.wait(20000));
        QVERIFY(banner->isHidden());
        QVERIFY2(!window.windowTitle().contains(QLatin1String("partial")), qPrintable(window.windowTitle()));
        QVERIFY2(!bar->text().contains(QLatin1String("partial")), qPrintable(bar->text()));

        // Not an RDB file at all: the bar does not describe a reading that never happened.
        const QString notes = m_dir.filePath(QStringLiteral("notes.txt"));
        QFile text(notes);
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write("hello world, these are my notes\n");
        text.close();
        window.connectTo(models::ConnectionTarget::offlineFile(notes));
        QVERIFY(finished.wait(20000));
        QVERIFY2(!bar->text().contains(QLatin1String("memory estimated")), qPrintable(bar->text()));
        QVERIFY2(bar->text().contains(QLatin1String("not read")), qPrintable(bar->text()));
    }

    // Paused, a file's reading says so at once ("Paused at"), as a scan does, and goes on from there when resumed.
    void pausesAFile()
    {
        const QString fifo = m_dir.filePath(QStringLiteral("paused-pipe"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        QSettings settings(m_dir.filePath(QStringLiteral("paused.ini")), QSettings::IniFormat);
        ui::MainWindow window(&settings);
        QSignalSpy finished(&window, &ui::MainWindow::scanFinished);
        window.connectTo(models::ConnectionTarget::offlineFile(fifo));
        window.session()->pause(); // before the first key arrives
        QProcess writer;
        writer.start(QStringLiteral("sh"), {QStringLiteral("-c"), QStringLiteral("cat \"$0\" > \"$1\""),
                                            fixture("redis_encodings.rdb"), fifo});
        QTRY_VERIFY_WITH_TIMEOUT(window.statusText().startsWith(QLatin1String("Paused at")), 10000);
        QVERIFY(finished.isEmpty());
        window.session()->resume();
        QVERIFY(finished.wait(20000));
        QCOMPARE(window.session()->keyspace().keyCount(), 13u);
        QVERIFY(window.session()->summary()->complete);
        QTRY_COMPARE_WITH_TIMEOUT(writer.state(), QProcess::NotRunning, 5000);
    }

    // A Valkey file: its valkey-ver is the server version, and no AUX field is shown twice.
    void serverTabOfAValkeyFile()
    {
        const QString path = m_dir.filePath(QStringLiteral("valkey.rdb"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        const QByteArray bytes = test::handBuiltRdb("valkey080.rdbhex");
        QVERIFY(!bytes.isEmpty());
        file.write(bytes);
        file.close();
        QSettings settings(m_dir.filePath(QStringLiteral("valkey.ini")), QSettings::IniFormat);
        ui::MainWindow window(&settings);
        window.show();
        QSignalSpy finished(&window, &ui::MainWindow::scanFinished);
        window.connectTo(models::ConnectionTarget::offlineFile(path));
        QVERIFY(finished.wait(20000));
        ui::ServerPanel& panel = *window.browser()->serverPanel();
        window.browser()->showServerPanel();
        QTRY_VERIFY_WITH_TIMEOUT(!panel.value(QStringLiteral("RDB file"), QStringLiteral("Format")).isEmpty(), 5000);
        QVERIFY(panel.value(QStringLiteral("RDB file"), QStringLiteral("Format")).startsWith(QLatin1String("Valkey")));
        QCOMPARE(panel.value(QStringLiteral("Saved by"), QStringLiteral("Server version")), QStringLiteral("9.0.0"));
        QVERIFY(panel.value(QStringLiteral("Saved by"), QStringLiteral("valkey-ver")).isEmpty());
        QVERIFY(
            panel.value(QStringLiteral("Saved by"), QStringLiteral("Saved at")).startsWith(QLatin1String("2023-11-1")));
    }

    // `keylens <(gunzip -c dump.rdb.gz)`: a pipe, named by its path, read to the end without a size to count against.
    void readsAPipe()
    {
        const QString fifo = m_dir.filePath(QStringLiteral("pipe"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        const ui::GuiCommandResult parsed = ui::parseGuiCommandLine({QStringLiteral("keylens"), fifo});
        QVERIFY2(parsed.command, qPrintable(parsed.output));
        QCOMPARE(parsed.command->target.rdbFile, fifo);
        QCOMPARE(parsed.command->target.name, fifo);
        QVERIFY(ui::parseGuiCommandLine({QStringLiteral("keylens"), fifo, QStringLiteral("-h"), QStringLiteral("x")})
                    .exitCode == 2); // a file is not a server: no host goes with it
        // Nor is its memory sampled by a server: there is nothing to measure whole.
        const ui::GuiCommandResult exact =
            ui::parseGuiCommandLine({QStringLiteral("keylens"), fifo, QStringLiteral("--exact-memory")});
        QCOMPARE(exact.exitCode, 2);
        QVERIFY2(exact.output.contains(QLatin1String("--exact-memory does not apply")), qPrintable(exact.output));
        const ui::GuiCommandResult server = ui::parseGuiCommandLine(
            {QStringLiteral("keylens"), QStringLiteral("redis://127.0.0.1:1"), QStringLiteral("--exact-memory")});
        QVERIFY2(server.command && server.command->target.exactMemory, qPrintable(server.output));

        QFile source(fixture("redis_encodings.rdb"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QByteArray bytes = source.readAll();
        QProcess writer; // the other end of the pipe, as gunzip would be
        writer.start(QStringLiteral("sh"), {QStringLiteral("-c"), QStringLiteral("cat \"$0\" > \"$1\""),
                                            fixture("redis_encodings.rdb"), fifo});
        QSettings settings(m_dir.filePath(QStringLiteral("pipe.ini")), QSettings::IniFormat);
        ui::MainWindow window(&settings);
        QSignalSpy finished(&window, &ui::MainWindow::scanFinished);
        window.connectTo(parsed.command->target);
        QVERIFY(finished.wait(20000));
        QTRY_COMPARE_WITH_TIMEOUT(writer.state(), QProcess::NotRunning, 5000);
        QCOMPARE(writer.exitCode(), 0);
        QCOMPARE(window.session()->keyspace().keyCount(), 13u);
        QVERIFY(window.session()->summary()->complete);
        QCOMPARE(window.session()->summary()->rdbFacts->fileBytes, qint64(-1));
        QCOMPARE(window.session()->summary()->rdbFacts->bytesRead, std::uint64_t(bytes.size()));
        QVERIFY2(window.statusText().contains(fifo), qPrintable(window.statusText()));
    }

    void whatTheWindowShowsOfAFile()
    {
        // A file of the local server's: a list over 5,000 elements and over a MiB (the reading reports its bytes every
        // MiB), a key that expires two seconds after the save, a few small keys.
        demo::RedisServerProcess server;
        KEYLENS_START_SERVER(server);
        test::PlainClient client(server.port());
        std::vector<std::vector<QByteArray>> writes;
        std::uint32_t noise = 1;
        for (int i = 0; i < 6000; ++i) {
            QByteArray element(200, '\0'); // incompressible: LZF would shrink the file under a MiB
            for (char& byte : element) {
                noise = noise * 1664525u + 1013904223u;
                byte = char(noise >> 24);
            }
            writes.push_back({"RPUSH", "queue:big", element});
        }
        for (int i = 0; i < 20; ++i)
            writes.push_back({"SET", "user:" + QByteArray::number(i), "x"});
        writes.push_back({"SET", "cache:soon", "gone in a moment", "PX", "2000"});
        QCOMPARE(client.pipeline(writes), std::size_t(0));
        QCOMPARE(client.command({"SAVE"}), QByteArray("OK"));
        const QString dump =
            QString::fromUtf8(client.elements({"CONFIG", "GET", "dir"}).back()) + QStringLiteral("/dump.rdb");
        const qint64 fileBytes = QFileInfo(dump).size();
        QVERIFY(fileBytes > (1 << 20));

        QSettings settings(m_dir.filePath(QStringLiteral("shows.ini")), QSettings::IniFormat);
        ui::MainWindow window(&settings);
        window.show();
        QSignalSpy finished(&window, &ui::MainWindow::scanFinished);
        QSignalSpy progress(window.session(), &models::ScanSession::progressChanged);
        window.connectTo(models::ConnectionTarget::offlineFile(dump));
        QVERIFY(finished.wait(20000));
        QCOMPARE(window.session()->keyspace().keyCount(), 22u); // as of the save, cache:soon had two seconds left

        // Progress in the file's bytes, out of its size.
        QVERIFY(!progress.isEmpty());
        const auto last = progress.last().front().value<scan::ScanProgress>();
        QVERIFY(last.fromFile);
        QCOMPARE(last.bytesTotal, fileBytes);
        QVERIFY(last.bytesRead >= (1u << 20) && last.bytesRead <= std::uint64_t(fileBytes));
        QVERIFY(last.fractionDone() && *last.fractionDone() > 0);

        // "Estimated" beside the memory: the column's header, each cell, the details.
        models::KeyTreeModel& model = *window.session()->model();
        QVERIFY(model.headerData(models::TreeColumns::MemoryColumn, Qt::Horizontal)
                    .toString()
                    .contains(QLatin1String("est.")));
        QVERIFY(model.headerData(models::TreeColumns::MemoryColumn, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .startsWith(QLatin1String("Estimated")));
        QVERIFY(model.rowCount() > 0);
        for (int row = 0; row < model.rowCount(); ++row)
            QVERIFY2(model.index(row, models::TreeColumns::MemoryColumn).data().toString().startsWith(u'≈'),
                     qPrintable(model.index(row, models::TreeColumns::MemoryColumn).data().toString()));

        // The key details: what the store keeps, its length from the file (a big key), no value read from anywhere.
        ui::KeyDetailsView& details = *window.browser()->keyDetails();
        QVERIFY(window.browser()->selectPath("queue:big"));
        QTRY_COMPARE_WITH_TIMEOUT(details.key(), QByteArray("queue:big"), 5000);
        QCOMPARE(details.fieldText(QStringLiteral("Type")), QStringLiteral("list"));
        QCOMPARE(details.fieldText(QStringLiteral("Length")), QStringLiteral("6,000 elements"));
        QVERIFY(details.fieldText(QStringLiteral("Memory")).contains(QLatin1String("estimated")));
        QVERIFY(details.valueText().contains(QLatin1String("RDB file")));
        const auto bigCollections = [&] {
            for (const lint::RuleSummary& rule : window.session()->linter().summaries()) {
                if (qstrcmp(rule.rule->id, "big-collection") == 0)
                    return rule.findings;
            }
            return std::uint64_t(0);
        };
        QTRY_COMPARE_WITH_TIMEOUT(bigCollections(), std::uint64_t(1), 10000); // the length is the file's

        // The Server tab: the file's header and AUX fields, the used memory at save time beside the estimate.
        ui::ServerPanel& panel = *window.browser()->serverPanel();
        window.browser()->showServerPanel();
        QTRY_VERIFY_WITH_TIMEOUT(!panel.value(QStringLiteral("RDB file"), QStringLiteral("Format")).isEmpty(), 5000);
        QVERIFY(panel.value(QStringLiteral("RDB file"), QStringLiteral("Format")).contains(QLatin1String("10")));
        QVERIFY(
            panel.value(QStringLiteral("RDB file"), QStringLiteral("Checksum")).startsWith(QLatin1String("matched")));
        const QByteArray version = client.command({"INFO", "server"});
        QVERIFY(version.contains(QByteArray(
            "redis_version:" + panel.value(QStringLiteral("Saved by"), QStringLiteral("Server version")).toUtf8())));
        QVERIFY(!panel.value(QStringLiteral("Memory"), QStringLiteral("Used when saved")).isEmpty());
        QVERIFY(
            panel.value(QStringLiteral("Memory"), QStringLiteral("In the keys")).contains(QLatin1String("estimated")));

        // As of now, once the two seconds are past: cache:soon is counted as expired, not shown.
        QTRY_VERIFY_WITH_TIMEOUT(client.integer({"EXISTS", "cache:soon"}) == 0, 10000);
        QAction* asOfSave = nullptr;
        for (QAction* action : window.findChildren<QAction*>()) {
            if (action->text() == QStringLiteral("&TTLs as of the save (RDB files)"))
                asOfSave = action;
        }
        QVERIFY(asOfSave && asOfSave->isEnabled() && asOfSave->isChecked());
        asOfSave->setChecked(false); // reads the file again
        QVERIFY(finished.wait(20000));
        QCOMPARE(window.session()->keyspace().keyCount(), 21u);
        QCOMPARE(window.session()->summary()->keysExpired, 1u);
        QCOMPARE(settings.value(QStringLiteral("scan/ttlFromSave")).toBool(), false);
    }

    // A stream's memory read from a file is a range (the server that wrote it preallocated its newest node, one that
    // loads the file would not): the notice, the tree's tooltip and the details give both ends and say why.
    void aStreamShowsItsRange()
    {
        demo::RedisServerProcess server;
        KEYLENS_START_SERVER(server);
        test::PlainClient client(server.port());
        QCOMPARE(client.pipeline({{"XADD", "events:clicks", "*", "user", "1"}, {"SET", "user:1", "x"}}),
                 std::size_t(0));
        QCOMPARE(client.command({"SAVE"}), QByteArray("OK"));
        const QString dump =
            QString::fromUtf8(client.elements({"CONFIG", "GET", "dir"}).back()) + QStringLiteral("/dump.rdb");

        QSettings settings(m_dir.filePath(QStringLiteral("stream.ini")), QSettings::IniFormat);
        ui::MainWindow window(&settings);
        window.show();
        QSignalSpy finished(&window, &ui::MainWindow::scanFinished);
        window.connectTo(models::ConnectionTarget::offlineFile(dump));
        QVERIFY(finished.wait(20000));
        const QString why = QStringLiteral("newest node 4 KiB ahead");
        const QStringList notices = window.session()->summary()->notices;
        QVERIFY2(notices.filter(QStringLiteral("1 stream takes between")).filter(why).size() == 1,
                 qPrintable(notices.join(u'\n')));

        models::KeyTreeModel& model = *window.session()->model();
        QString eventsTip;
        QString userTip;
        for (int row = 0; row < model.rowCount(); ++row) {
            const QString name = model.index(row, models::TreeColumns::NameColumn).data().toString();
            const QString tip = model.index(row, models::TreeColumns::MemoryColumn).data(Qt::ToolTipRole).toString();
            (name == QLatin1String("events") ? eventsTip : userTip) = tip;
        }
        QVERIFY2(eventsTip.contains(why) && eventsTip.contains(QLatin1String("on a server that loads the file")),
                 qPrintable(eventsTip));
        QVERIFY2(!userTip.isEmpty() && !userTip.contains(why), qPrintable(userTip)); // no stream there: one figure

        QVERIFY(window.browser()->selectPath("events:"));
        QTRY_VERIFY_WITH_TIMEOUT(window.browser()
                                     ->namespaceDetails()
                                     ->fieldText(QStringLiteral("Memory"))
                                     .contains(QLatin1String("on a server that loads the file")),
                                 5000);
        ui::KeyDetailsView& details = *window.browser()->keyDetails();
        QVERIFY(window.browser()->selectPath("events:clicks"));
        QTRY_COMPARE_WITH_TIMEOUT(details.key(), QByteArray("events:clicks"), 5000);
        QVERIFY2(details.fieldText(QStringLiteral("Memory")).contains(QLatin1String("on a server that loads the file")),
                 qPrintable(details.fieldText(QStringLiteral("Memory"))));
    }
};

QTEST_MAIN(TestRdbWindow)
#include "tst_rdbwindow.moc"
