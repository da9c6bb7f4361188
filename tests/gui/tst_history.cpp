// The window over time, against a real server: a scan, then 10,000 keys added to one namespace, one namespace
// deleted, one hash grown and a new namespace written, then a second scan. "Compare with…" lists both scans; the Δ
// columns then say what the test did (keys exactly, memory as MEMORY USAGE summed by the test), the deleted namespace
// is a struck-out row with its old figures, the details say the change, the pattern view has its Δ too, the treemap
// colours growth, and the History tab plots both scans' figures.
// clang-format off
#include "ui/QCustomPlotHeader.h" // first: see there
// clang-format on

#include "DialogAnswers.h"
#include "GrabAtSizes.h"
#include "PlainClient.h"
#include "TestServer.h"
#include "TreeCells.h"
#include "history/ReadSnapshot.h"
#include "history/SnapshotStore.h"
#include "models/KeyTreeModel.h"
#include "models/PatternTreeModel.h"
#include "models/ScanSession.h"
#include "models/SnapshotKeeper.h"
#include "ui/BrowserPane.h"
#include "ui/CompareDialog.h"
#include "ui/EditDialogs.h"
#include "ui/HistoryPane.h"
#include "ui/KeyDetailsView.h"
#include "ui/MainWindow.h"
#include "ui/NamespaceDetailsView.h"
#include "ui/PatternDetailsView.h"
#include "ui/PatternView.h"
#include "ui/TreemapPane.h"
#include "ui/TreemapView.h"

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>

using namespace keylens;
using models::KeyTreeModel;

namespace {

// MEMORY USAGE summed over the keys of a pattern, asked of the server as a scan asks it (its default sampling of
// big collections).
long long memoryOf(test::PlainClient& client, const QByteArray& match)
{
    std::vector<std::vector<QByteArray>> usage;
    for (const QByteArray& key : client.allKeys(match))
        usage.push_back({"MEMORY", "USAGE", key});
    long long sum = 0;
    for (const long long bytes : client.pipelineIntegers(usage))
        sum += bytes;
    return sum;
}

std::size_t keysOf(test::PlainClient& client, const QByteArray& match)
{
    return client.allKeys(match).size();
}

QAction* actionNamed(QWidget& window, const QString& text)
{
    for (QAction* action : window.findChildren<QAction*>()) {
        if (action->text() == text)
            return action;
    }
    return nullptr;
}

} // namespace

