// Changing keys from the window, against a real server checked by a plain client: bulk actions on a namespace (the
// preview, the typed confirmation, the backup, the run) with the tree following without a rescan.
#include "PlainClient.h"
#include "TestServer.h"
#include "edit/BackupFile.h"
#include "keyspace/SubtreeTotals.h"
#include "lint/Linter.h"
#include "lint/Rules.h"
#include "models/ScanSession.h"
#include "ui/BulkActionDialog.h"
#include "ui/MainWindow.h"

#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace keylens;

class TestEditing : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<ui::MainWindow> m_window;

    void scan(bool readOnly = false)
    {
        ui::MainWindow::Target target;
        target.options = m_server.connectionOptions();
        target.options.readOnly = readOnly;
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
        if (!m_window->selectPath(path))
            return nullptr;
        m_window->openBulkAction(kind);
        auto* dialog = m_window->findChild<ui::BulkActionDialog*>();
        if (dialog) {
            QSignalSpy checked(dialog, &ui::BulkActionDialog::checked);
            checked.wait(10000);
        }
        return dialog;
    }
    static bool runDialog(ui::BulkActionDialog* dialog, const QString& confirmation)
    {
        QSignalSpy done(dialog, &ui::BulkActionDialog::done);
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
        QCOMPARE(client.allKeys().size(), std::size_t(60));
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
