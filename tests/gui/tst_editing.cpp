// Changing keys from the window, against a real server checked by a plain client: a string edited and saved back
// gzip-compressed, a conflict with another client's write, collection elements added, edited and removed through
// their dialogs, TTL, rename, duplicate and new keys, a read-only connection; and bulk actions on a namespace (the
// preview, the typed confirmation, the backup, the run). The tree follows every one of them without a rescan.
#include "CliRunner.h"
#include "DialogAnswers.h"
#include "ElementDialogAnswer.h"
#include "PlainClient.h"
#include "TestServer.h"
#include "edit/BackupFile.h"
#include "keyspace/SubtreeTotals.h"
#include "lint/Linter.h"
#include "lint/Rules.h"
#include "models/KeyTreeModel.h"
#include "models/PatternTreeModel.h"
#include "models/ScanSession.h"
#include "ui/BrowserPane.h"
#include "ui/BulkActionDialog.h"
#include "ui/ConsoleView.h"
#include "ui/EditActions.h"
#include "ui/EditDialogs.h"
#include "ui/ExportActions.h"
#include "ui/FindingsPanel.h"
#include "ui/KeyDetailsView.h"
#include "ui/MainWindow.h"
#include "ui/PatternView.h"
#include "ui/RenamePlanDialog.h"

#include <QComboBox>
#include <QFile>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <zlib.h>

using namespace keylens;

namespace {

QByteArray gzip(const QByteArray& bytes)
{
    z_stream stream{};
    deflateInit2(&stream, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY);
    QByteArray out(int(deflateBound(&stream, uLong(bytes.size()))) + 32, Qt::Uninitialized);
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    stream.avail_in = uInt(bytes.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = uInt(out.size());
    deflate(&stream, Z_FINISH);
    out.truncate(qsizetype(stream.total_out));
    deflateEnd(&stream);
    return out;
}

QByteArray gunzip(const QByteArray& bytes)
{
    z_stream stream{};
    inflateInit2(&stream, 31);
    QByteArray out(1 << 20, Qt::Uninitialized);
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    stream.avail_in = uInt(bytes.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = uInt(out.size());
    const int result = inflate(&stream, Z_FINISH);
    out.truncate(result == Z_STREAM_END ? qsizetype(stream.total_out) : 0);
    inflateEnd(&stream);
    return out;
}

} // namespace

class TestEditing : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<ui::MainWindow> m_window;

    void scan(bool readOnly = false, bool production = false)
    {
        ui::MainWindow::Target target;
        target.options = m_server.connectionOptions();
        target.options.readOnly = readOnly;
        target.production = production;
        QSignalSpy finished(m_window.get(), &ui::MainWindow::scanFinished);
        m_window->connectTo(target);
        QVERIFY(finished.wait(60000));
    }
    const keyspace::Keyspace& store() const { return m_window->session()->keyspace(); }
    keyspace::SubtreeTotals totals(const QByteArray& path) const
    {
        const keyspace::NodeId node = store().find(path);
        return node == keyspace::InvalidNode ? keyspace::SubtreeTotals{} : keyspace::subtreeTotals(store(), node);
    }
    ui::BulkActionDialog* openBulk(const QByteArray& path, edit::BulkKind kind)
    {
        if (!m_window->browser()->selectPath(path))
            return nullptr;
        m_window->edits()->openBulkAction(kind);
        auto* dialog = m_window->findChild<ui::BulkActionDialog*>();
        if (dialog) {
            QSignalSpy checked(dialog, &ui::BulkActionDialog::checked);
            checked.wait(10000);
        }
        return dialog;
    }
    // With KEYLENS_GRAB_DIR set, saves a picture of the widget there, to look at it.
    static void grab(QWidget* widget, const QString& name)
    {
        if (const QString dir = qEnvironmentVariable("KEYLENS_GRAB_DIR"); !dir.isEmpty())
            widget->grab().save(dir + u'/' + name + QStringLiteral(".png"));
    }
    static bool runDialog(ui::BulkActionDialog* dialog, const QString& confirmation)
    {
        QSignalSpy done(dialog, &ui::BulkActionDialog::actionEnded);
        dialog->confirmation()->setText(confirmation);
        if (!dialog->runButton()->isEnabled())
            return false;
        dialog->runButton()->click();
        return done.wait(30000);
    }
    // Closes it the way the window made it (delete on close), and waits until it is gone.
    static void closeDialog(ui::BulkActionDialog* dialog)
    {
        QPointer<ui::BulkActionDialog> open(dialog);
        dialog->close();
        QTRY_VERIFY(open.isNull());
    }

    ui::KeyDetailsView* details() const { return m_window->browser()->keyDetails(); }
    void open(const QByteArray& key)
    {
        QSignalSpy loaded(details(), &ui::KeyDetailsView::loaded);
        QVERIFY(m_window->browser()->selectPath(key));
        if (!details()->isLoaded() || details()->key() != key)
            QVERIFY(loaded.wait(10000));
        QTRY_VERIFY(details()->isLoaded() && details()->key() == key);
    }
    // Clicks and waits for the edit to come back (dialogs on the way are answered by whoever set that up).
    static bool clickAndWaitForEdit(ui::KeyDetailsView* view, QPushButton* button)
    {
        QSignalSpy finished(view, &ui::KeyDetailsView::editFinished);
        button->click();
        return !finished.isEmpty() || finished.wait(10000);
    }
    void selectRow(const QByteArray& first)
    {
        QTableView* table = details()->valueView();
        QTRY_VERIFY(table->model()->rowCount() > 0);
        for (int row = 0; row < table->model()->rowCount(); ++row) {
            if (table->model()->index(row, 0).data(Qt::UserRole + 1).toByteArray() == first) {
                table->setCurrentIndex(table->model()->index(row, 0));
                return;
            }
        }
        QFAIL("no such row");
    }

private Q_SLOTS:
    void init()
    {
        KEYLENS_START_SERVER(m_server);
        test::PlainClient client(m_server.port());
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 0; i < 330; ++i)
            commands.push_back({"SET", "cache:" + QByteArray::number(i), QByteArray(50, 'c')});
        for (int i = 0; i < 20; ++i)
            commands.push_back({"HSET", "keep:" + QByteArray::number(i), "f", "v"});
        for (int i = 0; i < 40; ++i)
            commands.push_back({"SET", "session:" + QByteArray::number(i), "s", "EX", "3600"});
        commands.push_back({"SET", "doc:gz", gzip(R"({"name":"before","n":1})")});
        commands.push_back({"HSET", "profile:1", "name", "Ada", "city", "London"});
        commands.push_back({"ZADD", "board", "10", "alice", "20", "bob"});
        commands.push_back({"SET", "mixed:bin", QByteArray("\xff\x00\xfe", 3), "PX", "900000"});
        commands.push_back({"RPUSH", "mixed:list", "a", "b", "a"});
        commands.push_back({"SADD", "mixed:set", "x", QByteArray("\x80", 1)});
        commands.push_back({"XADD", "mixed:stream", "1-1", "f", "v", "g", QByteArray("\xc3", 1)});
        commands.push_back({"ZADD", "mixed:zset", "1.5", "m"});
        for (int i = 1; i <= 200; ++i)
            commands.push_back({"SET", "user:" + QByteArray::number(i), "u"});
        for (int i = 1001; i <= 1020; ++i) // the same name spelled another way: naming-variants
            commands.push_back({"SET", "User_" + QByteArray::number(i), "v"});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
        QVERIFY(m_dir.isValid());
        m_settings = std::make_unique<QSettings>(m_dir.filePath(QStringLiteral("keylens.ini")), QSettings::IniFormat);
        m_window = std::make_unique<ui::MainWindow>(m_settings.get());
        m_window->resize(1100, 700);
        m_window->show();
        scan();
    }
    void cleanup()
    {
        m_window.reset();
        m_server.stop();
    }

