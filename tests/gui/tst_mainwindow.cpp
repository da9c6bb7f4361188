// The real main window, offscreen, against a test server: the tree's top namespaces with the server's
// counts, a 100k-element hash paged in the viewer, a non-UTF-8 key shown escaped and opened, copy and
// delete manners, a dead server, and `keylens --screenshot`.
#include "Deflate.h"
#include "DialogAnswers.h"
#include "GuiRunner.h"
#include "PlainClient.h"
#include "TestServer.h"
#include "history/SnapshotFile.h"
#include "history/SnapshotStore.h"
#include "keyspace/KeyEscape.h"
#include "keyspace/SubtreeTotals.h"
#include "keyspace/Units.h"
#include "models/KeyTreeModel.h"
#include "models/ScanSession.h"
#include "models/SnapshotKeeper.h"
#include "models/ValueTableModel.h"
#include "redis/ServerInfo.h"
#include "ui/BrowserPane.h"
#include "ui/BulkActionDialog.h"
#include "ui/ConnectionDialog.h"
#include "ui/CredentialsDialog.h"
#include "ui/ElidedLabel.h"
#include "ui/KeyDetailsView.h"
#include "ui/KeyFilterBar.h"
#include "ui/MainWindow.h"
#include "ui/NamespaceDetailsView.h"
#include "ui/OverlayColours.h"
#include "ui/PatternView.h"
#include "ui/ScanStatusBar.h"
#include "ui/ServerPanel.h"

#include <QAbstractItemModelTester>
#include <QAbstractItemView>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QCompleter>
#include <QElapsedTimer>
#include <QFrame>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyleOptionHeader>
#include <QStyleOptionViewItem>
#include <QTabBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>

#include <functional>
#include <set>

using namespace keylens;
using models::KeyTreeModel;

namespace {

const QByteArray BinaryKey("bin:\xff\xfe\x00k\x01", 9);

using test::answerNextMessageBox;

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    QTemporaryDir m_settingsDir;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<ui::MainWindow> m_window;

    ui::MainWindow::Target target(bool readOnly = false) const
    {
        ui::MainWindow::Target target;
        target.options = m_server.connectionOptions();
        target.options.readOnly = readOnly;
        return target;
    }

    // Connects the window and waits for the end of its scan (or of its attempt to connect).
    static void scan(ui::MainWindow& window, const ui::MainWindow::Target& target)
    {
        QSignalSpy finished(&window, &ui::MainWindow::scanFinished);
        window.connectTo(target);
        QVERIFY(finished.wait(60000));
    }
    void scan(ui::MainWindow& window, bool readOnly = false) { scan(window, target(readOnly)); }

    static ui::MainWindow::Target targetOf(const redis::ConnectionOptions& options)
    {
        ui::MainWindow::Target target;
        target.options = options;
        return target;
    }

    void selectAndLoad(ui::MainWindow& window, const QByteArray& path)
    {
        QSignalSpy loaded(window.browser()->keyDetails(), &ui::KeyDetailsView::loaded);
        QVERIFY(window.browser()->selectPath(path));
        if (!window.browser()->keyDetails()->isLoaded())
            QVERIFY(loaded.wait(10000));
        QCOMPARE(window.browser()->keyDetails()->key(), path);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // the snapshots go to a test's data directory, not the user's
        KEYLENS_START_SERVER(m_server);
        test::PlainClient client(m_server.port());
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 0; i < 300; ++i)
            commands.push_back({"SET", "alpha:" + QByteArray::number(i), QByteArray(100, 'a')});
        for (int i = 0; i < 200; ++i)
            commands.push_back({"SET", "beta:" + QByteArray::number(i) + ":x", "b", "EX", "3600"});
        for (int i = 0; i < 100; ++i)
            commands.push_back({"SET", "gamma:" + QByteArray::number(i), "g"});
        // A key that is a namespace too.
        commands.push_back({"SET", "gamma:50:meta", "m"});
        // A hash of 100,000 fields, written 1,000 fields per command.
        for (int i = 0; i < 100; ++i) {
            std::vector<QByteArray> hset{"HSET", "big:hash"};
            for (int j = 0; j < 1000; ++j) {
                hset.push_back("field:" + QByteArray::number(i * 1000 + j));
                hset.push_back("value-" + QByteArray::number(i * 1000 + j));
            }
            commands.push_back(std::move(hset));
        }
        // A leaderboard written in no particular order, and a list of 8,000 elements.
        for (int i = 0; i < 3000; ++i)
            commands.push_back(
                {"ZADD", "big:board", QByteArray::number((i * 7919) % 3000 + 0.25), "player-" + QByteArray::number(i)});
        for (int i = 0; i < 8; ++i) {
            std::vector<QByteArray> rpush{"RPUSH", "big:list"};
            for (int j = 0; j < 1000; ++j)
                rpush.push_back("item-" + QByteArray::number(i * 1000 + j));
            commands.push_back(std::move(rpush));
        }
        commands.push_back({"SET", BinaryKey, "binary key, readable value"});
        commands.push_back({"SET", "doc:gz", test::deflateBytes(R"({"compressed":true,"items":[1,2,3]})", 15 + 16)});
        commands.push_back({"SET", "long:" + QByteArray(16 * 1024, 'k'), "a value under a 16 KB name"});
        QCOMPARE(client.pipeline(commands), std::size_t(0));

