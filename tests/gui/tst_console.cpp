// The console says what it knows: a server it could not reach is not "connected"; it opens wide enough for its
// lines; and a reply of several lines of text (INFO, CLIENT LIST) is shown as those lines, whole, as the server sent
// them (a plain client asks the same).
#include "GrabAtSizes.h"
#include "PlainClient.h"
#include "TestServer.h"
#include "WindowScan.h"
#include "ui/ConsoleView.h"
#include "ui/MainWindow.h"

#include <QAction>
#include <QDockWidget>
#include <QHeaderView>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace keylens;

class TestConsole : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<ui::MainWindow> m_window;

    ui::ConsoleView* console() const { return m_window->console(); }
    void connectTo(const redis::ConnectionOptions& options) { QVERIFY(test::scanInWindow(*m_window, options)); }
    QTreeWidgetItem* run(const QString& line)
    {
        QSignalSpy replied(console(), &ui::ConsoleView::replied);
        if (!console()->runLine(line) || (replied.isEmpty() && !replied.wait(10000)))
            return nullptr;
        return console()->output()->topLevelItem(console()->output()->topLevelItemCount() - 1);
    }
    // The lines the server's text reply is made of, as a plain client reads it.
    static QStringList serverLines(const QByteArray& text)
    {
        QStringList lines;
        for (QByteArray line : text.split('\n')) {
            if (line.endsWith('\r'))
                line.chop(1);
            lines << QString::fromUtf8(line);
        }
        if (!lines.isEmpty() && lines.back().isEmpty())
            lines.removeLast();
        return lines;
    }
    static QStringList shownLines(QTreeWidgetItem* reply)
    {
        QStringList lines;
        QTreeWidgetItem* text = reply && reply->childCount() == 1 ? reply->child(0) : nullptr;
        for (int i = 0; text && i < text->childCount(); ++i)
            lines << text->child(i)->text(0);
        return lines;
    }

private Q_SLOTS:
    void initTestCase()
    {
        KEYLENS_START_SERVER(m_server);
        test::PlainClient(m_server.port()).command({"SET", "a", "1"});
        QVERIFY(m_dir.isValid());
        m_settings = std::make_unique<QSettings>(m_dir.filePath(QStringLiteral("keylens.ini")), QSettings::IniFormat);
        m_window = std::make_unique<ui::MainWindow>(m_settings.get());
        m_window->resize(900, 700);
        m_window->show();
        connectTo(m_server.connectionOptions());
    }
    void cleanupTestCase()
    {
        m_window.reset();
        m_server.stop();
    }

    // Shown beside the Findings panel it was a quarter of the window wide: it has most of the width now.
    void opensWide()
    {
        auto* dock = m_window->findChild<QDockWidget*>(QStringLiteral("console"));
        QVERIFY(dock);
        dock->toggleViewAction()->trigger();
        QTRY_VERIFY(dock->isVisible());
        QTRY_VERIFY2(dock->width() >= m_window->width() * 3 / 4,
                     qPrintable(QStringLiteral("%1 of %2 px").arg(dock->width()).arg(m_window->width())));
    }

    void multiLineRepliesAreLinesInFull()
    {
        QTreeWidgetItem* info = run(QStringLiteral("INFO server"));
        QVERIFY(info);
        test::PlainClient client(m_server.port());
        const QStringList expected = serverLines(client.command({"INFO", "server"}));
        const QStringList shown = shownLines(info);
        QCOMPARE(shown.size(), expected.size());
        for (int i = 0; i < shown.size(); ++i) {
            const QString name = expected[i].section(u':', 0, 0);
            QCOMPARE(shown[i].section(u':', 0, 0), name);
            // Whole, but for the clocks, which tick between the two asks.
            if (!name.contains(QStringLiteral("time")) && !name.contains(QStringLiteral("clock")))
                QCOMPARE(shown[i], expected[i]);
        }

        // CLIENT LIST: the console's own line (the connection that asked) is there whole, and the column is as wide
        // as the longest line, so nothing is cut at the pane's edge.
        QTreeWidgetItem* clients = run(QStringLiteral("CLIENT LIST"));
        QVERIFY(clients);
        const QStringList lines = shownLines(clients);
        QVERIFY(!lines.isEmpty());
        const auto own = std::find_if(lines.begin(), lines.end(), [](const QString& line) {
            return line.contains(QStringLiteral("cmd=client|list"));
        });
        QVERIFY2(own != lines.end(), qPrintable(lines.join(u'\n')));
        QVERIFY(own->startsWith(QStringLiteral("id=")));
        QVERIFY2(own->contains(QStringLiteral(" user=")), qPrintable(*own)); // a field near its end
        QTreeWidget* output = console()->output();
        const int widest = output->fontMetrics().horizontalAdvance(*own);
        QTRY_VERIFY2(output->columnWidth(0) >= widest,
                     qPrintable(QStringLiteral("%1 px for %2 px").arg(output->columnWidth(0)).arg(widest)));
        test::grabAtSizes(m_window.get(), QStringLiteral("console-client-list"));
    }

    // A port nothing listens on: the console names where commands now go and that it could not get there, never
    // "connected".
    void aDeadPortIsNotConnected()
    {
        const quint16 port = test::freeLoopbackPort();
        redis::ConnectionOptions dead = m_server.connectionOptions();
        dead.port = port;
        const int before = console()->output()->topLevelItemCount();
        ui::MainWindow::Target target;
        target.options = dead;
        m_window->connectTo(target);
        const auto said = [&] {
            QStringList lines;
            for (int i = before; i < console()->output()->topLevelItemCount(); ++i)
                lines << console()->output()->topLevelItem(i)->text(0);
            return lines.join(u'\n');
        };
        QTRY_VERIFY2(said().contains(QStringLiteral("Not connected")), qPrintable(said()));
        QVERIFY2(said().contains(QString::number(port)), qPrintable(said()));
        QVERIFY2(!said().contains(QStringLiteral("connected to")), qPrintable(said()));
        test::grabAtSizes(m_window.get(), QStringLiteral("console-dead-port"));
    }
};

QTEST_MAIN(TestConsole)
#include "tst_console.moc"