    void stringSavedBackCompressedAndConflictRefused()
    {
        open("doc:gz");
        QVERIFY(details()->editButton()->isEnabled());
        details()->editButton()->click();
        details()->valueEditor()->setPlainText(QStringLiteral("{\n  \"name\": \"after\",\n  \"n\": 2\n}"));
        auto asked = test::answerNextMessageBox(QStringLiteral("Save gzip-compressed"));
        QVERIFY(clickAndWaitForEdit(details(), details()->saveButton()));
        QVERIFY(*asked);
        test::PlainClient client(m_server.port());
        const QByteArray stored = client.command({"GET", "doc:gz"});
        QVERIFY(stored.startsWith("\x1f\x8b"));                            // gzip, as it was
        QCOMPARE(gunzip(stored), QByteArray(R"({"name":"after","n":2})")); // compact, as it was
        QTRY_VERIFY(details()->isLoaded());

        // Another client writes while this one edits: Save is refused, with the difference, and theirs stays.
        open("doc:gz");
        details()->editButton()->click();
        details()->valueEditor()->setPlainText(QStringLiteral("{\"name\": \"mine\"}"));
        client.command({"SET", "doc:gz", gzip(R"({"name":"theirs"})")});
        auto compressed = test::answerNextMessageBox(QStringLiteral("Save gzip-compressed"));
        auto said = std::make_shared<QString>();
        auto conflict = test::answerNextMessageBox(QStringLiteral("Keep editing"), said);
        QVERIFY(clickAndWaitForEdit(details(), details()->saveButton()));
        QTRY_VERIFY(*conflict);
        QVERIFY2(said->contains(QStringLiteral("changed on the server")), qPrintable(*said));
        QCOMPARE(gunzip(client.command({"GET", "doc:gz"})), QByteArray(R"({"name":"theirs"})"));
    }

    void hashFieldsThroughTheirDialogs()
    {
        open("profile:1");
        auto added = test::whenOpen<ui::ElementDialog>([](ui::ElementDialog* dialog) {
            dialog->firstField()->setText(QStringLiteral("email"));
            dialog->secondField()->setText(QStringLiteral("ada@example.org"));
            dialog->accept();
            return true;
        });
        QVERIFY(clickAndWaitForEdit(details(), details()->addButton()));
        QVERIFY(*added);
        test::PlainClient client(m_server.port());
        QCOMPARE(client.command({"HGET", "profile:1", "email"}), QByteArray("ada@example.org"));

        QTRY_VERIFY(details()->isLoaded());
        selectRow("city");
        auto edited = test::whenOpen<ui::ElementDialog>([](ui::ElementDialog* dialog) {
            dialog->secondField()->setText(QStringLiteral("Cambridge"));
            dialog->accept();
            return true;
        });
        QVERIFY(clickAndWaitForEdit(details(), details()->editElementButton()));
        QVERIFY(*edited);
        QCOMPARE(client.command({"HGET", "profile:1", "city"}), QByteArray("Cambridge"));

        QTRY_VERIFY(details()->isLoaded());
        selectRow("name");
        auto removed = test::answerNextMessageBox(QStringLiteral("Yes"));
        QVERIFY(clickAndWaitForEdit(details(), details()->removeButton()));
        QVERIFY(*removed);
        QCOMPARE(client.integer({"HEXISTS", "profile:1", "name"}), 0LL);
        // The store follows: the key's memory is measured again.
        const keyspace::NodeId node = store().find("profile:1");
        QVERIFY(store().keyInfo(node).memoryMeasured);
    }

