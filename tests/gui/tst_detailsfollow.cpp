// The key details pane shows the key selected now, never what an earlier one left: an edit that found its key gone
// turns the pane read-only for that key alone (another key, or another server, starts clean), and a key renamed from
// the pane is followed to its new name, where the next edit is written. Checked against the server with a plain
// client.
#include "DialogAnswers.h"
#include "GrabAtSizes.h"
#include "PlainClient.h"
#include "TestServer.h"
#include "WindowScan.h"
#include "ui/BrowserPane.h"
#include "ui/EditDialogs.h"
#include "ui/KeyDetailsView.h"
#include "ui/MainWindow.h"
#include "ui/PatternView.h"

#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace keylens;

class TestDetailsFollow : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    demo::RedisServerProcess m_other;
    QTemporaryDir m_dir;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<ui::MainWindow> m_window;

    void scan(const demo::RedisServerProcess& server)
    {
        QVERIFY(test::scanInWindow(*m_window, server.connectionOptions()));
    }
    ui::KeyDetailsView* details() const { return m_window->browser()->keyDetails(); }
    void open(const QByteArray& key)
    {
        QVERIFY(m_window->browser()->selectPath(key));
        QTRY_VERIFY(details()->isLoaded() && details()->key() == key);
    }
    // Adds a field through the pane's Add… dialog and waits for the server's answer.
    void addField(const QString& field, const QString& value)
    {
        auto added = test::whenOpen<ui::ElementDialog>([field, value](ui::ElementDialog* dialog) {
            dialog->firstField()->setText(field);
            dialog->secondField()->setText(value);
            dialog->accept();
            return true;
        });
        QSignalSpy finished(details(), &ui::KeyDetailsView::editFinished);
        details()->addButton()->click();
        QVERIFY(*added);
        QVERIFY(!finished.isEmpty() || finished.wait(10000));
    }
    static void fill(quint16 port, const QByteArray& prefix)
    {
        test::PlainClient client(port);
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 1; i <= 3; ++i)
            commands.push_back({"HSET", prefix + ":" + QByteArray::number(i), "name", "n" + QByteArray::number(i)});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
    }

private Q_SLOTS:
    void init()
    {
        KEYLENS_START_SERVER(m_server);
        fill(m_server.port(), "profile");
        QVERIFY(m_dir.isValid());
        m_settings = std::make_unique<QSettings>(m_dir.filePath(QStringLiteral("keylens.ini")), QSettings::IniFormat);
        m_window = std::make_unique<ui::MainWindow>(m_settings.get());
        m_window->resize(1100, 700);
        m_window->show();
        scan(m_server);
    }
    void cleanup()
    {
        m_window.reset();
        m_server.stop();
        m_other.stop();
    }

    // The notice of a key gone is about that key: another key, or a key of another server, shows none, and its edit
    // controls work.
    void aGoneKeysNoticeStaysWithThatKey()
    {
        open("profile:1");
        test::PlainClient client(m_server.port());
        QCOMPARE(client.command({"DEL", "profile:1"}), QByteArray("1"));
        addField(QStringLiteral("email"), QStringLiteral("ada@example.org"));
        QVERIFY(details()->isKeyGone());
        QVERIFY2(details()->editStatus().contains(QStringLiteral("read-only now")),
                 qPrintable(details()->editStatus()));

        test::grabAtSizes(m_window.get(), QStringLiteral("details-gone"));
        open("profile:2");
        test::grabAtSizes(m_window.get(), QStringLiteral("details-another-key"));
        QVERIFY2(details()->editStatus().isEmpty(), qPrintable(details()->editStatus()));
        QVERIFY(details()->addButton()->isEnabled());

        // Gone again, then another server: its keys start clean too.
        QCOMPARE(client.command({"DEL", "profile:2"}), QByteArray("1"));
        addField(QStringLiteral("email"), QStringLiteral("bob@example.org"));
        QVERIFY(details()->isKeyGone());
        KEYLENS_START_SERVER(m_other);
        fill(m_other.port(), "account");
        scan(m_other);
        open("account:1");
        QVERIFY2(details()->editStatus().isEmpty(), qPrintable(details()->editStatus()));
        QVERIFY(details()->addButton()->isEnabled());
        addField(QStringLiteral("email"), QStringLiteral("cy@example.org"));
        QCOMPARE(test::PlainClient(m_other.port()).command({"HGET", "account:1", "email"}),
                 QByteArray("cy@example.org"));
    }

    // Rename… in the pane: the pane follows the key to its new name, and the next Add is written there; in the Keys
    // view, in the Patterns view, and under a filter the new name does not match.
    void thePaneFollowsARenamedKey_data()
    {
        QTest::addColumn<bool>("patterns");
        QTest::addColumn<QString>("filter");
        QTest::newRow("keys") << false << QString();
        QTest::newRow("patterns") << true << QString();
        QTest::newRow("filtered") << false << QStringLiteral("profile");
    }
    void thePaneFollowsARenamedKey()
    {
        QFETCH(bool, patterns);
        QFETCH(QString, filter);
        m_window->browser()->setFilterText(filter);
        open("profile:3");
        m_window->browser()->showPatterns(patterns);
        if (patterns) // the pattern view selects its biggest pattern: the key again
            QVERIFY(m_window->browser()->patternView()->selectPattern("profile:<int>"));
        QTRY_VERIFY(details()->isLoaded());
        auto renamed = test::whenOpen<ui::KeyNameDialog>([](ui::KeyNameDialog* dialog) {
            dialog->nameField()->setText(QStringLiteral("person:3"));
            dialog->accept();
            return true;
        });
        QSignalSpy finished(details(), &ui::KeyDetailsView::editFinished);
        details()->renameKey();
        QVERIFY(*renamed);
        QVERIFY(!finished.isEmpty() || finished.wait(10000));
        test::PlainClient client(m_server.port());
        QCOMPARE(client.integer({"EXISTS", "profile:3"}), 0LL);
        QCOMPARE(client.integer({"EXISTS", "person:3"}), 1LL);
        QTRY_VERIFY(details()->isLoaded() && details()->key() == QByteArray("person:3"));
        QVERIFY(!details()->isKeyGone());
        QVERIFY(details()->addButton()->isEnabled());
        QVERIFY2(details()->editStatus().contains(QStringLiteral("person:3")), qPrintable(details()->editStatus()));
        test::grabAtSizes(m_window.get(),
                          QStringLiteral("details-renamed-") + QString::fromLatin1(QTest::currentDataTag()));

        addField(QStringLiteral("email"), QStringLiteral("dee@example.org"));
        QCOMPARE(client.command({"HGET", "person:3", "email"}), QByteArray("dee@example.org"));
        QCOMPARE(client.integer({"EXISTS", "profile:3"}), 0LL); // nothing written under the old name
        QVERIFY2(!details()->editStatus().contains(QStringLiteral("gone")), qPrintable(details()->editStatus()));
    }
};

QTEST_MAIN(TestDetailsFollow)
#include "tst_detailsfollow.moc"
