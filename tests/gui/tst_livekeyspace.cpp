// The tree after a scan follows the server (Scan > Follow live changes): keys a plain client adds, deletes and lets
// expire appear and leave, and every count equals what the server says (DBSIZE, KEYS per namespace); the Writes/s
// column ranks the namespaces written; a server without key events gets the offer, and its setting is put back when
// the window leaves it; a dropped subscription or a FLUSHDB says the view is behind, never shows wrong totals.
#include "PlainClient.h"
#include "TestServer.h"
#include "history/Snapshot.h"
#include "keyspace/Units.h"
#include "models/KeyTreeModel.h"
#include "models/LiveSession.h"
#include "models/ScanSession.h"
#include "models/SnapshotKeeper.h"
#include "models/StoreChanges.h"
#include "ui/BrowserPane.h"
#include "ui/LiveBar.h"
#include "ui/MainWindow.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTreeView>

using namespace keylens;
using models::KeyTreeModel;
using models::LiveSession;

class TestLiveKeyspace : public QObject
{
    Q_OBJECT

    QTemporaryDir m_settingsDir;
    std::unique_ptr<QSettings> m_settings;

    std::unique_ptr<ui::MainWindow> followingWindow()
    {
        m_settings->setValue(QStringLiteral("scan/followLive"), true);
        auto window = std::make_unique<ui::MainWindow>(m_settings.get());
        window->resize(1200, 700);
        window->show();
        return window;
    }

    static ui::MainWindow::Target targetOf(const demo::RedisServerProcess& server, bool readOnly = false)
    {
        ui::MainWindow::Target target;
        target.options = server.connectionOptions();
        target.options.readOnly = readOnly;
        return target;
    }

    static bool scanAndWait(ui::MainWindow& window, const ui::MainWindow::Target& target)
    {
        QSignalSpy finished(&window, &ui::MainWindow::scanFinished);
        window.connectTo(target);
        return finished.wait(30000);
    }

    // Scans `target` and waits until the tree follows it.
    static bool scanAndFollow(ui::MainWindow& window, const ui::MainWindow::Target& target)
    {
        return scanAndWait(window, target) &&
               QTest::qWaitFor([&] { return window.live()->state() == LiveSession::State::Following; }, 10000);
    }

    // A private server that publishes key events, with `keys` string keys `prefix`0, `prefix`1, …
    static bool startPublishing(demo::RedisServerProcess& server, int keys, const QByteArray& prefix)
    {
        if (!server.start())
            return false;
        test::PlainClient(server.port()).command({"CONFIG", "SET", "notify-keyspace-events", "KEA"});
        return test::fillStringKeys(server.port(), keys, 0, prefix) == 0;
    }

    static std::uint64_t treeKeys(const ui::MainWindow& window, QByteArrayView path = {})
    {
        const keyspace::Keyspace& store = window.session()->keyspace();
        const keyspace::NodeId node = path.isEmpty() ? keyspace::Keyspace::root() : store.find(path);
        return node == keyspace::InvalidNode ? 0 : window.session()->model()->totalsOf(node).keys;
    }

    static QByteArray flags(test::PlainClient& client)
    {
        const std::vector<QByteArray> got = client.elements({"CONFIG", "GET", "notify-keyspace-events"});
        return got.size() == 2 ? got[1] : QByteArray("?");
    }

    static std::uint64_t serverKeys(test::PlainClient& client, const QByteArray& glob)
    {
        return std::uint64_t(client.elements({"KEYS", glob}).size());
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_settings =
            std::make_unique<QSettings>(m_settingsDir.filePath(QStringLiteral("keylens.ini")), QSettings::IniFormat);
    }