        QVERIFY(m_settingsDir.isValid());
        m_settings =
            std::make_unique<QSettings>(m_settingsDir.filePath(QStringLiteral("keylens.ini")), QSettings::IniFormat);
        m_window = std::make_unique<ui::MainWindow>(m_settings.get());
        m_window->resize(1280, 800);
        m_window->show();
        scan(*m_window);
    }

    // Keys that use '/' too: the window offers to split on it, and one click scans again on ':/'.
    void suggestsAnotherDelimiter()
    {
        test::PlainClient client(m_server.port());
        std::vector<std::vector<QByteArray>> commands{{"SELECT", "3"}};
        for (int i = 0; i < 80; ++i)
            commands.push_back({"SET", "users/" + QByteArray::number(i) + "/avatar", "a.png"});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
        ui::MainWindow window(m_settings.get());
        window.show();
        ui::MainWindow::Target slashed = target();
        slashed.options.db = 3;
        scan(window, slashed);
        auto* bar = window.findChild<QFrame*>(QStringLiteral("delimiterSuggestion"));
        QVERIFY(bar && bar->isVisible());
        QCOMPARE(window.session()->keyspace().find("users"), keyspace::InvalidNode); // one segment a key on ':'
        QSignalSpy finished(&window, &ui::MainWindow::scanFinished);
        bar->findChild<QPushButton*>()->click();
        QVERIFY(finished.wait(60000));
        const keyspace::Keyspace& store = window.session()->keyspace();
        QCOMPARE(store.delimiters().bytes(), QByteArray(":/"));
        QCOMPARE(store.stats(store.find("users")).keys, std::uint64_t(client.elements({"KEYS", "users/*"}).size()));
        QVERIFY(!bar->isVisible()); // nothing more to suggest
        client.command({"FLUSHDB"});
        window.close();
        m_window->activateWindow(); // the shared window's shortcuts work while it is the active one
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    }

    // Each scan is kept as a snapshot in the data directory's folder of its server and database, with the figures
    // the server gives: what `keylens-cli diff` and the comparisons read.
    void everyScanIsKeptAsASnapshot()
    {
        // Its patterns are added after the scan, on a worker.
        QTRY_VERIFY_WITH_TIMEOUT(m_window->session()->snapshots()->lastSnapshot(), 10000);
        const std::shared_ptr<const history::Snapshot> taken = m_window->session()->snapshots()->lastSnapshot();
        test::PlainClient client(m_server.port());
        QCOMPARE(qint64(taken->totals.keys), client.integer({"DBSIZE"}));
        QVERIFY(taken->complete);
        const auto alpha = std::find_if(taken->namespaces.begin(), taken->namespaces.end(),
                                        [](const history::SnapshotNamespace& entry) { return entry.path == "alpha:"; });
        QVERIFY(alpha != taken->namespaces.end());
        QCOMPARE(alpha->stats.keys, std::uint64_t(300));
        std::vector<std::vector<QByteArray>> usage;
        for (const QByteArray& key : client.allKeys("alpha:*"))
            usage.push_back({"MEMORY", "USAGE", key});
        long long alphaMemory = 0;
        for (const long long bytes : client.pipelineIntegers(usage))
            alphaMemory += bytes;
        QCOMPARE(alpha->stats.memoryBytes, std::uint64_t(alphaMemory));
        std::size_t rulesWithFindings = 0;
        for (const lint::RuleSummary& summary : m_window->session()->linter().summaries()) {
            if (summary.findings == 0)
                continue;
            ++rulesWithFindings;
            const auto kept = std::find_if(taken->findingsByRule.begin(), taken->findingsByRule.end(),
                                           [&](const auto& rule) { return rule.rule == summary.rule->id; });
            QVERIFY(kept != taken->findingsByRule.end());
            QCOMPARE(kept->findings, summary.findings);
        }
        QCOMPARE(taken->findingsByRule.size(), rulesWithFindings);
        // Saved on its own thread: its file appears, and reads back as the one taken.
        const history::SnapshotStore store(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                                           QStringLiteral("/snapshots"));
        QTRY_VERIFY_WITH_TIMEOUT(!store.list(taken->server.address, taken->server.db).empty(), 10000);
        QFile file(store.list(taken->server.address, taken->server.db).back().path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QString error;
        const std::optional<history::Snapshot> read = history::decodeSnapshot(file.readAll(), &error);
        QVERIFY2(read, qPrintable(error));
        QVERIFY(*read == *taken);
    }

    void treeShowsTopNamespacesWithServerCounts()
    {
        KeyTreeModel* model = m_window->browser()->treeModel();
        test::PlainClient client(m_server.port());
        std::map<QString, QString> shown;
        for (int row = 0; row < model->rowCount(); ++row)
            shown[model->index(row, KeyTreeModel::NameColumn).data().toString()] =
                model->index(row, KeyTreeModel::KeysColumn).data().toString();
        for (const char* name : {"alpha", "beta", "gamma", "big", "bin", "doc", "long"}) {
            const std::uint64_t keys = client.allKeys(QByteArray(name) + ":*").size();
            QCOMPARE(shown[QString::fromLatin1(name)], QString::fromUtf8(keyspace::formatCount(keys)));
        }
        QCOMPARE(shown.size(), std::size_t(7));
        // The 100k-field hash is marked big without being opened (its length asked after the scan);
        // a 300-byte string is not.
        const keyspace::Keyspace& keyspace = m_window->session()->keyspace();
        QTRY_VERIFY(model->indexOfNode(keyspace.find("big:hash")).data(KeyTreeModel::OverlayRole).toInt() &
                    KeyTreeModel::BigKey);
        QVERIFY(!(model->indexOfNode(keyspace.find("alpha:1")).data(KeyTreeModel::OverlayRole).toInt() &
                  KeyTreeModel::BigKey));
        // The biggest namespace (the 100k hash) comes first: memory, descending, by default.
        QCOMPARE(model->index(0, 0).data().toString(), QStringLiteral("big"));
        QVERIFY(m_window->statusText().contains(QStringLiteral("scanned in")));
    }

    void hashOf100kElementsPagesInTheViewer()
    {
        selectAndLoad(*m_window, "big:hash");
        QCOMPARE(m_window->browser()->keyDetails()->fieldText(QStringLiteral("Type")), QStringLiteral("hash"));
        QVERIFY(m_window->browser()
                    ->keyDetails()
                    ->fieldText(QStringLiteral("Length"))
                    .startsWith(QStringLiteral("100,000")));
        models::ValueTableModel* table = m_window->browser()->keyDetails()->valueTable();
        // The first page comes alone; the rest only as asked for (the view asks when scrolled).
        QTRY_VERIFY_WITH_TIMEOUT(table->rowCount() > 0 && !table->isLoading(), 10000);
        QVERIFY(table->rowCount() < 100000);
        QVERIFY(!table->isComplete());
        int pages = 1;
        while (!table->isComplete()) {
            QVERIFY(table->canFetchMore({}));
            table->fetchMore({});
            QTRY_VERIFY_WITH_TIMEOUT(!table->isLoading(), 10000);
            ++pages;
        }
        QVERIFY2(pages >= 20, qPrintable(QString::number(pages)));
        // Every field once, each with the server's value.
        std::set<QByteArray> fields;
        test::PlainClient client(m_server.port());
        for (int row = 0; row < table->rowCount(); ++row) {
            const QByteArray field = table->index(row, 0).data(models::ValueTableModel::RawBytesRole).toByteArray();
            fields.insert(field);
            if (row % 5000 == 0)
                QCOMPARE(table->index(row, 1).data(models::ValueTableModel::RawBytesRole).toByteArray(),
                         client.command({"HGET", "big:hash", field}));
        }
        QCOMPARE(fields.size(), std::size_t(client.integer({"HLEN", "big:hash"})));
    }

    // A sorted set reads by score, lowest first and then highest first: row i is the member the server ranks i.
    void sortedSetComesByScoreBothWays()
    {
        selectAndLoad(*m_window, "big:board");
        ui::KeyDetailsView* details = m_window->browser()->keyDetails();
        models::ValueTableModel* table = details->valueTable();
        QVERIFY(details->scoreOrder()->isVisibleTo(details));
        test::PlainClient client(m_server.port());
        for (const int order : {0, 1}) {
            details->scoreOrder()->setCurrentIndex(order);
            QTRY_VERIFY_WITH_TIMEOUT(table->rowCount() > 0 && !table->isLoading(), 10000);
            QCOMPARE(table->query().highestScoreFirst, order == 1);
            for (int row = 0; row < std::min(table->rowCount(), 1200); row += 37) {
                const QByteArray member =
                    table->index(row, 0).data(models::ValueTableModel::RawBytesRole).toByteArray();
                QCOMPARE(client.integer({order == 0 ? "ZRANK" : "ZREVRANK", "big:board", member}), qint64(row));
                QCOMPARE(table->index(row, 1).data(models::ValueTableModel::RawBytesRole).toByteArray().toDouble(),
                         client.command({"ZSCORE", "big:board", member}).toDouble());
            }
        }
        details->scoreOrder()->setCurrentIndex(0);
    }

    // A search inside a collection asks the server (HSCAN MATCH) and finds exactly the fields with the text in
    // their name: the test wrote field:0..field:99999, so "field:4242" is in 11 of them.
    void searchWithinACollection()
    {
        // The table model keeps Qt's model contract through a key's load, a new query and every page after it (the
        // tester fetches on its own: not in the test of paging).
        QAbstractItemModelTester tester(m_window->browser()->keyDetails()->valueTable(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        selectAndLoad(*m_window, "big:hash");
        ui::KeyDetailsView* details = m_window->browser()->keyDetails();
        models::ValueTableModel* table = details->valueTable();
        QVERIFY(details->elementSearch()->isEnabled());
        details->elementSearch()->setText(QStringLiteral("field:4242"));
        QTest::keyClick(details->elementSearch(), Qt::Key_Return);
        QCOMPARE(table->query().match, QByteArray("*field:4242*"));
        while (!table->isComplete()) {
            QTRY_VERIFY_WITH_TIMEOUT(!table->isLoading(), 10000);
            table->fetchMore({});
        }
        std::set<QByteArray> found;
        test::PlainClient client(m_server.port());
        for (int row = 0; row < table->rowCount(); ++row) {
            const QByteArray field = table->index(row, 0).data(models::ValueTableModel::RawBytesRole).toByteArray();
            QVERIFY(field.contains("field:4242"));
            QCOMPARE(table->index(row, 1).data(models::ValueTableModel::RawBytesRole).toByteArray(),
                     client.command({"HGET", "big:hash", field}));
            found.insert(field);
        }
        QCOMPARE(found.size(), std::size_t(11));
        QCOMPARE(details->tableStatus(), QStringLiteral("%1 matches among 100,000 elements").arg(table->rowCount()));
        // Lists cannot be searched on the server: the box says so instead of searching nothing.
        selectAndLoad(*m_window, "big:list");
        QVERIFY(details->elementSearch()->text().isEmpty());
        QVERIFY(!details->elementSearch()->isEnabled());
        QVERIFY(!details->scoreOrder()->isVisibleTo(details));
    }

    // Ctrl+End in a paged collection goes to its real end in one press, not one page per press.
    void ctrlEndReachesTheEnd()
    {
        selectAndLoad(*m_window, "big:list");
        models::ValueTableModel* table = m_window->browser()->keyDetails()->valueTable();
        QTRY_VERIFY_WITH_TIMEOUT(table->rowCount() > 0 && !table->isLoading(), 10000);
        QVERIFY(!table->isComplete());
        QSignalSpy reachedEnd(table, &models::ValueTableModel::reachedEnd);
        QTableView* view = m_window->browser()->keyDetails()->valueView();
        QTest::keyClick(view, Qt::Key_End, Qt::ControlModifier);
        QVERIFY(reachedEnd.count() == 1 || reachedEnd.wait(20000));
        test::PlainClient client(m_server.port());
        QCOMPARE(table->rowCount(), int(client.integer({"LLEN", "big:list"})));
        QVERIFY(table->isComplete());
        QCOMPARE(view->currentIndex().row(), table->rowCount() - 1);
        QCOMPARE(view->currentIndex().siblingAtColumn(1).data(models::ValueTableModel::RawBytesRole).toByteArray(),
                 client.command({"LINDEX", "big:list", "-1"}));
    }

    void binaryKeyIsEscapedAndOpens()
    {
        KeyTreeModel* model = m_window->browser()->treeModel();
        const QModelIndex index = model->indexOfNode(m_window->session()->keyspace().find(BinaryKey));
        QVERIFY(index.isValid());
        QCOMPARE(index.data().toString(), QStringLiteral("\"\\xff\\xfe\\x00k\\x01\"")); // quoted: escapes inside
        selectAndLoad(*m_window, BinaryKey);
        QCOMPARE(m_window->browser()->keyDetails()->fieldText(QStringLiteral("Type")), QStringLiteral("string"));
        QCOMPARE(m_window->browser()->keyDetails()->valueText(), QStringLiteral("binary key, readable value"));

        // Ctrl+C: redis-cli's escaping as text, the exact bytes for programs.
        QTest::keyClick(m_window->browser()->tree(), Qt::Key_C, Qt::ControlModifier);
        const QMimeData* copied = QApplication::clipboard()->mimeData();
        QVERIFY(copied);
        QCOMPARE(copied->text(), QStringLiteral("\"bin:\\xff\\xfe\\x00k\\x01\"")); // as redis-cli reads it
        QCOMPARE(copied->data(QStringLiteral("application/x-redis-key")), BinaryKey);
    }

    void keyOf16KbOpens()
    {
        const QByteArray key = "long:" + QByteArray(16 * 1024, 'k');
        selectAndLoad(*m_window, key);
        QCOMPARE(m_window->browser()->keyDetails()->valueText(), QStringLiteral("a value under a 16 KB name"));
        // Its name wraps in the pane instead of running off it: the pane does not scroll sideways.
        QScrollArea* pane = nullptr;
        for (QWidget* parent = m_window->browser()->keyDetails(); parent && !pane; parent = parent->parentWidget())
            pane = qobject_cast<QScrollArea*>(parent);
        QVERIFY(pane);
        QTRY_COMPARE(pane->horizontalScrollBar()->maximum(), 0);
    }

    void compressedJsonIsShownDecompressedAndPretty()
    {
        selectAndLoad(*m_window, "doc:gz");
        const QString value = m_window->browser()->keyDetails()->valueText();
        QVERIFY2(value.contains(QStringLiteral("\"compressed\": true")), qPrintable(value));
        QVERIFY(value.contains(u'\n'));
    }

    void namespaceShowsAggregatesAndTopKeys()
    {
        QVERIFY(m_window->browser()->selectPath("alpha"));
        ui::NamespaceDetailsView* details = m_window->browser()->namespaceDetails();
        QCOMPARE(details->fieldText(QStringLiteral("Keys")), QStringLiteral("300"));
        test::PlainClient client(m_server.port());
        long long memory = 0;
        for (const QByteArray& key : client.allKeys("alpha:*"))
            memory += client.integer({"MEMORY", "USAGE", key});
        QVERIFY(details->fieldText(QStringLiteral("Memory"))
                    .startsWith(QString::fromUtf8(keyspace::formatBytes(std::uint64_t(memory)))));
        QCOMPARE(details->topKeys()->topLevelItemCount(), ui::NamespaceDetailsView::TopKeyCount);
    }

    void filterShowsOnlyMatches()
    {
        m_window->browser()->setFilterText(QStringLiteral("beta:1?:*"));
        KeyTreeModel* model = m_window->browser()->treeModel();
        QCOMPARE(model->rowCount(), 1);
        QCOMPARE(model->filterMatches(), std::uint64_t(10));
        // The namespace's details are the matching keys' figures, against the server's own MEMORY USAGE.
        QVERIFY(m_window->browser()->selectPath("beta"));
        ui::NamespaceDetailsView* details = m_window->browser()->namespaceDetails();
        QCOMPARE(details->fieldText(QStringLiteral("Keys")), QStringLiteral("10 of 200 match the filter"));
        test::PlainClient client(m_server.port());
        long long memory = 0;
        for (const QByteArray& key : client.allKeys("beta:1?:*"))
            memory += client.integer({"MEMORY", "USAGE", key});
        const QString shown = details->fieldText(QStringLiteral("Memory"));
        QVERIFY2(shown.startsWith(QString::fromUtf8(keyspace::formatBytes(std::uint64_t(memory)))), qPrintable(shown));
        m_window->browser()->setFilterText(QString());
        QCOMPARE(model->rowCount(), 7);
    }

    // Finding one key: an exact key typed into the filter opens its ancestors, selects it and shows it; a prefix
    // and a glob say so beside the box; case counts unless told not to (as SCAN MATCH); a namespace row under a
    // filter says how many of its keys match.
    void goToKeyAndFilterModes()
    {
        ui::KeyFilterBar* bar = m_window->browser()->filterBar();
        KeyTreeModel* model = m_window->browser()->treeModel();
        m_window->browser()->setFilterText(QStringLiteral("beta:17:x"));
        QCOMPARE(bar->modeButton()->text(), QStringLiteral("exact key (auto)"));
        QCOMPARE(model->filterMatches(), std::uint64_t(1));
        QCOMPARE(bar->info(), QStringLiteral("1 matching key"));
        const QModelIndex current = m_window->browser()->tree()->currentIndex();
        QCOMPARE(current.data(KeyTreeModel::PathRole).toByteArray(), QByteArray("beta:17:x"));
        for (QModelIndex parent = current.parent(); parent.isValid(); parent = parent.parent())
            QVERIFY(m_window->browser()->tree()->isExpanded(parent));
        QVERIFY(m_window->browser()->tree()->visualRect(current).intersects(
            m_window->browser()->tree()->viewport()->rect()));

        // A prefix: beta:1, beta:10 … beta:19; the namespace says 11 of its 200.
        test::PlainClient client(m_server.port());
        const auto serverCount = [&](const QByteArray& glob) { return std::uint64_t(client.allKeys(glob).size()); };
        m_window->browser()->setFilterText(QStringLiteral("beta:1"));
        QCOMPARE(bar->modeButton()->text(), QStringLiteral("prefix (auto)"));
        QCOMPARE(model->filterMatches(), serverCount("beta:1*"));
        const QModelIndex beta = model->index(0, KeyTreeModel::KeysColumn);
        QCOMPARE(beta.siblingAtColumn(0).data().toString(), QStringLiteral("beta"));
        QCOMPARE(beta.data().toString(),
                 QStringLiteral("%1 of %2").arg(serverCount("beta:1*")).arg(serverCount("beta:*")));
        // Memory (and the share of the parent) follow the filter too: the matching keys' memory, as the server
        // measures it.
        long long matchingMemory = 0;
        for (const QByteArray& key : client.allKeys("beta:1*"))
            matchingMemory += client.integer({"MEMORY", "USAGE", key});
        QCOMPARE(beta.siblingAtColumn(KeyTreeModel::MemoryColumn).data().toString(),
                 QString::fromUtf8(keyspace::formatBytes(std::uint64_t(matchingMemory))));
        QCOMPARE(bar->info(), QStringLiteral("%1 matching keys").arg(serverCount("beta:1*")));

        // A glob, case as typed; then ignoring case.
        m_window->browser()->setFilterText(QStringLiteral("BETA:1?:*"));
        QCOMPARE(bar->modeButton()->text(), QStringLiteral("glob (auto)"));
        QCOMPARE(model->filterMatches(), std::uint64_t(0));
        bar->setIgnoreCase(true);
        QCOMPARE(model->filterMatches(), serverCount("beta:1?:*"));
        bar->setIgnoreCase(false);

        // Ctrl+L: go to a key, exactly; a glob character is then part of the name.
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        QTest::keyClick(m_window->browser()->tree(), Qt::Key_L, Qt::ControlModifier);
        QVERIFY(bar->edit()->hasFocus());
        QCOMPARE(bar->modeButton()->text(), QStringLiteral("exact key"));
        QCOMPARE(model->filterMatches(), std::uint64_t(0)); // no key is named BETA:1?:*
        // Ctrl+F afterwards filters again as auto does: the glob matches what it matched before Ctrl+L.
        bar->setIgnoreCase(true);
        QTest::keyClick(m_window->browser()->tree(), Qt::Key_F, Qt::ControlModifier);
        QCOMPARE(bar->modeButton()->text(), QStringLiteral("glob (auto)"));
        QCOMPARE(model->filterMatches(), serverCount("beta:1?:*"));
        bar->setIgnoreCase(false);
        m_window->browser()->setFilterText(QString());
        QCOMPARE(bar->info(), QString());

        // A new connection starts unfiltered, in auto mode: the last server's filter hides nothing of this one.
        m_window->browser()->setFilterText(QStringLiteral("gamma:"));
        bar->setMode(keyspace::FilterMode::Exact);
        demo::RedisServerProcess other;
        KEYLENS_START_SERVER(other);
        QCOMPARE(test::fillStringKeys(other.port(), 50, 0, "delta:"), std::size_t(0));
        scan(*m_window, targetOf(other.connectionOptions()));
        QCOMPARE(bar->text(), QString());
        QVERIFY2(bar->modeButton()->text().endsWith(QStringLiteral("(auto)")), qPrintable(bar->modeButton()->text()));
        QCOMPARE(bar->info(), QString());
        QCOMPARE(model->rowCount(), 1); // delta
        scan(*m_window);
        QVERIFY(model->rowCount() >= 4);

        // The details follow the filter: a key it hides is no longer shown.
        selectAndLoad(*m_window, "gamma:7");
        QVERIFY(m_window->browser()->keyDetails()->isVisible());
        m_window->browser()->setFilterText(QStringLiteral("alpha:"));
        QVERIFY(!m_window->browser()->tree()->currentIndex().isValid());
        QVERIFY(!m_window->browser()->keyDetails()->isVisible());
        m_window->browser()->setFilterText(QString());
    }

    // The memory bar's colour is the row's share of the whole keyspace, not of its parent: `doc:gz`, the only child
    // of `doc`, fills its bar (100% of doc) in the pale colour of its small share of the server's memory, and
    // the figure is drawn beside the bar, not across it.
    void heatAtASingleChildNamespace()
    {
        KeyTreeModel* model = m_window->browser()->treeModel();
        const keyspace::Keyspace& store = m_window->session()->keyspace();
        const QModelIndex gz = model->indexOfNode(store.find("doc:gz"), KeyTreeModel::MemoryColumn);
        QVERIFY(gz.isValid());
        QCOMPARE(gz.data(KeyTreeModel::MemoryFractionRole).toDouble(), 1.0);
        test::PlainClient client(m_server.port());
        // MEMORY USAGE as the scan asks it: with the server's default sampling of big collections.
        long long total = 0;
        for (const QByteArray& key : client.allKeys("*"))
            total += client.integer({"MEMORY", "USAGE", key});
        const double share = double(client.integer({"MEMORY", "USAGE", "doc:gz"})) / double(total);
        QVERIFY(std::abs(gz.data(KeyTreeModel::MemoryOfTotalRole).toDouble() - share) < 1e-9);
        QVERIFY(share < 0.01);

        // Painted: the bar's first pixel is the small share's colour, far from the red of a big one.
        QTreeView* tree = m_window->browser()->tree();
        QStyleOptionViewItem option;
        option.initFrom(tree->viewport());
        option.rect = QRect(0, 0, 140, 20);
        option.state &= ~QStyle::State_Selected;
        const auto paintCell = [&](const std::function<void(QPainter&)>& paint) {
            QImage image(140, 20, QImage::Format_ARGB32_Premultiplied);
            image.fill(option.palette.color(QPalette::Base));
            QPainter painter(&image);
            paint(painter);
            return image;
        };
        const QImage cell = paintCell([&](QPainter& painter) { tree->itemDelegate()->paint(&painter, option, gz); });
        const auto swatch = [&](double ofTotal) {
            return paintCell([&](QPainter& painter) {
                       painter.fillRect(option.rect, ui::overlay::memoryHeat(ofTotal, option.palette));
                   })
                .pixelColor(10, 10);
        };
        QCOMPARE(cell.pixelColor(10, 10), swatch(share));
        QVERIFY(cell.pixelColor(10, 10) != swatch(0.5));
        // The bar ends before the figure: the cell's right part, under the text's start, is no bar.
        const int textLeft = 140 - 6 - option.fontMetrics.horizontalAdvance(gz.data().toString());
        QCOMPARE(cell.pixelColor(textLeft - 4, 4), option.palette.color(QPalette::Base));
    }

    // The scan's controls are in the connection bar, labelled; the status bar does not repeat them as bare icons.
    // Its one button, the scan's notices, says what it is in words.
    void statusBarHasNoUnlabelledButtons()
    {
        const QList<QToolButton*> buttons = m_window->statusBar()->findChildren<QToolButton*>();
        QVERIFY(buttons.size() <= 1);
        for (const QToolButton* button : buttons) {
            QCOMPARE(button->objectName(), QStringLiteral("scanNotices"));
            QCOMPARE(button->toolButtonStyle(), Qt::ToolButtonTextOnly);
        }
    }

    // Too long for the window, the status line ends in an ellipsis and its tooltip holds all of it: it never cuts a
    // word at the window's edge ("2 vanished during the s"), nor holds the window wider than its text.
    void aLongStatusLineEndsInAnEllipsis()
    {
        ui::ScanStatusBar bar;
        scan::ScanSummary summary;
        summary.complete = true;
        summary.durationMs = 15'000;
        summary.keysSeen = 299'683;
        summary.vanished = 2;
        summary.keysInFlight = 7;
        bar.showFinished(summary, 299'681, 48'000'000);
        const QString line = bar.text();
        QVERIFY2(line.endsWith(QStringLiteral("7 not inspected when the scan stopped")), qPrintable(line));
        auto* label = bar.findChild<ui::ElidedLabel*>();
        QVERIFY(label);

        bar.resize(bar.sizeHint().width() + 100, bar.sizeHint().height());
        bar.show();
        QVERIFY(QTest::qWaitForWindowExposed(&bar));
        QTRY_COMPARE(label->text(), line);
        QVERIFY(label->toolTip().isEmpty());

        bar.resize(300, bar.height());
        QTRY_VERIFY(label->text() != line);
        QVERIFY2(label->text().endsWith(QChar(0x2026)), qPrintable(label->text()));
        QVERIFY(line.startsWith(label->text().chopped(1)));
        QVERIFY(label->fontMetrics().horizontalAdvance(label->text()) <= label->contentsRect().width());
        QCOMPARE(label->toolTip(), line);
        QCOMPARE(bar.text(), line); // what the window reports is the whole line
        QVERIFY(bar.minimumSizeHint().width() < 300);

        bar.resize(bar.sizeHint().width() + 100, bar.height());
        QTRY_COMPARE(label->text(), line);
        QVERIFY(label->toolTip().isEmpty());
    }

    // Long names keep their distinctive end: both trees and the value table elide in the middle.
    void longNamesElideInTheMiddle()
    {
        QCOMPARE(m_window->browser()->tree()->textElideMode(), Qt::ElideMiddle);
        QCOMPARE(static_cast<QTreeView*>(m_window->browser()->patternView())->textElideMode(), Qt::ElideMiddle);
        QCOMPARE(m_window->browser()->keyDetails()->valueView()->textElideMode(), Qt::ElideMiddle);
    }

    // Biggest first, the Memory header's arrow points down (Qt's header asks its style for an up arrow there).
    void descendingSortPointsDown()
    {
        QHeaderView* header = m_window->browser()->tree()->header();
        QCOMPARE(header->sortIndicatorSection(), int(KeyTreeModel::MemoryColumn));
        QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);
        const auto arrow = [&](QStyle* style, QStyleOptionHeader::SortIndicator indicator) {
            QStyleOptionHeader option;
            option.initFrom(header);
            option.rect = QRect(0, 0, 16, 16);
            option.sortIndicator = indicator;
            QImage image(16, 16, QImage::Format_ARGB32_Premultiplied);
            image.fill(Qt::white);
            QPainter painter(&image);
            style->drawPrimitive(QStyle::PE_IndicatorHeaderArrow, &option, &painter, header);
            return image;
        };
        // What QHeaderView asks for a descending sort, drawn by the tree's header: the plain style's down arrow.
        QCOMPARE(arrow(header->style(), QStyleOptionHeader::SortUp),
                 arrow(QApplication::style(), QStyleOptionHeader::SortDown));
        QVERIFY(arrow(header->style(), QStyleOptionHeader::SortUp) !=
                arrow(QApplication::style(), QStyleOptionHeader::SortUp));
    }

    // At 800 px the filter is in view, wide enough to type in, and Ctrl+F reaches it from the tree.
    void filterAtEightHundredPixels()
    {
        m_window->resize(800, 600);
        QTRY_COMPARE(m_window->width(), 800);
        ui::KeyFilterBar* bar = m_window->browser()->filterBar();
        QVERIFY(bar->edit()->isVisible());
        QVERIFY(bar->edit()->width() >= 150);
        QVERIFY(bar->edit()->mapTo(m_window.get(), QPoint(bar->edit()->width(), 0)).x() <= m_window->width());
        // The toolbar keeps Keys and Patterns on screen, with a name as long as the demo's in the connection bar
        // (its other buttons then show only their icons).
        {
            ui::MainWindow narrow(m_settings.get());
            ui::MainWindow::Target named = target();
            named.name = QStringLiteral("Demo server (127.0.0.1:65535)");
            narrow.connectTo(named);
            narrow.resize(800, 600);
            narrow.show();
            QTRY_COMPARE(narrow.width(), 800);
            for (const QString& text : {QStringLiteral("Keys"), QStringLiteral("Patterns"), QStringLiteral("Rescan")}) {
                const QList<QToolButton*> buttons = narrow.findChildren<QToolButton*>();
                const bool onScreen = std::any_of(buttons.begin(), buttons.end(), [&](QToolButton* button) {
                    return button->defaultAction() && button->defaultAction()->text().remove(u'&') == text &&
                           button->isVisible() &&
                           button->mapTo(&narrow, QPoint(button->width(), 0)).x() <= narrow.width();
                });
                QVERIFY2(onScreen, qPrintable(text));
            }
        }
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        QTest::keyClick(m_window->browser()->tree(), Qt::Key_F, Qt::ControlModifier);
        QVERIFY(bar->edit()->hasFocus());
        QTest::keyClicks(bar->edit(), QStringLiteral("alph"));
        // The completion offers the namespace (picked with Return, it offers its keys next: Escape closes that).
        QVERIFY(bar->completer()->popup()->isVisible());
        QCOMPARE(bar->completer()->currentCompletion(), QStringLiteral("alpha:"));
        QTest::keyClick(bar->completer()->popup(), Qt::Key_Down);
        QTest::keyClick(bar->completer()->popup(), Qt::Key_Return);
        QCOMPARE(bar->text(), QStringLiteral("alpha:"));
        if (bar->completer()->popup()->isVisible())
            QTest::keyClick(bar->completer()->popup(), Qt::Key_Escape);
        QTest::keyClick(bar->edit(), Qt::Key_Return);
        QVERIFY(!bar->completer()->popup()->isVisible());
        test::PlainClient client(m_server.port());
        QCOMPARE(m_window->browser()->treeModel()->filterMatches(), std::uint64_t(client.allKeys("alph*").size()));
        m_window->browser()->setFilterText(QString());
        m_window->resize(1280, 800);
    }

    // Columns give way to the width: at 900 px every column is on screen (TTL and Type were cut off), the type
    // keeps the most of its width; at 1600 px the name takes the room and the others (but the share of the parent)
    // their usual widths.
    void columnsGiveWayToTheWidth()
    {
        QTreeView* tree = m_window->browser()->tree();
        QHeaderView* header = tree->header();
        using models::TreeColumns;
        const auto rightEdge = [&] {
            int edge = 0;
            for (int column = 0; column < header->count(); ++column) {
                if (!header->isSectionHidden(column)) // (a hidden one's position is past the others')
                    edge = std::max(edge, header->sectionViewportPosition(column) + header->sectionSize(column));
            }
            return edge;
        };
        m_window->resize(900, 600);
        QTRY_COMPARE(m_window->width(), 900);

        QTRY_VERIFY2(rightEdge() <= tree->viewport()->width(),
                     qPrintable(QStringLiteral("%1 > %2").arg(rightEdge()).arg(tree->viewport()->width())));
        QVERIFY2(tree->viewport()->width() < 900 * 7 / 10, "the tree is narrower than its columns want");
        for (int column = 0; column < header->count(); ++column)
            QVERIFY(header->isSectionHidden(column) || header->sectionSize(column) >= 56);
        QVERIFY(header->sectionSize(TreeColumns::NameColumn) >= 150);
        // The share of the parent, which the memory bar's length shows too, made room first.
        QVERIFY(header->isSectionHidden(TreeColumns::ShareColumn));
        // The type gave way last: the others are down to their least widths, it keeps more than its own (90).
        QCOMPARE(header->sectionSize(TreeColumns::FindingsColumn), 56);
        QCOMPARE(header->sectionSize(TreeColumns::KeysColumn), 56);
        QCOMPARE(header->sectionSize(TreeColumns::TtlColumn), 80);
        QCOMPARE(header->sectionSize(TreeColumns::MemoryColumn), 116);
        QVERIFY(header->sectionSize(TreeColumns::TypeColumn) > 90);
        // Nor does the details pane scroll sideways: long values wrap (a namespace's type mix did not).
        QVERIFY(m_window->browser()->selectPath("big"));
        QScrollArea* details = nullptr;
        for (QWidget* parent = m_window->browser()->namespaceDetails(); parent && !details;
             parent = parent->parentWidget())
            details = qobject_cast<QScrollArea*>(parent);
        QVERIFY(details);
        QTRY_COMPARE(details->horizontalScrollBar()->maximum(), 0);

        m_window->resize(1600, 800);
        QTRY_COMPARE(m_window->width(), 1600);
        QTRY_COMPARE(rightEdge(), tree->viewport()->width());
        QVERIFY2(header->sectionSize(TreeColumns::NameColumn) > 220,
                 qPrintable(QStringLiteral("%1 of %2")
                                .arg(header->sectionSize(TreeColumns::NameColumn))
                                .arg(tree->viewport()->width())));
        // The share of the parent (which the bar shows) still gives way, to the cold memory (which nothing else in
        // the row shows).
        QVERIFY(!header->isSectionHidden(TreeColumns::ColdColumn));
        QCOMPARE(header->sectionSize(TreeColumns::TypeColumn), 200);
        QCOMPARE(header->sectionSize(TreeColumns::MemoryColumn), 170);
        m_window->resize(1280, 800);
    }

    // The count beside the filter follows a scan: keys that arrive match too.
    void filterCountFollowsTheScan()
    {
        test::PlainClient client(m_server.port());
        QCOMPARE(client.pipeline({{"SET", "alpha:extra", "x"}}), std::size_t(0));
        m_window->browser()->setFilterText(QStringLiteral("alpha:"));
        // At every publish, not only at the end, the count says what the tree has.
        QStringList stale;
        const QMetaObject::Connection watch = connect(m_window->session(), &models::ScanSession::published, this, [&] {
            const QString expected =
                QStringLiteral("%1 matching keys").arg(m_window->browser()->treeModel()->filterMatches());
            if (m_window->browser()->filterBar()->info() != expected)
                stale << m_window->browser()->filterBar()->info() + QStringLiteral(" for ") + expected;
        });
        scan(*m_window);
        disconnect(watch);
        QCOMPARE(stale, QStringList());
        const auto expected = client.allKeys("alpha:*").size();
        QCOMPARE(m_window->browser()->filterBar()->info(), QStringLiteral("%1 matching keys").arg(expected));
        QCOMPARE(client.pipeline({{"DEL", "alpha:extra"}}), std::size_t(0));
        m_window->browser()->setFilterText(QString());
        scan(*m_window);
    }

    void deleteAsksFirstAndRespectsReadOnly()
    {
        test::PlainClient client(m_server.port());
        // Cancel in the confirmation: nothing happens.
        QVERIFY(m_window->browser()->selectPath("gamma:1"));
        m_window->activateWindow(); // the filter's completion popup, earlier, took the activation with it
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        auto cancelled = answerNextMessageBox(QStringLiteral("Cancel"));
        QTest::keyClick(m_window->browser()->tree(), Qt::Key_Delete);
        QTRY_VERIFY(*cancelled);
        QTest::qWait(300);
        QCOMPARE(client.integer({"EXISTS", "gamma:1"}), 1LL);
        // Delete in the confirmation: UNLINK, and the row says so. (The closed box took the focus with it.)
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        auto confirmed = answerNextMessageBox(QStringLiteral("Delete"));
        QTest::keyClick(m_window->browser()->tree(), Qt::Key_Delete);
        QTRY_VERIFY(*confirmed);
        QTRY_COMPARE_WITH_TIMEOUT(client.integer({"EXISTS", "gamma:1"}), 0LL, 5000);
        const QModelIndex deleted =
            m_window->browser()->treeModel()->indexOfNode(m_window->session()->keyspace().find("gamma:1"));
        QTRY_VERIFY(deleted.data(KeyTreeModel::OverlayRole).toInt() & KeyTreeModel::Deleted);

        // A read-only connection never deletes: its banner shows, Delete asks nothing, and the write gate's refusal
        // is what the user reads. The server never saw a second UNLINK.
        const long long unlinks = client.commandCalls("unlink");
        QVERIFY(unlinks >= 1);
        ui::MainWindow readOnly(m_settings.get());
        readOnly.show();
        scan(readOnly, true);
        QVERIFY(readOnly.findChild<QLabel*>(QStringLiteral("readOnlyBanner"))->isVisible());
        QVERIFY(!m_window->findChild<QLabel*>(QStringLiteral("readOnlyBanner"))->isVisible());
        QVERIFY(readOnly.browser()->selectPath("gamma:2"));
        readOnly.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&readOnly));
        auto said = std::make_shared<QString>();
        auto refused = answerNextMessageBox(QStringLiteral("OK"), said);
        QTest::keyClick(readOnly.browser()->tree(), Qt::Key_Delete);
        QTRY_VERIFY_WITH_TIMEOUT(*refused, 10000);
        QVERIFY2(said->contains(QStringLiteral("read-only: UNLINK was not sent")), qPrintable(*said));
        QCOMPARE(client.commandCalls("unlink"), unlinks);
        QCOMPARE(client.integer({"EXISTS", "gamma:2"}), 1LL);
    }

    // A key that is a namespace too: a KEY tag, "1 + 1" keys ("1 key + 1 below"), a tab for the key's value and
    // one for the namespace; Delete deletes only the key and says so, and on a namespace says what it would do.
    void keyAndNamespaceRows()
    {
        KeyTreeModel* model = m_window->browser()->treeModel();
        const keyspace::Keyspace& store = m_window->session()->keyspace();
        const QModelIndex row = model->indexOfNode(store.find("gamma:50"), KeyTreeModel::KeysColumn);
        QVERIFY(row.isValid());
        QVERIFY(row.data(KeyTreeModel::OverlayRole).toInt() & KeyTreeModel::KeyAndNamespace);
        QVERIFY(!(model->indexOfNode(store.find("gamma:51")).data(KeyTreeModel::OverlayRole).toInt() &
                  KeyTreeModel::KeyAndNamespace));
        test::PlainClient client(m_server.port());
        const auto below = client.allKeys("gamma:50:*").size();
        QCOMPARE(row.data().toString(), QStringLiteral("1 + %1").arg(below));
        QVERIFY(row.data(Qt::ToolTipRole).toString().contains(QStringLiteral("1 key + %1 below").arg(below)));

        selectAndLoad(*m_window, "gamma:50");
        QTabBar* tabs = m_window->browser()->detailsSwitch();
        QVERIFY(tabs->isVisible());
        QCOMPARE(tabs->tabText(1), QStringLiteral("Namespace (%1 below)").arg(below));
        tabs->setCurrentIndex(0);
        QVERIFY(m_window->browser()->showsKeyDetails());
        QCOMPARE(m_window->browser()->keyDetails()->valueText(),
                 QString::fromUtf8(client.command({"GET", "gamma:50"})));
        tabs->setCurrentIndex(1);
        QVERIFY(!m_window->browser()->showsKeyDetails());
        QVERIFY(m_window->browser()->namespaceDetails()->isVisible());
        QCOMPARE(m_window->browser()->namespaceDetails()->fieldText(QStringLiteral("Keys")),
                 QStringLiteral("%1 (1 key + %2 below)").arg(below + 1).arg(below));
        const long long memory =
            client.integer({"MEMORY", "USAGE", "gamma:50"}) + client.integer({"MEMORY", "USAGE", "gamma:50:meta"});
        QVERIFY(m_window->browser()
                    ->namespaceDetails()
                    ->fieldText(QStringLiteral("Memory"))
                    .startsWith(QString::fromUtf8(keyspace::formatBytes(std::uint64_t(memory)))));
        tabs->setCurrentIndex(0);
        // A plain key or namespace has no tabs.
        QVERIFY(m_window->browser()->selectPath("gamma:51"));
        QVERIFY(!tabs->isVisible());

        // Delete on a namespace opens the bulk delete on its keys, as of the scan, and nothing goes before it runs.
        m_window->activateWindow();
        QVERIFY(m_window->browser()->selectPath("gamma"));
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        QTest::keyClick(m_window->browser()->tree(), Qt::Key_Delete);
        QPointer<ui::BulkActionDialog> bulk = m_window->findChild<ui::BulkActionDialog*>();
        QVERIFY(bulk);
        QCOMPARE(bulk->selection().size(), std::size_t(keyspace::subtreeKeys(store, store.find("gamma"))));
        QVERIFY2(bulk->previewText().startsWith(QStringLiteral("Delete")), qPrintable(bulk->previewText()));
        QVERIFY(!bulk->runButton()->isEnabled()); // nothing runs before the selection is typed
        bulk->close();
        QTRY_VERIFY(bulk.isNull());
        QCOMPARE(client.integer({"EXISTS", "gamma:50"}), 1LL);
        // On the key and namespace: only the key goes, and the question says the keys below stay.
        m_window->activateWindow();
        QVERIFY(m_window->browser()->selectPath("gamma:50"));
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        auto asked = std::make_shared<QString>();
        auto confirmed = answerNextMessageBox(QStringLiteral("Delete"), asked);
        QTest::keyClick(m_window->browser()->tree(), Qt::Key_Delete);
        QTRY_VERIFY(*confirmed);
        QVERIFY2(asked->contains(QStringLiteral("the key below it stays")), qPrintable(*asked));
        QTRY_COMPARE_WITH_TIMEOUT(client.integer({"EXISTS", "gamma:50"}), 0LL, 5000);
        QCOMPARE(client.integer({"EXISTS", "gamma:50:meta"}), 1LL);
    }

    // The Server tab against the server's own answers: version, the memory limit and policy just set, keys per
    // database (DBSIZE and the keys with a TTL), a replica that joins, the scanned keys beside used_memory; it reads
    // INFO again while it shows and stops when hidden.
    void serverPanelAgainstInfo()
    {
        test::PlainClient client(m_server.port());
        QCOMPARE(client.command({"CONFIG", "SET", "maxmemory", "100mb"}), QByteArray("OK"));
        QCOMPARE(client.command({"CONFIG", "SET", "maxmemory-policy", "allkeys-lru"}), QByteArray("OK"));
        demo::RedisServerProcess replica;
        demo::RedisServerProcess::Options replicaOptions;
        replicaOptions.extraArguments = {QStringLiteral("--replicaof"), QStringLiteral("127.0.0.1"),
                                         QString::number(m_server.port())};
        KEYLENS_START_SERVER(replica, replicaOptions);

        ui::ServerPanel* panel = m_window->browser()->serverPanel();
        QSignalSpy updated(panel, &ui::ServerPanel::updated);
        m_window->browser()->showServerPanel();
        QVERIFY(updated.wait(5000));
        const auto info = [&client](const char* section, const char* field) {
            return QString::fromUtf8(redis::infoField(client.command({"INFO", section}), field).toByteArray());
        };
        QCOMPARE(panel->value(QStringLiteral("Server"), QStringLiteral("Version")),
                 QStringLiteral("%1 · standalone").arg(info("server", "redis_version")));
        QVERIFY2(panel->value(QStringLiteral("Memory"), QStringLiteral("Limit")).startsWith(QStringLiteral("100 MiB")),
                 qPrintable(panel->value(QStringLiteral("Memory"), QStringLiteral("Limit"))));
        QCOMPARE(panel->value(QStringLiteral("Memory"), QStringLiteral("Eviction policy")),
                 QStringLiteral("allkeys-lru"));
        long long withTtl = 0;
        for (const QByteArray& key : client.allKeys("*"))
            withTtl += client.integer({"PTTL", key}) >= 0 ? 1 : 0;
        QCOMPARE(panel->value(QStringLiteral("Keyspace"), QStringLiteral("db0")),
                 QStringLiteral("%1 keys, %2 with a TTL")
                     .arg(QString::fromUtf8(keyspace::formatCount(std::uint64_t(client.integer({"DBSIZE"})))),
                          QString::fromUtf8(keyspace::formatCount(std::uint64_t(withTtl)))));
        QVERIFY(panel->value(QStringLiteral("Keyspace"), QStringLiteral("Hit rate")).contains(QStringLiteral("hits")));
        QVERIFY(panel->value(QStringLiteral("Activity"), QStringLiteral("Operations")).endsWith(QStringLiteral("/s")));
        QCOMPARE(panel->value(QStringLiteral("Replication"), QStringLiteral("Role")), QStringLiteral("master"));
        const keyspace::Keyspace& store = m_window->session()->keyspace();
        QVERIFY2(
            panel->value(QStringLiteral("Memory"), QStringLiteral("Scanned keys"))
                .contains(QStringLiteral("in %1 keys").arg(QString::fromUtf8(keyspace::formatCount(store.keyCount())))),
            qPrintable(panel->value(QStringLiteral("Memory"), QStringLiteral("Scanned keys"))));
        // Read again while it shows: the replica comes online in a later answer.
        QTRY_VERIFY_WITH_TIMEOUT(panel->value(QStringLiteral("Replication"), QStringLiteral("Replica 1"))
                                     .startsWith(QStringLiteral("127.0.0.1:%1, online").arg(replica.port())),
                                 20000);
        QCOMPARE(panel->value(QStringLiteral("Replication"), QStringLiteral("Replicas")), QStringLiteral("1"));
        // Hidden, it stops asking.
        m_window->browser()->showCharts(false);
        QTest::qWait(1000); // an answer asked for before lands (100 ms was too short on a loaded machine)
        const int answers = panel->answers();
        QTest::qWait(ui::ServerPanel::RefreshMs + 700);
        QCOMPARE(panel->answers(), answers);
        replica.stop();
        QCOMPARE(client.command({"CONFIG", "SET", "maxmemory", "0"}), QByteArray("OK"));
    }

    // INFO denied by an ACL: every line says "not available" and why, nothing else breaks.
    void serverPanelWhenInfoIsDenied()
    {
        demo::RedisServerProcess locked;
        demo::RedisServerProcess::Options options;
        options.configText = "user default on nopass ~* &* +@all -info\n";
        KEYLENS_START_SERVER(locked, options);
        ui::MainWindow window(m_settings.get());
        window.show();
        scan(window, targetOf(locked.connectionOptions()));
        QSignalSpy updated(window.browser()->serverPanel(), &ui::ServerPanel::updated);
        window.browser()->showServerPanel();
        QVERIFY(updated.wait(5000));
        for (const auto& [group, label] : {std::pair{"Server", "Version"}, std::pair{"Memory", "Used"},
                                           std::pair{"Keyspace", "Keys"}, std::pair{"Replication", "Role"}}) {
            const QString value =
                window.browser()->serverPanel()->value(QString::fromLatin1(group), QString::fromLatin1(label));
            QVERIFY2(value.startsWith(QStringLiteral("not available")) && value.contains(QStringLiteral("INFO")),
                     qPrintable(value));
        }
    }

    void shortcuts()
    {
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        // Ctrl+F goes to the filter box.
        QTest::keyClick(m_window->browser()->tree(), Qt::Key_F, Qt::ControlModifier);
        QVERIFY(QApplication::focusWidget());
        QCOMPARE(QApplication::focusWidget()->metaObject()->className(), "QLineEdit");
        // F5 scans again (a fresh store with the server's current key count).
        QSignalSpy finished(m_window.get(), &ui::MainWindow::scanFinished);
        QTest::keyClick(m_window.get(), Qt::Key_F5);
        QVERIFY(finished.wait(60000));
        test::PlainClient client(m_server.port());
        QCOMPARE(m_window->session()->keyspace().keyCount(), std::uint64_t(client.integer({"DBSIZE"})));
    }

    void deadServerSaysWhy()
    {
        ui::MainWindow window(m_settings.get());
        window.show();
        ui::MainWindow::Target dead;
        dead.options.port = 1; // nothing listens on port 1
        scan(window, dead);
        QVERIFY2(window.statusText().contains(QStringLiteral("127.0.0.1:1")), qPrintable(window.statusText()));
        QCOMPARE(window.browser()->treeModel()->rowCount(), 0);
    }

    // NOAUTH asks for the password in a dialog with an ACL user field; what is typed there connects, as that user.
    void passwordPromptOnNoauth()
    {
        demo::RedisServerProcess locked;
        demo::RedisServerProcess::Options options;
        options.configText = "user default off\nuser alice on >pw ~* &* +@all\n";
        KEYLENS_START_SERVER(locked, options);
        test::PlainClient client(locked.port(), "alice", "pw");
        QCOMPARE(client.pipeline({{"SET", "a:1", "x"}, {"SET", "a:2", "y"}, {"SET", "b", "z"}}), std::size_t(0));
        ui::MainWindow window(m_settings.get());
        window.show();
        ui::MainWindow::Target target;
        target.options = locked.connectionOptions();
        QSignalSpy finished(&window, &ui::MainWindow::scanFinished);
        window.connectTo(target);
        QVERIFY(finished.wait(15000));
        QTRY_VERIFY(window.findChild<ui::CredentialsDialog*>());
        auto* dialog = window.findChild<ui::CredentialsDialog*>();
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->userField()->isVisible());
        QVERIFY(!dialog->problem()->isVisible()); // nothing was refused: it was never asked
        dialog->userField()->setText(QStringLiteral("alice"));
        dialog->passwordField()->setText(QStringLiteral("pw"));
        finished.clear();
        dialog->accept();
        QVERIFY(finished.wait(15000));
        QVERIFY(!window.loginWasRefused());
        QCOMPARE(std::int64_t(window.session()->keyspace().keyCount()), client.integer({"DBSIZE"}));
        QVERIFY(client.command({"CLIENT", "LIST"}).contains("user=alice"));
    }

    // A server that stops answering (CLIENT PAUSE): the status says for how long, the window stays responsive, and
    // Cancel ends the scan at once, long before the pause or the 30 s command timeout would.
    void silentServerIsNamedAndCancelIsPrompt()
    {
        demo::RedisServerProcess paused;
        KEYLENS_START_SERVER(paused);
        QCOMPARE(test::fillStringKeys(paused.port(), 50000), std::size_t(0));
        ui::MainWindow window(m_settings.get());
        window.show();
        ui::MainWindow::Target slow;
        slow.options = paused.connectionOptions();
        slow.maxKeysPerSecond = 10000;
        QSignalSpy finished(&window, &ui::MainWindow::scanFinished);
        window.connectTo(slow);
        QTRY_VERIFY(window.statusText().startsWith(QStringLiteral("Scanning")));
        test::PlainClient client(paused.port());
        QCOMPARE(client.command({"CLIENT", "PAUSE", "6000", "ALL"}), QByteArray("OK")); // UNPAUSE waits too
        QTRY_VERIFY_WITH_TIMEOUT(window.statusText().contains(QStringLiteral("no answer from the server for")), 6000);
        QAction* cancel = nullptr;
        for (QAction* action : window.findChildren<QAction*>()) {
            if (action->text() == QStringLiteral("&Cancel"))
                cancel = action;
        }
        QVERIFY(cancel && cancel->isEnabled());
        QElapsedTimer clock;
        clock.start();
        cancel->trigger();
        // Long before the pause ends (a loaded machine may take more than a second to say so).
        QVERIFY(finished.wait(5000));
        QVERIFY2(clock.elapsed() < 3000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(finished.first().first().value<scan::ScanSummary>().cancelled);
    }

    // A refused password says so under the password field, and Rescan asks again rather than retrying it.
    void wrongPasswordAsksAgainOnRescan()
    {
        demo::RedisServerProcess locked;
        demo::RedisServerProcess::Options options;
        options.configText = "requirepass right\n";
        KEYLENS_START_SERVER(locked, options);
        ui::MainWindow window(m_settings.get());
        window.show();
        ui::MainWindow::Target wrong;
        wrong.options = locked.connectionOptions();
        wrong.options.password = "wrong-c4nary";
        wrong.options.hasPassword = true;
        QSignalSpy finished(&window, &ui::MainWindow::scanFinished);
        window.connectTo(wrong);
        QVERIFY(finished.wait(15000));
        QVERIFY(window.loginWasRefused());
        QVERIFY2(window.statusText().contains(QStringLiteral("password"), Qt::CaseInsensitive),
                 qPrintable(window.statusText()));
        // Neither the title, the status nor the settings repeat the password.
        QVERIFY(!window.windowTitle().contains(QStringLiteral("c4nary")));
        QVERIFY(!window.statusText().contains(QStringLiteral("c4nary")));
        m_settings->sync();
        QFile settingsFile(m_settings->fileName());
        QVERIFY(settingsFile.open(QIODevice::ReadOnly));
        QVERIFY(!settingsFile.readAll().contains("c4nary"));
        QCOMPARE(window.browser()->treeModel()->rowCount(), 0);
        QTRY_VERIFY(window.findChild<ui::CredentialsDialog*>());
        auto* dialog = window.findChild<ui::CredentialsDialog*>();
        QVERIFY(dialog->problem()->isVisible());
        QVERIFY(dialog->problem()->text().contains(QStringLiteral("Wrong password")));
        dialog->reject();
        QTRY_VERIFY(!window.findChild<ui::CredentialsDialog*>());
        finished.clear();
        window.rescan();
        QVERIFY(!window.session()->isRunning()); // not retried with the same password
        QTRY_VERIFY(window.findChild<ui::CredentialsDialog*>());
        dialog = window.findChild<ui::CredentialsDialog*>();
        dialog->passwordField()->setText(QStringLiteral("right"));
        dialog->accept();
        QVERIFY(finished.wait(15000));
        QVERIFY(!window.loginWasRefused());
    }

    // Connect… after a failure opens on the host, port and user that failed, with the reason under the address.
    void connectAfterFailureOpensWithWhatFailed()
    {
        ui::MainWindow window(m_settings.get());
        window.show();
        ui::MainWindow::Target dead;
        dead.options.port = test::freeLoopbackPort();
        dead.options.user = "carol";
        scan(window, dead);
        models::ConnectionProfile shown;
        QString addressProblem;
        QTimer::singleShot(100, &window, [&] {
            auto* dialog = window.findChild<ui::ConnectionDialog*>();
            if (!dialog)
                return;
            shown = dialog->profile();
            addressProblem = dialog->addressProblem();
            dialog->reject();
        });
        window.openConnectionDialog();
        QCOMPARE(shown.port, dead.options.port);
        QCOMPARE(shown.host, dead.options.host);
        QCOMPARE(shown.user, QByteArray("carol"));
        QVERIFY2(addressProblem.contains(QString::number(dead.options.port)), qPrintable(addressProblem));
    }

    void vanishedKeySaysItIsGone()
    {
        test::PlainClient client(m_server.port());
        QCOMPARE(client.integer({"DEL", "gamma:3"}), 1LL); // gone after the scan saw it
        selectAndLoad(*m_window, "gamma:3");
        QVERIFY2(m_window->browser()->keyDetails()->valueText().contains(QStringLiteral("no longer exists")),
                 qPrintable(m_window->browser()->keyDetails()->valueText()));
    }

    void deniedCommandsAreNamedNotHidden()
    {
        // An ACL user that may scan and inspect, but not read values or encodings.
        test::PlainClient admin(m_server.port());
        QCOMPARE(admin.command({"ACL", "SETUSER", "viewer", "on", ">pw", "~*", "+@all", "-getrange", "-object"}),
                 QByteArray("OK"));
        ui::MainWindow window(m_settings.get());
        window.show();
        ui::MainWindow::Target viewer = target();
        viewer.options.user = "viewer";
        viewer.options.password = "pw";
        viewer.options.hasPassword = true;
        QSignalSpy finished(&window, &ui::MainWindow::scanFinished);
        window.connectTo(viewer);
        QVERIFY(finished.wait(60000));
        selectAndLoad(window, "alpha:1");
        QCOMPARE(window.browser()->keyDetails()->fieldText(QStringLiteral("Type")), QStringLiteral("string"));
        QCOMPARE(window.browser()->keyDetails()->fieldText(QStringLiteral("Encoding")), QStringLiteral("–"));
        const QString problems = window.browser()->keyDetails()->findChild<QLabel*>(QStringLiteral("problems"))->text();
        QVERIFY2(problems.contains(QStringLiteral("GETRANGE")) && problems.contains(QStringLiteral("OBJECT")),
                 qPrintable(problems));
    }

    void screenshotWritesAPngOfTheWindowSize()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("shot.png"));
        QProcess keylens;
        test::startGui(keylens,
                       {m_server.uri(), QStringLiteral("--screenshot"), file, QStringLiteral("--select"),
                        QStringLiteral("alpha:7"), QStringLiteral("--size"), QStringLiteral("1100x700")},
                       dir.path());
        QVERIFY(keylens.waitForFinished(60000));
        QCOMPARE(keylens.exitCode(), 0);
        const QImage image(file);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(1100, 700));
        // Not a blank canvas: the tree and the details drew something.
        std::set<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        QVERIFY(colours.size() > 20);

        // A path that does not exist: exit 1 and a sentence on stderr, no file.
        const QString missing = dir.filePath(QStringLiteral("missing.png"));
        test::startGui(keylens,
                       {m_server.uri(), QStringLiteral("--screenshot"), missing, QStringLiteral("--select"),
                        QStringLiteral("no:such:key")},
                       dir.path());
        QVERIFY(keylens.waitForFinished(60000));
        QCOMPARE(keylens.exitCode(), 1);
        QVERIFY(keylens.readAllStandardError().contains("no:such:key"));
        QVERIFY(!QFile::exists(missing));
    }

    void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