    void ttlRenameDuplicateAndNewKey()
    {
        open("board");
        auto ttl = test::whenOpen<QInputDialog>([](QInputDialog* dialog) {
            dialog->setTextValue(QStringLiteral("2h"));
            dialog->accept();
            return true;
        });
        QSignalSpy finished(details(), &ui::KeyDetailsView::editFinished);
        details()->setTtl();
        QVERIFY(*ttl);
        QVERIFY(!finished.isEmpty() || finished.wait(10000));
        test::PlainClient client(m_server.port());
        QVERIFY(client.integer({"PTTL", "board"}) > 7'000'000);
        QVERIFY(keyspace::hasExpiry(store().keyInfo(store().find("board")).expiresAtMs)); // the tree follows

        auto copied = test::whenOpen<ui::KeyNameDialog>([](ui::KeyNameDialog* dialog) {
            dialog->nameField()->setText(QStringLiteral("board:copy"));
            dialog->accept();
            return true;
        });
        finished.clear();
        details()->duplicateKey();
        QVERIFY(*copied);
        QVERIFY(!finished.isEmpty() || finished.wait(10000));
        QCOMPARE(client.command({"ZSCORE", "board:copy", "bob"}), QByteArray("20"));
        QVERIFY(store().isKey(store().find("board:copy")));

        auto renamed = test::whenOpen<ui::KeyNameDialog>([](ui::KeyNameDialog* dialog) {
            dialog->nameField()->setText(QStringLiteral("leaderboard"));
            dialog->accept();
            return true;
        });
        finished.clear();
        details()->renameKey();
        QVERIFY(*renamed);
        QVERIFY(!finished.isEmpty() || finished.wait(10000));
        QCOMPARE(client.integer({"EXISTS", "board"}), 0LL);
        QCOMPARE(client.command({"ZSCORE", "leaderboard", "alice"}), QByteArray("10"));
        QVERIFY(!store().isKey(store().find("board")));
        QVERIFY(store().isKey(store().find("leaderboard")));

        auto created = test::whenOpen<ui::NewKeyDialog>([](ui::NewKeyDialog* dialog) {
            dialog->nameField()->setText(QStringLiteral("queue:jobs"));
            dialog->typeField()->setCurrentIndex(2); // list
            dialog->ttlField()->setText(QStringLiteral("10m"));
            dialog->valueField()->setPlainText(QStringLiteral("first \"second job\"\nthird"));
            dialog->accept();
            return true;
        });
        const std::uint64_t keysBefore = store().keyCount();
        m_window->edits()->createKey();
        QVERIFY(*created);
        QTRY_VERIFY_WITH_TIMEOUT(client.integer({"EXISTS", "queue:jobs"}) == 1, 5000);
        QCOMPARE(client.elements({"LRANGE", "queue:jobs", "0", "-1"}),
                 (std::vector<QByteArray>{"first", "second job", "third"}));
        QVERIFY(client.integer({"PTTL", "queue:jobs"}) > 500'000);
        QTRY_COMPARE(store().keyCount(), keysBefore + 1);
        QCOMPARE(totals("queue").types[std::size_t(keyspace::KeyType::List)], std::uint64_t(1));
    }

    // After Rename… the Findings panel, the status bar and the server count the same keys (the panel said one fewer:
    // the renamed key had dropped out of its count), and the key read back after the rename has no idle time where
    // the scan measured none (it said "idle 0s", from the OBJECT IDLETIME the edit's read-back asked).
    void renamedKeyIsCountedAndItsIdleTimeStaysUnmeasured()
    {
        test::PlainClient client(m_server.port());
        const auto counted = [](const QString& text, const QString& after) {
            // "618 keys", "· 618 keys ·": the figure before "key"/"keys".
            const QRegularExpression figure(after + QStringLiteral("([0-9][0-9,]*) keys?\\b"));
            const QRegularExpressionMatch match = figure.match(text);
            return match.hasMatch() ? match.captured(1).remove(u',').toLongLong() : -1LL;
        };
        ui::FindingsPanel* panel = m_window->findingsPanel();
        const auto agree = [&] {
            const long long dbsize = client.integer({"DBSIZE"});
            return counted(panel->headingText(), QStringLiteral("· ")) == dbsize &&
                   counted(m_window->statusText(), QStringLiteral("^")) == dbsize;
        };
        const auto said = [&]() -> QString {
            return panel->headingText() + QStringLiteral(" | ") + m_window->statusText();
        };
        QTRY_VERIFY2(agree(), qPrintable(said()));
        // A key with a finding (naming-variants) to a name without, one without to one without, and back to a name
        // with findings: each changes the findings and the keys in another way.
        for (const auto& [from, to] : {std::pair<QByteArray, QByteArray>("User_1001", "user:1001"),
                                       std::pair<QByteArray, QByteArray>("keep:3", "keep:renamed"),
                                       std::pair<QByteArray, QByteArray>("keep:4", "KEEP_Four")}) {
            open(from);
            auto renamed = test::whenOpen<ui::KeyNameDialog>([to](ui::KeyNameDialog* dialog) {
                dialog->nameField()->setText(QString::fromUtf8(to));
                dialog->accept();
                return true;
            });
            QSignalSpy finished(details(), &ui::KeyDetailsView::editFinished);
            details()->renameKey();
            QVERIFY(*renamed);
            QVERIFY(!finished.isEmpty() || finished.wait(10000));
            QCOMPARE(client.integer({"EXISTS", to}), 1LL);
            QTRY_VERIFY(store().isKey(store().find(to)));
            QTRY_VERIFY2(agree(), qPrintable(QString::fromUtf8(from) + QStringLiteral(" renamed: ") + said()));
            // The scan asked no idle times (no Measure idle times): the key's Cold cell says so, as its neighbours'.
            models::KeyTreeModel* model = m_window->browser()->treeModel();
            const QModelIndex cold = model->indexOfNode(store().find(to), models::TreeColumns::ColdColumn);
            QVERIFY(cold.isValid());
            QCOMPARE(cold.data().toString(), QStringLiteral("not measured"));
            QVERIFY(!store().keyInfo(store().find(to)).access.hasIdleTime());
        }
    }

    // On a read-only connection the edit controls are disabled and say why: nothing is refused at Save, because
    // nothing can be started.
    void readOnlyConnectionOffersNoEdit()
    {
        scan(true);
        open("profile:1");
        QTRY_VERIFY(details()->isLoaded());
        for (QPushButton* button :
             {details()->addButton(), details()->editElementButton(), details()->removeButton()}) {
            QVERIFY(button->isVisible());
            QVERIFY(!button->isEnabled());
            QVERIFY2(button->toolTip().contains(QStringLiteral("read-only")), qPrintable(button->toolTip()));
        }
        open("cache:1");
        QTRY_VERIFY(details()->isLoaded());
        QVERIFY(!details()->editButton()->isEnabled());
        test::PlainClient client(m_server.port());
        QCOMPARE(client.commandCalls("watch"), 0LL);
    }

    // A key renamed by another client after the pane read it: Add… is a conflict that says the key is gone, no
    // one-field hash appears under the old name, and the pane turns read-only.
    void anEditOfAKeyGoneMeanwhileResurrectsNothing()
    {
        open("profile:1");
        QTRY_VERIFY(details()->isLoaded());
        test::PlainClient client(m_server.port());
        QCOMPARE(client.command({"RENAME", "profile:1", "profile:1:moved"}), QByteArray("OK"));
        auto refusal = std::make_shared<QString>();
        auto added = test::answerElementDialog(QStringLiteral("email"), QStringLiteral("ada@example.org"), refusal);
        QVERIFY(clickAndWaitForEdit(details(), details()->addButton()));
        QVERIFY(*added);
        QVERIFY2(refusal->contains(QStringLiteral("is gone")), qPrintable(*refusal)); // said in the dialog too
        QVERIFY2(details()->editStatus().contains(QStringLiteral("is gone")), qPrintable(details()->editStatus()));
        QVERIFY(!details()->editStatus().contains(QStringLiteral("Saved")));
        QCOMPARE(client.integer({"EXISTS", "profile:1"}), 0LL);
        QCOMPARE(client.integer({"HEXISTS", "profile:1:moved", "email"}), 0LL);
        QVERIFY(details()->isKeyGone());
        QVERIFY(!details()->addButton()->isEnabled());
        QVERIFY(!details()->removeButton()->isEnabled());
    }

    // The Add element dialog of a key deleted on the server meanwhile: the refusal is said beside fields that keep
    // their height (they were squashed to slivers under the message), every line of it in sight, nothing overlapping.
    void addElementDialogOfAGoneKeyLaysOut()
    {
        for (const QByteArray& key : {QByteArray("board"), QByteArray("profile:1")}) {
            open(key);
            test::PlainClient client(m_server.port());
            QCOMPARE(client.integer({"DEL", key}), 1LL);
            auto checked = std::make_shared<QString>();
            auto shown = test::whenOpen<ui::ElementDialog>([checked, key](ui::ElementDialog* dialog) {
                dialog->firstField()->setText(QStringLiteral("member"));
                dialog->secondField()->setText(QStringLiteral("42"));
                dialog->accept();
                test::afterAnswer(dialog, [checked, key](ui::ElementDialog* open) {
                    if (!open) {
                        *checked = QStringLiteral("closed: nothing refused");
                        return;
                    }
                    for (int i = 0; i < 5; ++i) // the layout settles over a few turns
                        QCoreApplication::processEvents();
                    grab(open, QStringLiteral("element-dialog-gone-") + QString::fromUtf8(key).replace(u':', u'-'));
                    QStringList problems;
                    if (!open->problem().contains(QStringLiteral("is gone")))
                        problems << QStringLiteral("says: ") + open->problem();
                    const QList<QWidget*> shownWidgets = open->findChildren<QWidget*>();
                    for (QWidget* widget : shownWidgets) {
                        if (!widget->isVisible() || widget->parentWidget() != open)
                            continue;
                        const QSize least = widget->minimumSizeHint();
                        if (widget->height() < least.height())
                            problems << QStringLiteral("%1 %2 px tall, needs %3")
                                            .arg(QString::fromLatin1(widget->metaObject()->className()))
                                            .arg(widget->height())
                                            .arg(least.height());
                        if (auto* label = qobject_cast<QLabel*>(widget);
                            label && label->wordWrap() && !label->text().isEmpty() &&
                            label->height() < label->heightForWidth(label->width()))
                            problems << QStringLiteral("'%1' %2 px tall, needs %3")
                                            .arg(label->text())
                                            .arg(label->height())
                                            .arg(label->heightForWidth(label->width()));
                        if (!open->rect().contains(widget->geometry()))
                            problems << QStringLiteral("%1 outside the dialog")
                                            .arg(QString::fromLatin1(widget->metaObject()->className()));
                        for (QWidget* other : shownWidgets) {
                            if (other != widget && other->isVisible() && other->parentWidget() == open &&
                                other->geometry().intersects(widget->geometry()))
                                problems << QStringLiteral("%1 over %2")
                                                .arg(QString::fromLatin1(widget->metaObject()->className()),
                                                     QString::fromLatin1(other->metaObject()->className()));
                        }
                    }
                    *checked = problems.isEmpty() ? QStringLiteral("ok") : problems.join(QStringLiteral("; "));
                    open->reject();
                });
                return true;
            });
            QSignalSpy finished(details(), &ui::KeyDetailsView::editFinished);
            details()->addButton()->click();
            QVERIFY(*shown);
            QTRY_VERIFY(!checked->isEmpty());
            QVERIFY2(*checked == QStringLiteral("ok"), qPrintable(QString::fromUtf8(key) + u' ' + *checked));
        }
    }

    // A string deleted by another client while it is edited: Save says it was deleted (not "changed", with an
    // Overwrite that did nothing), writes nothing, and the pane turns read-only; shown again, it offers no Edit.
    void anEditedStringDeletedMeanwhileIsSaidGone()
    {
        open("cache:1");
        QTRY_VERIFY(details()->isLoaded());
        QVERIFY(details()->editButton()->isEnabled());
        details()->editButton()->click();
        details()->valueEditor()->setPlainText(QStringLiteral("mine"));
        test::PlainClient client(m_server.port());
        QCOMPARE(client.integer({"DEL", "cache:1"}), 1LL);
        auto dialog = std::make_shared<QString>();
        auto asked = test::answerNextMessageBox(QStringLiteral("Keep editing"), dialog);
        QVERIFY(clickAndWaitForEdit(details(), details()->saveButton()));
        QTRY_VERIFY2(details()->editStatus().contains(QStringLiteral("was deleted on the server")),
                     qPrintable(details()->editStatus()));
        QVERIFY2(!*asked, qPrintable(*dialog)); // no "changed on the server" dialog
        QCOMPARE(client.integer({"EXISTS", "cache:1"}), 0LL);
        QVERIFY(details()->isKeyGone());
        open("cache:1");
        QTRY_VERIFY(details()->isLoaded());
        QVERIFY(!details()->editButton()->isVisible() || !details()->editButton()->isEnabled());
    }

    // The console keeps the last server's replies below a line that names the next one: output is never mistaken
    // for the new server's. A rescan of the same server adds no line.
    void consoleSaysWhenTheServerChanged()
    {
        ui::ConsoleView* console = m_window->console();
        QSignalSpy replied(console, &ui::ConsoleView::replied);
        QVERIFY(console->runLine(QStringLiteral("PING")));
        QVERIFY(replied.wait(5000));
        const int before = console->output()->topLevelItemCount();
        scan(); // the same server again
        QCOMPARE(console->output()->topLevelItemCount(), before);
        demo::RedisServerProcess other;
        KEYLENS_START_SERVER(other);
        ui::MainWindow::Target target;
        target.options = other.connectionOptions();
        QSignalSpy finished(m_window.get(), &ui::MainWindow::scanFinished);
        m_window->connectTo(target);
        QVERIFY(finished.wait(60000));
        QCOMPARE(console->output()->topLevelItemCount(), before + 1);
        const QString line = console->output()->topLevelItem(before)->text(0);
        QVERIFY2(line.contains(QStringLiteral("go to")) && line.contains(QString::number(other.port())),
                 qPrintable(line));
        scan(); // back, for the tests after this one
    }

    // The console: redis-cli's quoting, replies as trees, history, completion from COMMAND DOCS; the write gate on a
    // read-only connection; a question before a dangerous command on a production one.
    void consoleRunsCommandsThroughTheGate()
    {
        ui::ConsoleView* console = m_window->console();
        QTRY_VERIFY(console->commandNames().contains(QStringLiteral("HGETALL")));
        QVERIFY(console->commandNames().contains(QStringLiteral("FLUSHALL")));
        QSignalSpy replied(console, &ui::ConsoleView::replied);
        QVERIFY(console->runLine(QStringLiteral("SET console:a \"hello world\" EX 100")));
        QVERIFY(replied.wait(5000));
        test::PlainClient client(m_server.port());
        QCOMPARE(client.command({"GET", "console:a"}), QByteArray("hello world"));
        // The tree follows a console write: the keys it named (COMMAND GETKEYS), as they are now.
        QVERIFY(store().isKey(store().find("console:a")));
        QVERIFY(keyspace::hasExpiry(store().keyInfo(store().find("console:a")).expiresAtMs));
        QVERIFY(console->runLine(QStringLiteral("DEL console:a cache:1")));
        QVERIFY(replied.wait(5000));
        QVERIFY(!store().isKey(store().find("console:a")));
        QVERIFY(!store().isKey(store().find("cache:1")));
        QCOMPARE(totals("cache").keys, std::uint64_t(329));
        QVERIFY(console->runLine(QStringLiteral("HGETALL profile:1")));
        QVERIFY(replied.wait(5000));
        QTreeWidgetItem* last = console->output()->topLevelItem(console->output()->topLevelItemCount() - 1);
        QVERIFY(last->text(0).startsWith(QStringLiteral("› HGETALL profile:1")));
        QCOMPARE(last->child(0)->text(0), QStringLiteral("(4 elements)"));
        QCOMPARE(last->child(0)->childCount(), 4);
        // COMMAND DOCS nests deeper than hiredis 0.14 reads: the console's own reader shows it whole.
        QVERIFY(console->runLine(QStringLiteral("COMMAND DOCS")));
        QVERIFY(replied.wait(5000));
        last = console->output()->topLevelItem(console->output()->topLevelItemCount() - 1);
        QVERIFY2(!last->child(0)->text(0).contains(QStringLiteral("error")), qPrintable(last->child(0)->text(0)));
        QVERIFY(last->child(0)->childCount() > 200); // name, docs, name, docs…
        QVERIFY(!console->runLine(QStringLiteral("GET \"unbalanced")));
        QTest::keyClick(console->input(), Qt::Key_Up);
        QCOMPARE(console->input()->text(), QStringLiteral("COMMAND DOCS"));
        QTest::keyClick(console->input(), Qt::Key_Up);
        QCOMPARE(console->input()->text(), QStringLiteral("HGETALL profile:1"));
        QTest::keyClick(console->input(), Qt::Key_Down);
        QCOMPARE(console->input()->text(), QStringLiteral("COMMAND DOCS"));

        console->resize(700, 400);
        grab(console, QStringLiteral("console"));
        // Read-only: the gate refuses the write before it is sent, and the console says so.
        scan(true);
        const long long sets = client.commandCalls("set");
        replied.clear();
        QVERIFY(console->runLine(QStringLiteral("SET console:b 1")));
        QVERIFY(replied.wait(5000));
        last = console->output()->topLevelItem(console->output()->topLevelItemCount() - 1);
        QVERIFY2(last->child(0)->text(0).contains(QStringLiteral("read-only")), qPrintable(last->child(0)->text(0)));
        QCOMPARE(client.commandCalls("set"), sets);
        QCOMPARE(client.integer({"EXISTS", "console:b"}), 0LL);

        // Production: FLUSHALL asks first; declined, nothing is sent.
        scan(false, true);
        const std::uint64_t keys = client.allKeys().size();
        auto declined = test::answerNextMessageBox(QStringLiteral("Cancel"));
        QVERIFY(!console->runLine(QStringLiteral("flushall")));
        QVERIFY(*declined);
        QCOMPARE(client.commandCalls("flushall"), 0LL);
        QCOMPARE(client.allKeys().size(), keys);
        auto accepted = test::answerNextMessageBox(QStringLiteral("Run it"));
        replied.clear();
        QVERIFY(console->runLine(QStringLiteral("KEYS session:1*")));
        QVERIFY(*accepted);
        QVERIFY(replied.wait(5000));
        QCOMPARE(client.commandCalls("keys"), 1LL);
        // Not dangerous: no question.
        replied.clear();
        QVERIFY(console->runLine(QStringLiteral("DBSIZE")));
        QVERIFY(replied.wait(5000));
    }

    void exportsTablesTreeAndValues()
    {
        test::PlainClient client(m_server.port());
        // The root's table: the cache row's keys and memory, against the server's own MEMORY USAGE.
        long long cacheMemory = 0;
        for (const QByteArray& key : client.allKeys("cache:*"))
            cacheMemory += client.integer({"MEMORY", "USAGE", key});
        QString problem;
        const QString csv = m_dir.filePath(QStringLiteral("root.csv"));
        QVERIFY(m_window->browser()->selectPath("cache"));
        QVERIFY2(m_window->exports()->exportNodeTable(csv, false, &problem), qPrintable(problem));
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csvFile.readAll().split('\n');
        QVERIFY(lines.first().startsWith("name,path,is_key,is_namespace,keys,memory_bytes"));
        QCOMPARE(lines.size() - 2, 330); // a row per key below cache:, and the last empty line
        long long sum = 0;
        for (qsizetype i = 1; i + 1 < lines.size(); ++i)
            sum += lines[i].split(',')[5].toLongLong();
        QCOMPARE(sum, cacheMemory);

        QVERIFY(m_window->browser()->selectPath("profile:1"));
        const QString json = m_dir.filePath(QStringLiteral("mixed.json"));
        QVERIFY(m_window->browser()->selectPath("mixed"));
        QVERIFY2(m_window->exports()->exportNodeTable(json, true, &problem), qPrintable(problem));
        QFile jsonFile(json);
        QVERIFY(jsonFile.open(QIODevice::ReadOnly));
        const QJsonObject table = QJsonDocument::fromJson(jsonFile.readAll()).object();
        QCOMPARE(table.value(QStringLiteral("node")).toString(), QStringLiteral("mixed"));
        QCOMPARE(table.value(QStringLiteral("children")).toArray().size(), 5);

        // The whole tree, in the CLI's schema: the same top-level fields, and every key counted.
        const QString tree = m_dir.filePath(QStringLiteral("tree.json"));
        QVERIFY2(m_window->exports()->exportTree(tree, &problem), qPrintable(problem));
        QFile treeFile(tree);
        QVERIFY(treeFile.open(QIODevice::ReadOnly));
        const QJsonObject exported = QJsonDocument::fromJson(treeFile.readAll()).object();
        const test::CliRun cli =
            test::runCli({QStringLiteral("scan"), m_server.uri(), QStringLiteral("--format"), QStringLiteral("json")});
        const QJsonObject fromCli = QJsonDocument::fromJson(cli.out).object();
        QVERIFY(!fromCli.isEmpty());
        for (const QString& field : fromCli.keys())
            QVERIFY2(exported.contains(field), qPrintable(field));
        QCOMPARE(exported.value(QStringLiteral("totals")).toObject().value(QStringLiteral("keys")).toInteger(),
                 client.integer({"DBSIZE"}));

        // Values as JSON lines: each line against the server's own reading, binary bytes in base64.
        const QString values = m_dir.filePath(QStringLiteral("mixed.jsonl"));
        QSignalSpy exportedValues(m_window->exports(), &ui::ExportActions::valuesExported);
        m_window->exports()->exportValues(values);
        QVERIFY(exportedValues.wait(10000));
        QVERIFY2(exportedValues.first().at(1).toBool(), qPrintable(exportedValues.first().at(0).toString()));
        QFile valuesFile(values);
        QVERIFY(valuesFile.open(QIODevice::ReadOnly));
        std::map<QString, QJsonObject> byKey;
        for (const QByteArray& line : valuesFile.readAll().split('\n'))
            if (!line.isEmpty()) {
                const QJsonObject object = QJsonDocument::fromJson(line).object();
                byKey[object.value(QStringLiteral("key")).toString()] = object;
            }
        QCOMPARE(byKey.size(), std::size_t(5));
        const auto base64 = [](const QJsonValue& value) {
            return QByteArray::fromBase64(value.toObject().value(QStringLiteral("base64")).toString().toLatin1());
        };
        QCOMPARE(base64(byKey[QStringLiteral("mixed:bin")].value(QStringLiteral("value"))),
                 client.command({"GET", "mixed:bin"}));
        QVERIFY(byKey[QStringLiteral("mixed:bin")].value(QStringLiteral("ttl_ms")).toDouble() > 800'000);
        QVERIFY(byKey[QStringLiteral("mixed:list")].value(QStringLiteral("ttl_ms")).isNull());
        const QJsonArray list = byKey[QStringLiteral("mixed:list")].value(QStringLiteral("value")).toArray();
        QCOMPARE(list.size(), 3);
        QCOMPARE(list.at(2).toString(), QStringLiteral("a"));
        const QJsonArray set = byKey[QStringLiteral("mixed:set")].value(QStringLiteral("value")).toArray();
        QCOMPARE(set.size(), 2);
        const QJsonArray stream = byKey[QStringLiteral("mixed:stream")].value(QStringLiteral("value")).toArray();
        QCOMPARE(stream.at(0).toObject().value(QStringLiteral("id")).toString(), QStringLiteral("1-1"));
        const QJsonArray fields = stream.at(0).toObject().value(QStringLiteral("fields")).toArray();
        QCOMPARE(base64(fields.at(1).toArray().at(1)), QByteArray("\xc3", 1));
        const QJsonArray zset = byKey[QStringLiteral("mixed:zset")].value(QStringLiteral("value")).toArray();
        QCOMPARE(zset.at(0).toArray().at(1).toDouble(), 1.5);
    }

    // "These 330 cache keys have no TTL": a TTL with jitter on the namespace, the server's PTTLs as the truth, and
    // the tree's TTL totals and missing-ttl findings following at once.
    void expireANamespaceWithJitter()
    {
        QCOMPARE(totals("cache").keysWithTtl, std::uint64_t(0));
        ui::BulkActionDialog* dialog = openBulk("cache", edit::BulkKind::Expire);
        QVERIFY(dialog);
        QVERIFY2(dialog->previewText().contains(QStringLiteral("330 keys in cache:*")),
                 qPrintable(dialog->previewText()));
        QVERIFY2(dialog->changedText().contains(QStringLiteral("None of the 330 keys changed")),
                 qPrintable(dialog->changedText()));
        dialog->ttlField()->setText(QStringLiteral("1h"));
        dialog->jitterField()->setText(QStringLiteral("10m"));
        QVERIFY(!runDialog(dialog, QStringLiteral("cache"))); // the typed confirmation must be exact
        QVERIFY(runDialog(dialog, QStringLiteral("cache:*")));
        QCOMPARE(dialog->summary()->done, std::uint64_t(330));
        grab(dialog, QStringLiteral("bulk-expire"));
        closeDialog(dialog);

        test::PlainClient client(m_server.port());
        for (const QByteArray& key : client.allKeys("cache:*")) {
            const long long pttl = client.integer({"PTTL", key});
            QVERIFY(pttl > 3'500'000 && pttl <= 4'200'000);
        }
        QCOMPARE(totals("cache").keysWithTtl, std::uint64_t(330));
        QCOMPARE(totals("keep").keysWithTtl, std::uint64_t(0));
        const keyspace::NodeId key = store().find("cache:7");
        QVERIFY(!(store().findingRules(key) >> lint::ruleIndex(*lint::findRule("missing-ttl")) & 1));
    }

    void deleteANamespaceWithABackup()
    {
        const std::uint64_t before = store().keyCount();
        const std::size_t onServer = test::PlainClient(m_server.port()).allKeys().size();
        ui::BulkActionDialog* dialog = openBulk("cache", edit::BulkKind::Delete);
        QVERIFY(dialog);
        const QString backup = m_dir.filePath(QStringLiteral("cache.klb"));
        dialog->backupField()->setText(backup);
        QVERIFY(runDialog(dialog, QStringLiteral("cache:*")));
        QCOMPARE(dialog->summary()->done, std::uint64_t(330));
        QVERIFY(dialog->summary()->backupComplete);
        closeDialog(dialog);

        test::PlainClient client(m_server.port());
        QCOMPARE(client.allKeys("cache:*").size(), std::size_t(0));
        QCOMPARE(client.allKeys().size(), onServer - 330);
        edit::BackupReader reader;
        QVERIFY(reader.open(backup).ok());
        std::size_t records = 0;
        while (true) {
            auto record = reader.next();
            QVERIFY(record.ok());
            if (!record->has_value())
                break;
            ++records;
        }
        QCOMPARE(records, std::size_t(330));
        QVERIFY(reader.complete());
        // The tree follows: the namespace is empty, the total lost exactly those keys.
        QCOMPARE(totals("cache").keys, std::uint64_t(0));
        QCOMPARE(store().keyCount(), before - 330);
    }

    void renameANamespace()
    {
        ui::BulkActionDialog* dialog = openBulk("keep", edit::BulkKind::Rename);
        QVERIFY(dialog);
        dialog->prefixField()->setText(QStringLiteral("kept:"));
        dialog->backupField()->setText(m_dir.filePath(QStringLiteral("keep.klb")));
        QVERIFY(runDialog(dialog, QStringLiteral("keep:*")));
        QCOMPARE(dialog->summary()->done, std::uint64_t(20));
        closeDialog(dialog);
        test::PlainClient client(m_server.port());
        QCOMPARE(client.allKeys("keep:*").size(), std::size_t(0));
        QCOMPARE(client.allKeys("kept:*").size(), std::size_t(20));
        QCOMPARE(client.command({"HGET", "kept:3", "f"}), QByteArray("v"));
        QCOMPARE(totals("keep").keys, std::uint64_t(0));
        QCOMPARE(totals("kept").keys, std::uint64_t(20));
        QCOMPARE(totals("kept").types[std::size_t(keyspace::KeyType::Hash)], std::uint64_t(20));
    }

    // A pattern's keys and a finding's keys, acted on as a whole.
    void bulkActionsOnAPatternAndAFinding()
    {
        m_window->browser()->showPatterns(true);
        const models::PatternTreeModel* patterns = m_window->session()->patternModel();
        QTRY_VERIFY(patterns->tree() && !patterns->tree()->isLive()); // the exact tree, not the live folding
        QTRY_VERIFY(m_window->browser()->patternView()->selectPattern("session:<int>"));
        m_window->edits()->openBulkAction(edit::BulkKind::Persist);
        auto* dialog = m_window->findChild<ui::BulkActionDialog*>();
        QVERIFY(dialog);
        QCOMPARE(dialog->selection().size(), std::size_t(40));
        QVERIFY(runDialog(dialog, QStringLiteral("session:<int>")));
        QCOMPARE(dialog->summary()->done, std::uint64_t(40));
        closeDialog(dialog);
        test::PlainClient client(m_server.port());
        for (const QByteArray& key : client.allKeys("session:*"))
            QCOMPARE(client.integer({"PTTL", key}), -1LL);
        m_window->browser()->showPatterns(false);

        const int rule = int(lint::ruleIndex(*lint::findRule("naming-variants")));
        m_window->findingsPanel()->selectRule(rule);
        QCOMPARE(m_window->findingsPanel()->selectedRule(), rule);
        m_window->edits()->openBulkActionOnFinding(edit::BulkKind::Expire);
        dialog = m_window->findChild<ui::BulkActionDialog*>();
        QVERIFY(dialog);
        QCOMPARE(dialog->selection().size(), std::size_t(20));
        dialog->ttlField()->setText(QStringLiteral("30m"));
        QVERIFY(runDialog(dialog, QStringLiteral("naming-variants")));
        closeDialog(dialog);
        for (const QByteArray& key : client.allKeys("User_*"))
            QVERIFY(client.integer({"PTTL", key}) > 1'700'000);
        QCOMPARE(client.integer({"PTTL", "user:7"}), -1LL);
    }

    // naming-variants: a reviewed plan (one row unticked), saved as a redis-cli script and run with the preview.
    void namingVariantsRenamePlan()
    {
        m_window->edits()->planNamingVariantRenames();
        auto* plan = m_window->findChild<ui::RenamePlanDialog*>();
        QVERIFY(plan);
        grab(plan, QStringLiteral("rename-plan"));
        QCOMPARE(plan->table()->rowCount(), 20);
        QCOMPARE(plan->table()->item(0, 0)->text(), QStringLiteral("User_1001"));
        QCOMPARE(plan->table()->item(0, 1)->text(), QStringLiteral("user:1001"));
        plan->table()->item(0, 0)->setCheckState(Qt::Unchecked);
        const QString script = m_dir.filePath(QStringLiteral("variants.redis"));
        QString problem;
        QVERIFY2(plan->saveScript(script, &problem), qPrintable(problem));
        QFile file(script);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QCOMPARE(text.count('\n'), 19);
        QVERIFY(text.startsWith("RENAMENX \"User_1002\" \"user:1002\"\n"));
        QSignalSpy run(plan, &ui::RenamePlanDialog::runRequested);
        Q_EMIT plan->runRequested();
        auto* dialog = m_window->findChild<ui::BulkActionDialog*>();
        QVERIFY(dialog);
        dialog->backupField()->setText(m_dir.filePath(QStringLiteral("variants.klb")));
        QVERIFY(runDialog(dialog, QStringLiteral("naming-variants")));
        QCOMPARE(dialog->summary()->done, std::uint64_t(19));
        closeDialog(dialog);
        plan->close();
        test::PlainClient client(m_server.port());
        QCOMPARE(client.allKeys("User_*"), std::vector<QByteArray>{"User_1001"});
        QCOMPARE(client.command({"GET", "user:1020"}), QByteArray("v"));
        QVERIFY(store().isKey(store().find("user:1020")));
        QVERIFY(!store().isKey(store().find("User_1020")));
    }

    void readOnlyConnectionOffersNothingToRun()
    {
        scan(true);
        ui::BulkActionDialog* dialog = openBulk("session", edit::BulkKind::Persist);
        QVERIFY(dialog);
        QVERIFY(!dialog->confirmation()->isEnabled());
        QVERIFY(!dialog->runButton()->isEnabled());
        closeDialog(dialog);
        test::PlainClient client(m_server.port());
        QCOMPARE(client.commandCalls("persist"), 0LL);
    }
};

QTEST_MAIN(TestEditing)
#include "tst_editing.moc"