    void followsABurstOfAddsDeletesAndExpiries()
    {
        demo::RedisServerProcess server;
        QVERIFY(startPublishing(server, 1000, "ns0:"));
        test::PlainClient client(server.port());
        for (const char* ns : {"ns1:", "ns2:"})
            QCOMPARE(test::fillStringKeys(server.port(), 1000, 0, ns), std::size_t(0));
        std::unique_ptr<ui::MainWindow> window = followingWindow();
        QVERIFY(scanAndFollow(*window, targetOf(server)));
        QCOMPARE(treeKeys(*window), 3000u);
        KeyTreeModel* model = window->session()->model();
        QTreeView* tree = window->browser()->tree();
        QVERIFY(!tree->header()->isSectionHidden(KeyTreeModel::WritesColumn));
        QVERIFY(window->liveBar()->isVisible());

        // The burst: 500 keys in a new namespace, 400 deleted from ns0, 200 of ns1 made to expire, all of ns2 gone,
        // and one key of ns1 grown.
        std::vector<std::vector<QByteArray>> burst;
        for (int i = 0; i < 500; ++i)
            burst.push_back({"SET", "fresh:" + QByteArray::number(i), "v"});
        for (int i = 0; i < 400; ++i)
            burst.push_back({"DEL", "ns0:" + QByteArray::number(i)});
        for (int i = 0; i < 200; ++i)
            burst.push_back({"PEXPIRE", "ns1:" + QByteArray::number(i), "300"});
        for (int i = 0; i < 1000; ++i)
            burst.push_back({"UNLINK", "ns2:" + QByteArray::number(i)});
        burst.push_back({"SET", "ns1:999", QByteArray(20000, 'x')});
        QCOMPARE(client.pipeline(burst), std::size_t(0));
        // The expiries happen on the server's clock: wait until it has reclaimed them all (DBSIZE counts a key
        // whose time is up until then, and so does the tree: the expired event comes as it is reclaimed).
        QTRY_COMPARE_WITH_TIMEOUT(client.command({"DBSIZE"}).toULongLong(), 500u + 600u + 800u, 20000);
        const std::uint64_t dbsize = client.command({"DBSIZE"}).toULongLong();
        QTRY_COMPARE_WITH_TIMEOUT(treeKeys(*window), dbsize, 10000);
        QCOMPARE(treeKeys(*window, "fresh"), serverKeys(client, "fresh:*"));
        QCOMPARE(treeKeys(*window, "ns0"), serverKeys(client, "ns0:*"));
        QCOMPARE(treeKeys(*window, "ns1"), serverKeys(client, "ns1:*"));
        // A changed key is measured again: its memory is the server's.
        const keyspace::Keyspace& store = window->session()->keyspace();
        QCOMPARE(store.keyInfo(store.find("ns1:999")).memoryBytes,
                 client.command({"MEMORY", "USAGE", "ns1:999"}).toULongLong());
        QCOMPARE(window->live()->state(), LiveSession::State::Following);
        // The status line counts the keys as they are now, not as the scan found them.
        const QString expectedCount =
            QString::fromLatin1(keyspace::formatCount(dbsize)) + QStringLiteral(" keys now (live)");
        QTRY_VERIFY2_WITH_TIMEOUT(window->statusText().contains(expectedCount), qPrintable(window->statusText()), 3000);

        // Rows: the new namespace is one, the emptied one left, and so did the deleted keys of the others.
        QVERIFY(model->indexOfNode(store.find("fresh")).isValid());
        QVERIFY(!model->indexOfNode(store.find("ns2")).isValid());
        QVERIFY(!model->indexOfNode(store.find("ns0:0")).isValid());
        QVERIFY(model->indexOfNode(store.find("ns0:999")).isValid());
        QCOMPARE(model->rowCount(), 3);

        // Writes/s: sorted by it, the namespaces written most come first (500 sets, 400 deletes, 201 expires and
        // a set); expiries are the server's and not counted.
        QTRY_VERIFY_WITH_TIMEOUT(
            model->index(0, KeyTreeModel::WritesColumn).data(KeyTreeModel::SortRole).toULongLong() > 0, 3000);
        model->sort(KeyTreeModel::WritesColumn, Qt::DescendingOrder);
        const auto writesOf = [&](int row) {
            return model->index(row, KeyTreeModel::WritesColumn).data(KeyTreeModel::SortRole).toULongLong();
        };
        const auto nameOf = [&](int row) { return model->index(row, KeyTreeModel::NameColumn).data().toString(); };
        QCOMPARE(nameOf(0), QStringLiteral("fresh"));
        QCOMPARE(writesOf(0), 500u);
        QCOMPARE(nameOf(1), QStringLiteral("ns0"));
        QCOMPARE(writesOf(1), 400u);
        QCOMPARE(nameOf(2), QStringLiteral("ns1"));
        QCOMPARE(writesOf(2), 201u);
        QVERIFY(!model->index(0, KeyTreeModel::WritesColumn).data().toString().isEmpty());
        QCOMPARE(model->index(0, KeyTreeModel::WritesColumn)
                     .data(KeyTreeModel::WriteHistoryRole)
                     .value<QList<float>>()
                     .size(),
                 models::WriteRates::Buckets);

        // A key that left and comes back is a row again, under a namespace that comes back too.
        client.command({"SET", "ns2:7", "back"});
        QTRY_COMPARE_WITH_TIMEOUT(treeKeys(*window, "ns2"), 1u, 5000);
        QVERIFY(model->indexOfNode(store.find("ns2:7")).isValid());
        QCOMPARE(treeKeys(*window), client.command({"DBSIZE"}).toULongLong());

        // A key written and deleted while the window was busy: the follower measured it in one look and saw it go in
        // the next, and the window takes both at once. It must end as it ended on the server: gone.
        client.command({"SET", "flash:1", "v"});
        QThread::msleep(400); // the GUI thread is busy; the follower measures flash:1 meanwhile
        client.command({"DEL", "flash:1"});
        QThread::msleep(400);
        // Then a key written after the DEL: once the tree has it, the follower is past the DEL too (a fixed 1.5 s for
        // that was too short on a loaded machine).
        client.command({"SET", "after:1", "v"});
        QTRY_COMPARE_WITH_TIMEOUT(treeKeys(*window, "after"), 1u, 10000);
        QCOMPARE(treeKeys(*window, "flash"), 0u);
        QCOMPARE(treeKeys(*window), client.command({"DBSIZE"}).toULongLong());
    }

