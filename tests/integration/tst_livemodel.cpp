// The live view's model under QAbstractItemModelTester: a scan's KeyTreeModel that a LiveSession keeps following the
// server while a plain client adds keys (rows inserted) and deletes them (rows removed, namespaces that empty
// leaving), as a stress matrix of batch × delay × iterations. It goes through every src/base primitive on its way:
// the scan and the live start are jobs (JobRunner, WorkerJob), the key events are read and the changed keys measured
// on service threads (ServiceThread), the keys applied in slices of the GUI thread (SlicedJob), the last scan freed on
// the disposal queue (QueueThread). The tester fails on any inconsistent signal (a row removed that was not there, a
// parent that lies about its children); the end checks that nothing was lost, doubled or left stale: the rows are
// the server's, and the counts its DBSIZE.
#include "PlainClient.h"
#include "TestServer.h"
#include "models/KeyTreeModel.h"
#include "models/LiveSession.h"
#include "models/ScanSession.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <set>

using namespace keylens;
using models::KeyTreeModel;
using models::LiveSession;

class TestLiveModel : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;

    // Looks into every top-level row, as a view that shows them expanded does: their children are rows too.
    static void fetchTopLevel(KeyTreeModel& model)
    {
        for (int row = 0; row < model.rowCount(); ++row) {
            const QModelIndex index = model.index(row, 0);
            if (model.canFetchMore(index))
                model.fetchMore(index);
            model.rowCount(index);
        }
    }

    static std::uint64_t treeKeys(models::ScanSession& session)
    {
        return session.model()->totalsOf(keyspace::Keyspace::root()).keys;
    }

    static std::set<QByteArray> rowNames(KeyTreeModel& model, const QModelIndex& parent)
    {
        std::set<QByteArray> names;
        for (int row = 0; row < model.rowCount(parent); ++row)
            names.insert(model.index(row, KeyTreeModel::NameColumn, parent).data(KeyTreeModel::PathRole).toByteArray());
        return names;
    }

private Q_SLOTS:
    void initTestCase()
    {
        KEYLENS_START_SERVER(m_server);
        test::PlainClient client(m_server.port());
        QCOMPARE(client.command({"CONFIG", "SET", "notify-keyspace-events", "KEA"}), QByteArray("OK"));
    }

    void rowsFollowInsertsAndRemovals_data()
    {
        QTest::addColumn<int>("batch");      // keys written a round, in a namespace of the round's own
        QTest::addColumn<int>("delayMs");    // between rounds: 0, the GUI thread takes them all at once
        QTest::addColumn<int>("iterations"); // rounds
        QTest::newRow("batch 1, 0 ms, 8 rounds") << 1 << 0 << 8;
        QTest::newRow("batch 1, 300 ms, 4 rounds") << 1 << 300 << 4;
        QTest::newRow("batch 25, 0 ms, 6 rounds") << 25 << 0 << 6;
        QTest::newRow("batch 25, 300 ms, 4 rounds") << 25 << 300 << 4;
        QTest::newRow("batch 200, 0 ms, 4 rounds") << 200 << 0 << 4;
        QTest::newRow("batch 200, 300 ms, 3 rounds") << 200 << 300 << 3;
    }

    // Each round adds `batch` keys under round<N>:, deletes the keys of round N-2 (its row leaves) and one key of
    // kept: (a row removed under a parent that stays), and changes one of kept: (a row that stays). The model tester
    // watches every signal; at the end the tree is the server's.
    void rowsFollowInsertsAndRemovals()
    {
        QFETCH(int, batch);
        QFETCH(int, delayMs);
        QFETCH(int, iterations);
        test::PlainClient client(m_server.port());
        QCOMPARE(client.command({"FLUSHALL"}), QByteArray("OK"));
        QCOMPARE(test::fillStringKeys(m_server.port(), 40, 0, "kept:"), std::size_t(0));

        models::ScanSession session;
        KeyTreeModel& model = *session.model();
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        LiveSession live(&session);
        live.setEnabled(true);
        scan::ScanOptions options;
        options.connection = m_server.connectionOptions();
        QSignalSpy finished(&session, &models::ScanSession::finished);
        session.start(options, ':');
        QVERIFY(finished.wait(30000));
        QTRY_COMPARE_WITH_TIMEOUT(live.state(), LiveSession::State::Following, 10000);
        QCOMPARE(treeKeys(session), 40u);
        fetchTopLevel(model);

        for (int round = 0; round < iterations; ++round) {
            std::vector<std::vector<QByteArray>> writes;
            const QByteArray prefix = "round" + QByteArray::number(round) + ":";
            for (int i = 0; i < batch; ++i)
                writes.push_back({"SET", prefix + QByteArray::number(i), QByteArray(1 + i % 50, 'v')});
            if (round >= 2) {
                for (int i = 0; i < batch; ++i)
                    writes.push_back({"DEL", "round" + QByteArray::number(round - 2) + ":" + QByteArray::number(i)});
            }
            writes.push_back({"DEL", "kept:" + QByteArray::number(round)});
            writes.push_back({"SET", "kept:" + QByteArray::number(39 - round), QByteArray(100 + round, 'w')});
            QCOMPARE(client.pipeline(writes), std::size_t(0));
            if (delayMs > 0) {
                QTest::qWait(delayMs);
                fetchTopLevel(model); // new namespaces' rows are looked into before the next round removes some
            }
        }

        const std::uint64_t dbsize = client.command({"DBSIZE"}).toULongLong();
        QCOMPARE(dbsize, std::uint64_t(40 - iterations + batch * std::min(iterations, 2)));
        QTRY_COMPARE_WITH_TIMEOUT(treeKeys(session), dbsize, 20000);
        fetchTopLevel(model);
        // The rows: the server's first segments, and under kept: its keys, each row's key count the server's.
        std::set<QByteArray> firstSegments;
        std::set<QByteArray> keptKeys;
        for (const QByteArray& key : client.allKeys()) {
            firstSegments.insert(key.left(key.indexOf(':')));
            if (key.startsWith("kept:"))
                keptKeys.insert(key);
        }
        QTRY_COMPARE_WITH_TIMEOUT(rowNames(model, {}), firstSegments, 5000);
        for (int row = 0; row < model.rowCount(); ++row) {
            const QModelIndex index = model.index(row, KeyTreeModel::KeysColumn);
            const QByteArray name = index.data(KeyTreeModel::PathRole).toByteArray();
            QCOMPARE(index.data(KeyTreeModel::SortRole).toULongLong(),
                     std::uint64_t(client.allKeys(name + ":*").size()));
            if (name == "kept")
                QCOMPARE(rowNames(model, model.index(row, 0)), keptKeys);
        }
        QCOMPARE(live.state(), LiveSession::State::Following);
    }
};

QTEST_GUILESS_MAIN(TestLiveModel)
#include "tst_livemodel.moc"
