// The key details pane shows the key selected now, never what an earlier one left: an edit that found its key gone
// turns the pane read-only for that key alone (another key, or another server, starts clean), and a key renamed from
// the pane is followed to its new name, where the next edit is written. Checked against the server with a plain
// client.
#include "DialogAnswers.h"
#include "ElementDialogAnswer.h"
#include "GrabAtSizes.h"
#include "PlainClient.h"
#include "TestServer.h"
#include "WindowScan.h"
#include "ui/BrowserPane.h"
#include "ui/EditDialogs.h"
#include "ui/KeyDetailsView.h"
#include "ui/MainWindow.h"
#include "ui/PatternView.h"

#include <QDialogButtonBox>
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
    // Adds a field through the pane's Add… dialog and waits for the server's answer; a refusal is cancelled.
    void addField(const QString& field, const QString& value)
    {
        auto added = test::answerElementDialog(field, value);
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

    // An Add the server refuses keeps what was typed: the dialog stays open with the fields as they were and why
    // beside them, and the same dialog then writes the corrected field. Refused twice: by the edit's guard (the field
    // exists already) and by the server itself (OOM under maxmemory).
    void aRefusedAddKeepsWhatWasTyped_data()
    {
        QTest::addColumn<QString>("field");    // refused
        QTest::addColumn<bool>("outOfMemory"); // refused by the server, not by the guard
        QTest::addColumn<QString>("refusal");
        QTest::newRow("field exists") << QStringLiteral("name") << false << QStringLiteral("exists already");
        QTest::newRow("OOM") << QStringLiteral("email") << true << QStringLiteral("OOM");
    }
    void aRefusedAddKeepsWhatWasTyped()
    {
        QFETCH(QString, field);
        QFETCH(bool, outOfMemory);
        QFETCH(QString, refusal);
        open("profile:1");
        test::PlainClient client(m_server.port());
        if (outOfMemory) {
            QCOMPARE(client.command({"CONFIG", "SET", "maxmemory-policy", "noeviction"}), QByteArray("OK"));
            QCOMPARE(client.command({"CONFIG", "SET", "maxmemory", "1"}), QByteArray("OK"));
        }
        struct Seen
        {
            bool openAfterRefusal = false;
            QString field, value, problem;
            bool addEnabled = false;
            bool refusedAgain = false;
        };
        auto seen = std::make_shared<Seen>();
        const quint16 port = m_server.port();
        auto opened = test::whenOpen<ui::ElementDialog>([seen, field, outOfMemory, port](ui::ElementDialog* dialog) {
            dialog->firstField()->setText(field);
            dialog->secondField()->setText(QStringLiteral("typed by hand"));
            dialog->accept();
            test::afterAnswer(dialog, [seen, field, outOfMemory, port](ui::ElementDialog* open) {
                seen->openAfterRefusal = open != nullptr;
                if (!open)
                    return;
                seen->field = open->firstField()->text();
                seen->value = open->secondField()->text();
                seen->problem = open->problem();
                seen->addEnabled = open->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled();
                if (const QString dir = qEnvironmentVariable("KEYLENS_GRAB_DIR"); !dir.isEmpty())
                    open->grab().save(dir + QStringLiteral("/details-add-refused-") +
                                      QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'-') +
                                      QStringLiteral(".png"));
                // Corrected where it was refused, and sent again from the same dialog.
                if (outOfMemory)
                    test::PlainClient(port).command({"CONFIG", "SET", "maxmemory", "0"});
                else
                    open->firstField()->setText(QStringLiteral("nick"));
                open->accept();
                test::afterAnswer(open, [seen](ui::ElementDialog* still) {
                    if (!still)
                        return; // written and closed (the click below may have returned already)
                    seen->refusedAgain = true;
                    seen->problem = still->problem();
                    still->reject();
                });
            });
            return true;
        });
        QSignalSpy finished(details(), &ui::KeyDetailsView::editFinished);
        details()->addButton()->click(); // returns when the dialog closed
        QVERIFY(*opened);
        client.command({"CONFIG", "SET", "maxmemory", "0"});
        QVERIFY(seen->openAfterRefusal);
        QCOMPARE(seen->field, field);
        QCOMPARE(seen->value, QStringLiteral("typed by hand"));
        QVERIFY2(seen->problem.contains(refusal), qPrintable(seen->problem));
        QVERIFY(seen->addEnabled);
        QVERIFY2(!seen->refusedAgain, qPrintable(seen->problem));
        QCOMPARE(finished.count(), 2);
        const QByteArray written = outOfMemory ? "email" : "nick";
        QCOMPARE(client.command({"HGET", "profile:1", written}), QByteArray("typed by hand"));
        QCOMPARE(client.command({"HGET", "profile:1", "name"}), QByteArray("n1")); // the refused Add wrote nothing
        QVERIFY2(details()->editStatus().contains(QStringLiteral("Saved")), qPrintable(details()->editStatus()));
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