    // The scan's snapshot lists its patterns from the store on a worker once the scan is over (half a second at a
    // million keys). Live keys that arrive meanwhile wait for it: the first of them used to stop it, throw its patterns
    // away and hold the GUI thread while it stopped. Then they go in, and the tree counts what the server does.
    void aSnapshotKeepsItsPatternsWhileKeysArrive()
    {
        demo::RedisServerProcess server;
        QVERIFY(startPublishing(server, 50'000, "ns0:"));
        for (const char* ns : {"ns1:", "ns2:", "ns3:", "ns4:", "ns5:", "ns6:", "ns7:"})
            QCOMPARE(test::fillStringKeys(server.port(), 50'000, 0, ns), std::size_t(0));
        std::unique_ptr<ui::MainWindow> window = followingWindow();
        QVERIFY(scanAndWait(*window, targetOf(server)));
        models::ScanSession* session = window->session();
        // The snapshot's patterns take a tenth of a second here past the scan's end (more on a slower machine).
        QVERIFY2(session->snapshots()->lastSnapshot() == nullptr,
                 "the snapshot was made before the scan ended: more keys needed");
        test::PlainClient client(server.port());
        client.command({"SET", "arrived:1", "v"}); // as the follower would hand it over
        keyspace::KeyInfo info;
        info.type = keyspace::KeyType::String;
        info.memoryBytes = 56;
        info.memoryMeasured = true;
        const std::vector<std::pair<QByteArray, std::optional<keyspace::KeyInfo>>> arrived = {{"arrived:1", info}};
        QVERIFY(!session->changes()->followKeys(arrived)); // it waits, as for a sort on a worker
        QTRY_VERIFY_WITH_TIMEOUT(session->snapshots()->lastSnapshot() != nullptr, 20000);
        QVERIFY2(session->snapshots()->lastSnapshot()->patterns.size() >= 8,
                 qPrintable(QString::number(session->snapshots()->lastSnapshot()->patterns.size())));
        QTRY_VERIFY_WITH_TIMEOUT(session->changes()->followKeys(arrived), 5000);
        QCOMPARE(treeKeys(*window, "arrived"), 1u);

        // Keys a writer adds while the window follows go in as ever: the tree counts what the server does.
        QTRY_VERIFY_WITH_TIMEOUT(window->live()->state() == LiveSession::State::Following, 10000);
        std::vector<std::vector<QByteArray>> sets;
        for (int i = 0; i < 300; ++i)
            sets.push_back({"SET", "written:" + QByteArray::number(i), "v"});
        QCOMPARE(client.pipeline(sets), std::size_t(0));
        QTRY_COMPARE_WITH_TIMEOUT(treeKeys(*window, "written"), 300u, 10000);
        QCOMPARE(treeKeys(*window), client.command({"DBSIZE"}).toULongLong());
        QCOMPARE(window->live()->state(), LiveSession::State::Following);
    }

    // Writes that keep coming, with quiet moments between them (when DBSIZE is compared) and keys expiring: the
    // comparison waits for the keys measured before its DBSIZE, so the tree never looks behind when it is not.
    void aSteadyWriterStaysFollowed()
    {
        demo::RedisServerProcess server;
        QVERIFY(startPublishing(server, 500, "base:"));
        test::PlainClient client(server.port());
        std::unique_ptr<ui::MainWindow> window = followingWindow();
        QVERIFY(scanAndFollow(*window, targetOf(server)));
        for (int round = 0; round < 8; ++round) {
            for (int i = 0; i < 25; ++i) {
                const QByteArray n = QByteArray::number(round * 25 + i);
                client.command({"SET", "steady:" + n, "v", "PX", QByteArray::number(300 + 40 * i)});
                client.command({"HSET", "cart:" + QByteArray::number(i), "item", n});
                QTest::qWait(15);
            }
            QTest::qWait(round % 2 == 0 ? 350 : 1200); // quiet: DBSIZE is asked and compared
            QCOMPARE(window->live()->state(), LiveSession::State::Following);
        }
        QTRY_COMPARE_WITH_TIMEOUT(client.command({"DBSIZE"}).toULongLong(), 525u, 10000); // the steady keys expired
        QTRY_COMPARE_WITH_TIMEOUT(treeKeys(*window), 525u, 5000);
        QCOMPARE(window->live()->state(), LiveSession::State::Following);
    }

    void aDroppedSubscriptionOrAFlushIsBehind()
    {
        demo::RedisServerProcess server;
        QVERIFY(startPublishing(server, 300, "a:"));
        test::PlainClient client(server.port());
        std::unique_ptr<ui::MainWindow> window = followingWindow();
        QVERIFY(scanAndFollow(*window, targetOf(server)));
        LiveSession* live = window->live();

        // The server drops a subscriber that cannot keep up (client-output-buffer-limit pubsub): with a limit of
        // 1 KB, a burst of writes is more than it may hold.
        client.command({"CONFIG", "SET", "client-output-buffer-limit", "pubsub 1kb 1kb 0"});
        std::vector<std::vector<QByteArray>> burst;
        for (int i = 0; i < 2000; ++i)
            burst.push_back({"SET", "burst:" + QByteArray::number(i), "v"});
        QCOMPARE(client.pipeline(burst), std::size_t(0));
        QTRY_COMPARE_WITH_TIMEOUT(live->state(), LiveSession::State::Behind, 5000);
        client.command({"CONFIG", "SET", "client-output-buffer-limit", "pubsub 32mb 8mb 60"});
        QVERIFY(live->why().contains(QLatin1String("subscription")));
        QVERIFY(window->liveBar()->rescanButton()->isVisible());
        QVERIFY(window->liveBar()->text()->text().contains(QLatin1String("behind")));

        // Rescan: followed again. Then a FLUSHDB, which sends no key event: the counts disagree, and it says so.
        QSignalSpy finished(window.get(), &ui::MainWindow::scanFinished);
        window->liveBar()->rescanButton()->click();
        QVERIFY(finished.wait(30000));
        QTRY_COMPARE_WITH_TIMEOUT(live->state(), LiveSession::State::Following, 10000);
        client.command({"FLUSHDB"});
        QTRY_COMPARE_WITH_TIMEOUT(live->state(), LiveSession::State::Behind, 10000);
        QVERIFY(live->why().contains(QLatin1String("DBSIZE")));
    }

    void evictedKeysLeave()
    {
        demo::RedisServerProcess server;
        QVERIFY(startPublishing(server, 200, "old:"));
        test::PlainClient client(server.port());
        std::unique_ptr<ui::MainWindow> window = followingWindow();
        QVERIFY(scanAndFollow(*window, targetOf(server)));
        // 3 MB of memory at most: sixty values of 100 KB push keys out, at random.
        client.command({"CONFIG", "SET", "maxmemory-policy", "allkeys-random"});
        client.command({"CONFIG", "SET", "maxmemory", "3mb"});
        std::vector<std::vector<QByteArray>> big;
        for (int i = 0; i < 60; ++i)
            big.push_back({"SET", "big:" + QByteArray::number(i), QByteArray(100 * 1024, 'x')});
        client.pipeline(big); // some may be refused once nothing is left to evict
        const QByteArray stats = client.command({"INFO", "stats"});
        QVERIFY2(stats.contains("evicted_keys:") && !stats.contains("evicted_keys:0\r"), stats.constData());
        client.command({"CONFIG", "SET", "maxmemory", "0"});
        QTRY_COMPARE_WITH_TIMEOUT(treeKeys(*window), client.command({"DBSIZE"}).toULongLong(), 10000);
        QCOMPARE(treeKeys(*window, "old"), serverKeys(client, "old:*"));
        QCOMPARE(treeKeys(*window, "big"), serverKeys(client, "big:*"));
        QCOMPARE(window->live()->state(), LiveSession::State::Following);
    }

    void aUserDeniedConfigOrChannels()
    {
        demo::RedisServerProcess server;
        QVERIFY(startPublishing(server, 50, "a:"));
        test::PlainClient client(server.port());
        client.command({"ACL", "SETUSER", "noconfig", "on", ">pw", "~*", "&*", "+@all", "-config"});
        client.command({"ACL", "SETUSER", "nochannels", "on", ">pw", "~*", "resetchannels", "+@all"});
        std::unique_ptr<ui::MainWindow> window = followingWindow();
        ui::MainWindow::Target target = targetOf(server);
        target.options.password = "pw";
        target.options.hasPassword = true;

        // Denied CONFIG: it follows what comes, and says it could not tell whether anything will.
        target.options.user = "noconfig";
        QVERIFY(scanAndFollow(*window, target));
        LiveSession* live = window->live();
        QVERIFY2(live->why().contains(QLatin1String("could not be read")), qPrintable(live->why()));
        QVERIFY(window->liveBar()->text()->text().contains(QLatin1String("could not be read")));
        client.command({"SET", "a:new", "1"});
        QTRY_COMPARE_WITH_TIMEOUT(treeKeys(*window), 51u, 5000);

        // Denied the channels: it cannot follow, and says why.
        target.options.user = "nochannels";
        QVERIFY(scanAndWait(*window, target));
        QTRY_COMPARE_WITH_TIMEOUT(live->state(), LiveSession::State::Unavailable, 10000);
        QVERIFY2(live->why().contains(QLatin1String("could not subscribe")), qPrintable(live->why()));
        QVERIFY(window->liveBar()->text()->text().contains(QLatin1String("cannot follow")));
    }

    void offersToTurnKeyEventsOnAndPutsThemBack()
    {
        demo::RedisServerProcess server;
        demo::RedisServerProcess other;
        KEYLENS_START_SERVER(server);
        KEYLENS_START_SERVER(other);
        test::PlainClient client(server.port());
        QCOMPARE(flags(client), QByteArray(""));
        QCOMPARE(test::fillStringKeys(server.port(), 100, 0, "a:"), std::size_t(0));
        std::unique_ptr<ui::MainWindow> window = followingWindow();

        // Read-only: the offer says Keylens will not change the server, and nothing reaches it.
        const long long setsBefore = client.commandCalls("config|set");
        QVERIFY(scanAndWait(*window, targetOf(server, true)));
        LiveSession* live = window->live();
        QTRY_COMPARE_WITH_TIMEOUT(live->state(), LiveSession::State::NeedsNotifications, 10000);
        QVERIFY(window->liveBar()->isVisible());
        QVERIFY(window->liveBar()->text()->text().contains(QLatin1String("does not publish key events")));
        QVERIFY(window->liveBar()->text()->text().contains(QLatin1String("read-only")));
        QVERIFY(!window->liveBar()->turnOnButton()->isVisible());
        live->turnOnNotifications(false); // as if the button were there: the write gate refuses
        QTRY_VERIFY_WITH_TIMEOUT(live->why().contains(QLatin1String("read-only")), 5000);
        QCOMPARE(live->state(), LiveSession::State::NeedsNotifications);
        QCOMPARE(client.commandCalls("config|set"), setsBefore);

        // Writable: Turn on, the tree follows; leaving the server puts the setting back.
        QVERIFY(scanAndWait(*window, targetOf(server)));
        QTRY_COMPARE_WITH_TIMEOUT(live->state(), LiveSession::State::NeedsNotifications, 10000);
        QVERIFY(window->liveBar()->turnOnButton()->isVisible());
        window->liveBar()->turnOnButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(live->state(), LiveSession::State::Following, 10000);
        const QByteArray on = flags(client);
        QVERIFY2(on.contains('E') && on.contains('A'), on.constData());
        client.command({"SET", "a:new", "1"});
        QTRY_COMPARE_WITH_TIMEOUT(treeKeys(*window), 101u, 5000);
        QVERIFY(scanAndWait(*window, targetOf(other)));
        QCOMPARE(flags(client), QByteArray(""));

        // Turn on and keep: left on after the window leaves, and after it closes.
        QVERIFY(scanAndWait(*window, targetOf(server)));
        QTRY_COMPARE_WITH_TIMEOUT(live->state(), LiveSession::State::NeedsNotifications, 10000);
        window->liveBar()->turnOnAndKeepButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(live->state(), LiveSession::State::Following, 10000);
        window.reset();
        QVERIFY(flags(client).contains('E'));

        // Turned on, then the window closes: put back.
        client.command({"CONFIG", "SET", "notify-keyspace-events", ""});
        window = followingWindow();
        QVERIFY(scanAndWait(*window, targetOf(server)));
        QTRY_COMPARE_WITH_TIMEOUT(window->live()->state(), LiveSession::State::NeedsNotifications, 10000);
        window->liveBar()->turnOnButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(window->live()->state(), LiveSession::State::Following, 10000);
        window.reset();
        QCOMPARE(flags(client), QByteArray(""));
    }
};

QTEST_MAIN(TestLiveKeyspace)
#include "tst_livekeyspace.moc"