class TestHistory : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    QTemporaryDir m_settingsDir;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<ui::MainWindow> m_window;
    // The server's truth, asked by the test: before and after the changes.
    struct Truth
    {
        std::size_t keys = 0;
        long long memory = 0;
    };
    std::map<QByteArray, Truth> m_before;
    std::map<QByteArray, Truth> m_after;
    std::map<QByteArray, Truth> m_keysBefore; // the keys at the top, before the changes
    std::int64_t m_firstScanMs = 0;

    void scan()
    {
        QSignalSpy kept(m_window->session()->snapshots(), &models::SnapshotKeeper::snapshotKept);
        QSignalSpy finished(m_window.get(), &ui::MainWindow::scanFinished);
        ui::MainWindow::Target target;
        target.options = m_server.connectionOptions();
        m_window->connectTo(target);
        QVERIFY(finished.wait(60000));
        QTRY_VERIFY_WITH_TIMEOUT(kept.count() == 1, 30000);
    }

    Truth truthOf(test::PlainClient& client, const QByteArray& name)
    {
        return {keysOf(client, name + ":*"), memoryOf(client, name + ":*")};
    }

    QModelIndex rowNamed(const QString& name)
    {
        KeyTreeModel* model = m_window->browser()->treeModel();
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex index = model->index(row, KeyTreeModel::NameColumn);
            if (index.data().toString() == name)
                return index;
        }
        return {};
    }

    QVariant cell(const QString& name, int column, int role = Qt::DisplayRole)
    {
        const QModelIndex index = rowNamed(name);
        return index.siblingAtColumn(column).data(role);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        // The test mode's data directory is shared with other tests: this one's snapshots start from none.
        QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/snapshots"))
            .removeRecursively();
        KEYLENS_START_SERVER(m_server);
        test::PlainClient client(m_server.port());
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 0; i < 1000; ++i)
            commands.push_back({"SET", "grow:" + QByteArray::number(i), QByteArray(40, 'g')});
        for (int i = 0; i < 500; ++i)
            commands.push_back({"SET", "drop:" + QByteArray::number(i), QByteArray(80, 'd')});
        for (int i = 0; i < 200; ++i)
            commands.push_back({"SET", "keep:" + QByteArray::number(i), QByteArray(60, 'k')});
        for (int i = 0; i < 100; ++i)
            commands.push_back({"HSET", "hash:h", "field" + QByteArray::number(i), QByteArray(30, 'h')});
        // A BullMQ queue: the snapshot labels its namespace with the library.
        commands.push_back({"SET", "bull:emailQueue:id", "3"});
        commands.push_back({"RPUSH", "bull:emailQueue:wait", "3"});
        commands.push_back({"HSET", "bull:emailQueue:meta", "opts.maxLenEvents", "10000"});
        for (int i = 1; i <= 3; ++i)
            commands.push_back({"HSET", "bull:emailQueue:" + QByteArray::number(i), "name", "welcomeMail"});
        // Keys at the top, each a pattern of its own: two left alone, one rewritten bigger, one renamed in the window
        // once compared (keysSayTheirChangeToo).
        commands.push_back({"HSET", "settings", "theme", "dark", "lang", "en"});
        commands.push_back({"SET", "counter", "42"});
        commands.push_back({"SET", "banner", "hello"});
        commands.push_back({"ZADD", "board", "10", "alice", "20", "bob"});
        // Ids that fold into `ids:<int>`, and later a word beside them.
        for (int i = 1; i <= 30; ++i)
            commands.push_back({"SET", "ids:" + QByteArray::number(i), "i"});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
        for (const QByteArray name : {"grow", "drop", "keep", "hash", "bull", "ids"})
            m_before[name] = truthOf(client, name);
        for (const QByteArray key : {"settings", "counter", "banner", "board"})
            m_keysBefore[key] = {1, client.integer({"MEMORY", "USAGE", key})};

        QVERIFY(m_settingsDir.isValid());
        m_settings =
            std::make_unique<QSettings>(m_settingsDir.filePath(QStringLiteral("keylens.ini")), QSettings::IniFormat);
        m_window = std::make_unique<ui::MainWindow>(m_settings.get());
        m_window->resize(1280, 800);
        m_window->show();
        scan();
        m_firstScanMs = m_window->session()->snapshots()->lastSnapshot()->takenAtMs;

        // What the test does between the scans.
        commands.clear();
        for (int i = 1000; i < 11000; ++i)
            commands.push_back({"SET", "grow:" + QByteArray::number(i), QByteArray(40, 'g')});
        for (int i = 0; i < 500; ++i)
            commands.push_back({"DEL", "drop:" + QByteArray::number(i)});
        for (int i = 100; i < 3000; ++i)
            commands.push_back({"HSET", "hash:h", "field" + QByteArray::number(i), QByteArray(30, 'h')});
        for (int i = 0; i < 300; ++i)
            commands.push_back({"SET", "fresh:" + QByteArray::number(i), QByteArray(20, 'f')});
        commands.push_back({"SET", "banner", QByteArray(500, 'b')});
        commands.push_back({"SET", "brandnew", "x"});
        commands.push_back({"SET", "ids:extra", "x"});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
        for (const QByteArray name : {"grow", "drop", "keep", "hash", "fresh", "bull"})
            m_after[name] = truthOf(client, name);
        QCOMPARE(m_after["drop"].keys, std::size_t(0));
        // One second apart at least: snapshots are named by their time.
        QTest::qWait(1100);
        scan();
    }

    // The window's snapshot has what the CLI's has: patterns, and the libraries the linter recognised.
    void snapshotsCarryPatternsAndLibraries()
    {
        const history::Snapshot& taken = *m_window->session()->snapshots()->lastSnapshot();
        const auto pattern =
            std::find_if(taken.patterns.begin(), taken.patterns.end(),
                         [](const history::SnapshotPattern& entry) { return entry.pattern == "grow:<int>"; });
        QVERIFY(pattern != taken.patterns.end());
        QCOMPARE(pattern->stats.keys, std::uint64_t(m_after["grow"].keys));
        QCOMPARE(pattern->stats.memoryBytes, std::uint64_t(m_after["grow"].memory));
        const auto bull =
            std::find_if(taken.namespaces.begin(), taken.namespaces.end(),
                         [](const history::SnapshotNamespace& entry) { return entry.path == "bull:emailQueue:"; });
        QVERIFY(bull != taken.namespaces.end());
        QCOMPARE(bull->library, QByteArray("bullmq"));
        const auto library =
            std::find_if(taken.libraries.begin(), taken.libraries.end(),
                         [](const history::Snapshot::LibraryTotal& entry) { return entry.library == "bullmq"; });
        QVERIFY(library != taken.libraries.end());
        QCOMPARE(library->keys, std::uint64_t(m_after["bull"].keys));
        QCOMPARE(library->memoryBytes, std::uint64_t(m_after["bull"].memory));
    }

    // Compare with…: both scans of this server are listed, newest first, the one on screen marked; the older one is
    // chosen.
    void compareWithTheFirstScan()
    {
        QAction* compare = actionNamed(*m_window, QStringLiteral("Compare &with…"));
        QVERIFY(compare);
        // Both files written (on the writer's thread, after the scans' signals).
        const history::Snapshot& latest = *m_window->session()->snapshots()->lastSnapshot();
        const history::SnapshotStore store(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                                           QStringLiteral("/snapshots"));
        QTRY_COMPARE_WITH_TIMEOUT(store.list(latest.server.address, latest.server.db).size(), std::size_t(2), 10000);
        auto listed = std::make_shared<QStringList>();
        const auto found = test::whenOpen<ui::CompareDialog>([listed](ui::CompareDialog* dialog) {
            auto* list = dialog->findChild<QTreeWidget*>();
            for (int i = 0; list && i < list->topLevelItemCount(); ++i)
                listed->append(list->topLevelItem(i)->text(0));
            if (listed->size() < 2) {
                dialog->reject(); // the test fails below rather than wait on the dialog
                return true;
            }
            list->setCurrentItem(list->topLevelItem(1));
            for (QPushButton* button : dialog->findChildren<QPushButton*>()) {
                if (button->text() == ui::CompareDialog::tr("Compare"))
                    button->click();
            }
            return true;
        });
        QSignalSpy changed(m_window->browser(), &ui::BrowserPane::comparisonChanged);
        compare->trigger();
        QVERIFY(*found);
        QCOMPARE(listed->size(), 2);
        QVERIFY2(listed->at(0).endsWith(ui::CompareDialog::tr(" (this scan)")), qPrintable(listed->join(u'|')));
        QCOMPARE(listed->at(1), ui::CompareDialog::labelOf(m_firstScanMs));
        QCOMPARE(changed.count(), 1);
        QVERIFY(m_window->browser()->comparison());
        QCOMPARE(m_window->browser()->comparison()->baseline().takenAtMs, m_firstScanMs);
        QVERIFY(!m_window->browser()->tree()->header()->isSectionHidden(KeyTreeModel::DeltaKeysColumn));
        QVERIFY(!m_window->browser()->tree()->header()->isSectionHidden(KeyTreeModel::DeltaMemoryColumn));
        auto* banner = m_window->browser()->findChild<QLabel*>(QStringLiteral("comparisonBanner"));
        QVERIFY(banner && banner->isVisible());
        QVERIFY2(banner->text().contains(ui::CompareDialog::labelOf(m_firstScanMs)), qPrintable(banner->text()));
        QVERIFY2(!banner->text().contains(QStringLiteral("⚠")), qPrintable(banner->text())); // same server, no caveat
    }

    // Δ Keys exactly what the test added and deleted; Δ Memory what MEMORY USAGE says changed.
    void deltaColumnsSayWhatTheTestDid()
    {
        for (const QByteArray name : {"grow", "keep", "hash"}) {
            const QString row = QString::fromLatin1(name);
            QVERIFY2(rowNamed(row).isValid(), name.constData());
            QCOMPARE(cell(row, KeyTreeModel::DeltaKeysColumn, KeyTreeModel::SortRole).toLongLong(),
                     qlonglong(m_after[name].keys) - qlonglong(m_before[name].keys));
            QCOMPARE(cell(row, KeyTreeModel::DeltaMemoryColumn, KeyTreeModel::SortRole).toLongLong(),
                     m_after[name].memory - m_before[name].memory);
        }
        QCOMPARE(cell(QStringLiteral("grow"), KeyTreeModel::DeltaKeysColumn).toString(), QStringLiteral("+10,000"));
        QCOMPARE(cell(QStringLiteral("keep"), KeyTreeModel::DeltaKeysColumn).toString(), QStringLiteral("0"));
        QCOMPARE(cell(QStringLiteral("grow"), KeyTreeModel::DeltaKeysColumn, KeyTreeModel::DeltaSignRole).toInt(), 1);
        QCOMPARE(cell(QStringLiteral("keep"), KeyTreeModel::DeltaMemoryColumn, KeyTreeModel::DeltaSignRole).toInt(), 0);
        // New since then: said so, with what it holds now.
        QVERIFY(
            cell(QStringLiteral("fresh"), KeyTreeModel::DeltaKeysColumn).toString().startsWith(QStringLiteral("new")));
        QCOMPARE(cell(QStringLiteral("fresh"), KeyTreeModel::DeltaMemoryColumn, KeyTreeModel::SortRole).toLongLong(),
                 m_after["fresh"].memory);
        // Sorted biggest growth first: the namespace that grew most leads.
        QCOMPARE(m_window->browser()->tree()->header()->sortIndicatorSection(), int(KeyTreeModel::DeltaMemoryColumn));
        QCOMPARE(m_window->browser()->treeModel()->index(0, 0).data().toString(), QStringLiteral("grow"));
    }

    // A key at the top is compared too, by the earlier scan's patterns (a key that is a pattern of its own): one
    // left alone says 0 and 0 B (it was blank, which the Legend says means "not listed"), one rewritten says what
    // MEMORY USAGE says changed, one written since and one renamed in the window say "new". A key the earlier scan
    // counted within a pattern of many (`grow:<int>`) stays blank: it truly was not listed on its own.
    void keysSayTheirChangeToo()
    {
        test::PlainClient client(m_server.port());
        for (const QByteArray key : {"settings", "counter", "banner"}) {
            const QString row = QString::fromLatin1(key);
            QVERIFY2(rowNamed(row).isValid(), key.constData());
            const long long change = client.integer({"MEMORY", "USAGE", key}) - m_keysBefore[key].memory;
            QCOMPARE(cell(row, KeyTreeModel::DeltaKeysColumn).toString(), QStringLiteral("0"));
            QCOMPARE(cell(row, KeyTreeModel::DeltaKeysColumn, KeyTreeModel::SortRole).toLongLong(), 0);
            QCOMPARE(cell(row, KeyTreeModel::DeltaMemoryColumn, KeyTreeModel::SortRole).toLongLong(), change);
            QCOMPARE(cell(row, KeyTreeModel::DeltaMemoryColumn, KeyTreeModel::DeltaSignRole).toInt(), change > 0   ? 1
                                                                                                      : change < 0 ? -1
                                                                                                                   : 0);
            if (key != "banner") { // left alone
                QCOMPARE(change, 0LL);
                QCOMPARE(cell(row, KeyTreeModel::DeltaMemoryColumn).toString(), QStringLiteral("0 B"));
            }
        }
        QVERIFY(cell(QStringLiteral("banner"), KeyTreeModel::DeltaMemoryColumn).toString().startsWith(u'+'));
        QVERIFY2(cell(QStringLiteral("brandnew"), KeyTreeModel::DeltaKeysColumn)
                     .toString()
                     .startsWith(QStringLiteral("new")),
                 qPrintable(cell(QStringLiteral("brandnew"), KeyTreeModel::DeltaKeysColumn).toString()));
        // Counted within `grow:<int>` and `ids:<int>` by the earlier scan: not listed on its own, and the tooltip
        // says why; a word written beside those ids since, which no `<int>` held, is new.
        KeyTreeModel* model = m_window->browser()->treeModel();
        const auto deltaOf = [&](const QByteArray& key) {
            return model->indexOfNode(m_window->session()->keyspace().find(key), KeyTreeModel::DeltaKeysColumn);
        };
        for (const QByteArray key : {"grow:5", "ids:7"}) {
            const QModelIndex folded = deltaOf(key);
            QVERIFY2(folded.isValid(), key.constData());
            QVERIFY2(folded.data().toString().isEmpty(), qPrintable(folded.data().toString()));
            QVERIFY2(folded.data(Qt::ToolTipRole).toString().contains(QStringLiteral("pattern")),
                     qPrintable(folded.data(Qt::ToolTipRole).toString()));
        }
        QCOMPARE(client.integer({"EXISTS", "ids:extra"}), 1LL);
        QVERIFY2(deltaOf("ids:extra").data().toString().startsWith(QStringLiteral("new")),
                 qPrintable(deltaOf("ids:extra").data().toString()));

        // Renamed in the window: a name the earlier scan did not have.
        QCOMPARE(client.integer({"EXISTS", "leaderboard"}), 0LL);
        ui::KeyDetailsView* details = m_window->browser()->keyDetails();
        QVERIFY(m_window->browser()->selectPath("board"));
        QTRY_VERIFY(details->isLoaded() && details->key() == "board");
        auto renamed = test::whenOpen<ui::KeyNameDialog>([](ui::KeyNameDialog* dialog) {
            dialog->nameField()->setText(QStringLiteral("leaderboard"));
            dialog->accept();
            return true;
        });
        QSignalSpy finished(details, &ui::KeyDetailsView::editFinished);
        details->renameKey();
        QVERIFY(*renamed);
        QVERIFY(!finished.isEmpty() || finished.wait(10000));
        QCOMPARE(client.integer({"EXISTS", "leaderboard"}), 1LL);
        QTRY_VERIFY(rowNamed(QStringLiteral("leaderboard")).isValid());
        QVERIFY2(cell(QStringLiteral("leaderboard"), KeyTreeModel::DeltaKeysColumn)
                     .toString()
                     .startsWith(QStringLiteral("new")),
                 qPrintable(cell(QStringLiteral("leaderboard"), KeyTreeModel::DeltaKeysColumn).toString()));
        QCOMPARE(
            cell(QStringLiteral("leaderboard"), KeyTreeModel::DeltaMemoryColumn, KeyTreeModel::SortRole).toLongLong(),
            client.integer({"MEMORY", "USAGE", "leaderboard"}));
        // Its old name, struck out where the window deleted it: gone since, with what the earlier scan measured.
        const QModelIndex board = rowNamed(QStringLiteral("board"));
        QVERIFY(board.isValid() && board.data(Qt::FontRole).value<QFont>().strikeOut());
        QCOMPARE(board.siblingAtColumn(KeyTreeModel::DeltaKeysColumn).data().toString(), QString(QChar(0x2212)) + u'1');
        QCOMPARE(board.siblingAtColumn(KeyTreeModel::DeltaMemoryColumn).data(KeyTreeModel::SortRole).toLongLong(),
                 -m_keysBefore["board"].memory);
        // At 800 px, the Δ columns whole beside the others.
        const QSize size = m_window->size();
        m_window->resize(800, 600);
        QTRY_COMPARE(m_window->size(), QSize(800, 600));
        QTreeView* tree = m_window->browser()->tree();
        const auto problems = [&] {
            return (test::columnsPastTheEdge(tree) + test::cutCells(tree)).join(QStringLiteral("; "));
        };
        QTRY_VERIFY2(problems().isEmpty(), qPrintable(problems()));
        m_window->resize(size);
        test::grabAtSizes(m_window.get(), QStringLiteral("compare-keys"));
    }

    void vanishedNamespaceIsStruckOutWithItsOldFigures()
    {
        const QModelIndex drop = rowNamed(QStringLiteral("drop"));
        QVERIFY(drop.isValid());
        QVERIFY(drop.data(KeyTreeModel::VanishedRole).toBool());
        QVERIFY(drop.data(Qt::FontRole).value<QFont>().strikeOut());
        QCOMPARE(drop.siblingAtColumn(KeyTreeModel::KeysColumn).data().toString(), QStringLiteral("500"));
        QCOMPARE(drop.siblingAtColumn(KeyTreeModel::DeltaKeysColumn).data(KeyTreeModel::SortRole).toLongLong(), -500);
        QCOMPARE(drop.siblingAtColumn(KeyTreeModel::DeltaMemoryColumn).data(KeyTreeModel::SortRole).toLongLong(),
                 -m_before["drop"].memory);
        QCOMPARE(drop.siblingAtColumn(KeyTreeModel::TypeColumn).data().toString(), QStringLiteral("gone"));
        // Last among its siblings by name (sorted by a change, it goes by its change: goneRowsSortByTheirChange).
        KeyTreeModel* model = m_window->browser()->treeModel();
        m_window->browser()->tree()->sortByColumn(KeyTreeModel::NameColumn, Qt::AscendingOrder);
        QCOMPARE(rowNamed(QStringLiteral("drop")).row(), model->rowCount() - 1);
        // Selecting it is selecting no key: the details say nothing, nothing breaks.
        m_window->browser()->tree()->setCurrentIndex(rowNamed(QStringLiteral("drop")));
        QVERIFY(m_window->browser()->selectedNode().isNull());
        m_window->browser()->tree()->sortByColumn(KeyTreeModel::DeltaMemoryColumn, Qt::DescendingOrder);
    }

    // Sorted by a Δ column, the rows go by how much they changed, either way, as keylens-cli diff lists them: the
    // namespace deleted since is not put below those that did not change. The server's figures decide the order.
    void goneRowsSortByTheirChange()
    {
        std::map<QString, long long> change;
        for (const QByteArray name : {"grow", "drop", "keep", "hash", "fresh", "bull"})
            change[QString::fromLatin1(name)] = std::abs(m_after[name].memory - m_before[name].memory);
        QVERIFY(change[QStringLiteral("drop")] > 0 && change[QStringLiteral("keep")] == 0);
        KeyTreeModel* model = m_window->browser()->treeModel();
        const auto shown = [&] {
            std::vector<long long> changes;
            QStringList names;
            for (int row = 0; row < model->rowCount(); ++row) {
                const QString name = model->index(row, KeyTreeModel::NameColumn).data().toString();
                if (change.count(name)) {
                    changes.push_back(change[name]);
                    names << name;
                }
            }
            return std::pair(changes, names.join(u' '));
        };
        for (const Qt::SortOrder order : {Qt::DescendingOrder, Qt::AscendingOrder}) {
            m_window->browser()->tree()->sortByColumn(KeyTreeModel::DeltaMemoryColumn, order);
            const auto [changes, names] = shown();
            QCOMPARE(changes.size(), change.size());
            QVERIFY2(order == Qt::DescendingOrder ? std::is_sorted(changes.rbegin(), changes.rend())
                                                  : std::is_sorted(changes.begin(), changes.end()),
                     qPrintable(names));
        }
        m_window->browser()->tree()->sortByColumn(KeyTreeModel::DeltaMemoryColumn, Qt::DescendingOrder);
        QVERIFY(rowNamed(QStringLiteral("drop")).row() < rowNamed(QStringLiteral("keep")).row());
        test::grabAtSizes(m_window.get(), QStringLiteral("compare-sorted"));
    }

    void detailsSayTheChange()
    {
        QVERIFY(m_window->browser()->selectPath("grow:"));
        const QString change = m_window->browser()->namespaceDetails()->fieldText(QStringLiteral("Change"));
        QVERIFY2(change.contains(QStringLiteral("+10,000 keys")), qPrintable(change));
        QVERIFY2(change.contains(ui::CompareDialog::labelOf(m_firstScanMs)), qPrintable(change));
    }

    void historyPlotsBothScans()
    {
        ui::HistoryPane* history = m_window->browser()->history();
        QTRY_VERIFY_WITH_TIMEOUT(!history->isReading() && history->snapshots() == 2, 10000);
        QVERIFY(m_window->browser()->selectPath("grow:"));
        QCOMPARE(history->points().size(), std::size_t(2));
        QCOMPARE(history->points()[0].keys, std::uint64_t(m_before["grow"].keys));
        QCOMPARE(history->points()[1].keys, std::uint64_t(m_after["grow"].keys));
        QCOMPARE(history->points()[0].memoryBytes, std::uint64_t(m_before["grow"].memory));
        QCOMPARE(history->points()[1].memoryBytes, std::uint64_t(m_after["grow"].memory));
        QCOMPARE(history->points()[0].takenAtMs, m_firstScanMs);
        // What the chart draws: memory (graph 0) and keys (graph 1) at both scans' times, in seconds.
        QCustomPlot* plot = history->plot();
        QCOMPARE(plot->graph(0)->dataCount(), 2);
        QCOMPARE(plot->graph(1)->dataCount(), 2);
        QCOMPARE(plot->graph(0)->data()->at(1)->value, double(m_after["grow"].memory));
        QCOMPARE(plot->graph(1)->data()->at(0)->value, double(m_before["grow"].keys));
        QCOMPARE(plot->graph(1)->data()->at(0)->key, double(m_firstScanMs) / 1000.0);
        QCOMPARE(plot->graph(2)->dataCount(), 0); // no partial scan
        // A key's history is its namespace's; a namespace no longer there has its old point only.
        QVERIFY(m_window->browser()->selectPath("keep:3"));
        QCOMPARE(history->points().size(), std::size_t(2));
        QCOMPARE(history->points()[1].keys, std::uint64_t(m_after["keep"].keys));
        // Nothing selected: the whole keyspace, as DBSIZE said at each scan.
        m_window->browser()->tree()->setCurrentIndex({});
        test::PlainClient client(m_server.port());
        QCOMPARE(history->points().size(), std::size_t(2));
        QCOMPARE(qlonglong(history->points()[1].keys), client.integer({"DBSIZE"}));
        std::size_t before = 0;
        for (const auto& [name, truth] : m_before)
            before += truth.keys;
        for (const auto& [key, truth] : m_keysBefore)
            before += truth.keys;
        QCOMPARE(history->points()[0].keys, std::uint64_t(before));
    }

    void patternViewHasTheDeltaToo()
    {
        ui::BrowserPane* browser = m_window->browser();
        QSignalSpy exact(m_window->session()->patternModel(), &models::PatternTreeModel::exactTreeReady);
        browser->showPatterns(true);
        models::PatternTreeModel* patterns = m_window->session()->patternModel();
        if (!patterns->isExact())
            QVERIFY(exact.wait(30000));
        const std::optional<patterns::PatternTree::PatternId> grow = patterns->tree()->find("grow:<int>");
        QVERIFY(grow);
        const QModelIndex row = patterns->indexOfPattern(*grow, KeyTreeModel::DeltaKeysColumn);
        QCOMPARE(row.data(KeyTreeModel::SortRole).toLongLong(), 10000);
        QCOMPARE(
            patterns->indexOfPattern(*grow, KeyTreeModel::DeltaMemoryColumn).data(KeyTreeModel::SortRole).toLongLong(),
            m_after["grow"].memory - m_before["grow"].memory);
        // A namespace level's row totals its subtree, and so does its Δ: the sum of the patterns below it then.
        const std::optional<patterns::PatternTree::PatternId> level = patterns->tree()->find("grow");
        QVERIFY(level);
        QCOMPARE(
            patterns->indexOfPattern(*level, KeyTreeModel::DeltaKeysColumn).data(KeyTreeModel::SortRole).toLongLong(),
            10000);
        const std::optional<patterns::PatternTree::PatternId> hash = patterns->tree()->find("hash");
        QVERIFY(hash);
        QCOMPARE(
            patterns->indexOfPattern(*hash, KeyTreeModel::DeltaMemoryColumn).data(KeyTreeModel::SortRole).toLongLong(),
            m_after["hash"].memory - m_before["hash"].memory);
        QVERIFY(!browser->patternView()->header()->isSectionHidden(KeyTreeModel::DeltaKeysColumn));
        QVERIFY(browser->patternView()->selectPattern("grow:<int>"));
        QVERIFY(browser->patternDetails()->fieldText(QStringLiteral("Change")).contains(QStringLiteral("+10,000")));
        // The pattern's history: both scans folded it.
        ui::HistoryPane* history = browser->history();
        QCOMPARE(history->points().size(), std::size_t(2));
        QCOMPARE(history->points()[1].keys, std::uint64_t(m_after["grow"].keys));
        browser->showPatterns(false);
    }

    // A namespace deleted since is a struck-out row of the Patterns view too, with the figures the earlier scan had,
    // sorted by its change among the others (the server's figures decide the order), last by name.
    void patternViewListsGonePatterns()
    {
        ui::BrowserPane* browser = m_window->browser();
        models::PatternTreeModel* patterns = m_window->session()->patternModel();
        QSignalSpy exact(patterns, &models::PatternTreeModel::exactTreeReady);
        browser->showPatterns(true);
        if (!patterns->isExact())
            QVERIFY(exact.wait(30000));
        QVERIFY(!patterns->tree()->find("drop"));
        const auto rowNamed = [&](const QString& name) {
            for (int row = 0; row < patterns->rowCount(); ++row) {
                const QModelIndex index = patterns->index(row, KeyTreeModel::NameColumn);
                if (index.data().toString() == name)
                    return index;
            }
            return QModelIndex();
        };
        const QModelIndex drop = rowNamed(QStringLiteral("drop"));
        QVERIFY(drop.isValid());
        QCOMPARE(patterns->kindOf(drop), models::PatternTreeModel::RowKind::Gone);
        QVERIFY(drop.data(KeyTreeModel::VanishedRole).toBool());
        QVERIFY(drop.data(Qt::FontRole).value<QFont>().strikeOut());
        QVERIFY(!patterns->hasChildren(drop));
        QCOMPARE(drop.siblingAtColumn(KeyTreeModel::KeysColumn).data().toString(), QStringLiteral("500"));
        QCOMPARE(drop.siblingAtColumn(KeyTreeModel::DeltaKeysColumn).data(KeyTreeModel::SortRole).toLongLong(), -500);
        QCOMPARE(drop.siblingAtColumn(KeyTreeModel::DeltaMemoryColumn).data(KeyTreeModel::SortRole).toLongLong(),
                 -m_before["drop"].memory);
        QCOMPARE(drop.siblingAtColumn(KeyTreeModel::TypeColumn).data().toString(), QStringLiteral("gone"));

        std::map<QString, long long> change;
        for (const QByteArray name : {"grow", "drop", "keep", "hash", "fresh", "bull"})
            change[QString::fromLatin1(name)] = std::abs(m_after[name].memory - m_before[name].memory);
        for (const Qt::SortOrder order : {Qt::DescendingOrder, Qt::AscendingOrder}) {
            browser->patternView()->sortByColumn(KeyTreeModel::DeltaMemoryColumn, order);
            std::vector<long long> changes;
            QStringList names;
            for (int row = 0; row < patterns->rowCount(); ++row) {
                const QString name = patterns->index(row, KeyTreeModel::NameColumn).data().toString();
                if (change.count(name)) {
                    changes.push_back(change[name]);
                    names << name;
                }
            }
            QCOMPARE(changes.size(), change.size());
            QVERIFY2(order == Qt::DescendingOrder ? std::is_sorted(changes.rbegin(), changes.rend())
                                                  : std::is_sorted(changes.begin(), changes.end()),
                     qPrintable(names.join(u' ')));
        }
        browser->patternView()->sortByColumn(KeyTreeModel::NameColumn, Qt::AscendingOrder);
        QCOMPARE(rowNamed(QStringLiteral("drop")).row(), patterns->rowCount() - 1);
        // Selecting it is selecting nothing of this scan: no pattern, no key.
        browser->patternView()->setCurrentIndex(rowNamed(QStringLiteral("drop")));
        QCOMPARE(browser->selectedPattern(), patterns::PatternTree::Root);
        browser->patternView()->sortByColumn(KeyTreeModel::DeltaMemoryColumn, Qt::DescendingOrder);
        test::grabAtSizes(m_window.get(), QStringLiteral("compare-patterns"));
        browser->showPatterns(false);
    }

    void treemapColoursGrowth()
    {
        ui::TreemapPane* pane = m_window->browser()->treemap();
        QCOMPARE(pane->view()->colouring(), ui::TreemapView::Colouring::Growth);
        m_window->browser()->showTreemap();
        QColor grew, kept;
        const keyspace::Keyspace& store = m_window->session()->keyspace();
        QTRY_VERIFY(!pane->view()->tiles().empty());
        for (const ui::TreemapView::Tile& tile : pane->view()->tiles()) {
            if (tile.depth != 0 || tile.node == keyspace::InvalidNode)
                continue;
            if (tile.node == store.find("grow"))
                grew = pane->view()->colourOf(tile);
            if (tile.node == store.find("keep"))
                kept = pane->view()->colourOf(tile);
        }
        QVERIFY(grew.isValid() && kept.isValid());
        QVERIFY2(grew.red() > grew.green() + 40, qPrintable(grew.name()));           // grew more than tenfold: red
        QVERIFY2(std::abs(kept.red() - kept.green()) < 30, qPrintable(kept.name())); // the same: neutral
    }

    void stopComparing()
    {
        KeyTreeModel* model = m_window->browser()->treeModel();
        const int rows = model->rowCount();
        QAction* stop = actionNamed(*m_window, QStringLiteral("S&top comparing"));
        QVERIFY(stop && stop->isEnabled());
        stop->trigger();
        QVERIFY(!m_window->browser()->comparison());
        QCOMPARE(model->rowCount(), rows - 1); // the vanished row went
        QVERIFY(!rowNamed(QStringLiteral("drop")).isValid());
        models::PatternTreeModel* patterns = m_window->session()->patternModel();
        for (int row = 0; row < patterns->rowCount(); ++row)
            QVERIFY(!patterns->index(row, 0).data(KeyTreeModel::VanishedRole).toBool());
        QVERIFY(m_window->browser()->tree()->header()->isSectionHidden(KeyTreeModel::DeltaKeysColumn));
        QCOMPARE(m_window->browser()->tree()->header()->sortIndicatorSection(), int(KeyTreeModel::MemoryColumn));
        QVERIFY(!stop->isEnabled());
        QVERIFY(cell(QStringLiteral("grow"), KeyTreeModel::DeltaKeysColumn).toString().isEmpty());
        QCOMPARE(m_window->browser()->treemap()->view()->colouring(), ui::TreemapView::Colouring::TopLevel);
    }

    // Another server's scan may be compared with: the banner says so.
    void anotherServersScanIsSaidSo()
    {
        history::Snapshot other = *m_window->session()->snapshots()->lastSnapshot();
        other.server.address = "elsewhere.example:6379";
        other.server.db = 4;
        m_window->browser()->compareWith(std::make_shared<models::Comparison>(other, QStringLiteral("then")));
        auto* banner = m_window->browser()->findChild<QLabel*>(QStringLiteral("comparisonBanner"));
        QVERIFY(banner->isVisible());
        QVERIFY2(banner->text().contains(QStringLiteral("different servers")), qPrintable(banner->text()));
        QVERIFY2(banner->text().contains(QStringLiteral("different databases")), qPrintable(banner->text()));
        // Compared with itself: every namespace the same.
        QCOMPARE(cell(QStringLiteral("grow"), KeyTreeModel::DeltaKeysColumn, KeyTreeModel::SortRole).toLongLong(), 0);
        m_window->browser()->compareWith(nullptr);
        QVERIFY(!banner->isVisible());
    }

    // A file that is no snapshot: a clear error, no comparison.
    void unreadableFileIsRefused()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.kls"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a snapshot at all");
        file.close();
        QString error;
        QVERIFY(!history::readSnapshotOrReport(path, &error));
        QVERIFY2(error.contains(path), qPrintable(error));
    }

    // While a rescan runs, its figures are partial: the Δ waits for its end instead of showing every namespace shrunk.
    void deltaWaitsForTheRescanToEnd()
    {
        history::SnapshotStore store(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                                     QStringLiteral("/snapshots"));
        const history::Snapshot& latest = *m_window->session()->snapshots()->lastSnapshot();
        QString error;
        std::optional<history::Snapshot> first =
            history::readSnapshotOrReport(store.list(latest.server.address, latest.server.db).front().path, &error);
        QVERIFY2(first, qPrintable(error));
        m_window->browser()->compareWith(std::make_shared<models::Comparison>(*first, QStringLiteral("then")));
        KeyTreeModel* model = m_window->browser()->treeModel();
        QSignalSpy finished(m_window.get(), &ui::MainWindow::scanFinished);
        m_window->rescan();
        QCOMPARE(model->deltaOfNode(keyspace::RootNode).kind, models::RowDelta::Pending);
        QVERIFY(finished.wait(60000));
        QTRY_COMPARE(model->deltaOfNode(keyspace::RootNode).kind, models::RowDelta::Compared);
        QCOMPARE(cell(QStringLiteral("grow"), KeyTreeModel::DeltaKeysColumn, KeyTreeModel::SortRole).toLongLong(),
                 10000);
        QVERIFY(rowNamed(QStringLiteral("drop")).data(KeyTreeModel::VanishedRole).toBool());
        m_window->browser()->compareWith(nullptr);
    }

    void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestHistory)
#include "tst_history.moc"
