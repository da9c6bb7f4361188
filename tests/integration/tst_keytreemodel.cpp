// The key tree model while a real scan streams into it, under QAbstractItemModelTester (attached before
// the first row), with sorting and filtering changed mid-scan; its rows checked against the server.
#include "PlainClient.h"
#include "TestServer.h"
#include "keyspace/KeyGlob.h"
#include "keyspace/TopKeys.h"
#include "models/ChartData.h"
#include "models/KeyTreeModel.h"
#include "models/PatternTreeModel.h"
#include "models/ScanSession.h"

#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <map>
#include <set>
#include <unistd.h>

using namespace keylens;
using models::KeyTreeModel;

class TestKeyTreeModel : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;

    // `scale` 1 is ~30k keys; the model tester walks the whole model on every signal, so its runs get
    // a small keyspace (in db 1) and the numeric checks the big one.
    void seed(int db, int scale)
    {
        test::PlainClient client(m_server.port());
        QCOMPARE(client.command({"SELECT", QByteArray::number(db)}), QByteArray("OK"));
        std::vector<std::vector<QByteArray>> commands;
        const auto add = [&](std::vector<QByteArray> command) {
            commands.push_back(std::move(command));
            if (commands.size() >= 5000) {
                QCOMPARE(client.pipeline(commands), std::size_t(0));
                commands.clear();
            }
        };
        for (int i = 0; i < 6000 / scale; ++i)
            add({"HSET", "user:" + QByteArray::number(i) + ":profile", "name", QByteArray(i % 200, 'n')});
        for (int i = 0; i < 3000 / scale; ++i)
            add({"SET", "user:" + QByteArray::number(i) + ":token", "t", "EX", "3600"});
        for (int i = 0; i < 8000 / scale; ++i)
            add({"SET", "session:" + QByteArray::number(i), QByteArray(i % 90, 's'), "EX", "600"});
        for (int i = 0; i < 12000 / scale; ++i) // a wide fan-out: one parent with 12k children
            add({"SET", "flat:" + QByteArray::number(i), "x"});
        for (int i = 0; i < 500 / scale; ++i)
            add({"RPUSH", "queue:" + QByteArray::number(i % 5) + ":jobs:" + QByteArray::number(i), "j"});
        add({"SET", "user", "a key that is also a namespace"});
        add({"SET", QByteArray("bin\xff\x00", 5) + ":k", "b"});
        add({"SET", "plain", QByteArray(20000, 'p')}); // a big string
        QCOMPARE(client.pipeline(commands), std::size_t(0));
    }

    // `count` keys wide:0, wide:1, ... in database `db`, of 1-399 bytes each (from `seed`), for one wide namespace.
    static void writeWideNamespace(test::PlainClient& client, int db, int count, quint32 seed)
    {
        QCOMPARE(client.command({"SELECT", QByteArray::number(db)}), QByteArray("OK"));
        std::vector<std::vector<QByteArray>> commands;
        QRandomGenerator random(seed);
        for (int i = 0; i < count; ++i)
            commands.push_back({"SET", "wide:" + QByteArray::number(i), QByteArray(int(random.bounded(1, 400)), 'w')});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
    }

    // The server's count of keys at or below a top-level name: the key itself plus SCAN MATCH name:*.
    static scan::ScanOptions scanOf(const redis::ConnectionOptions& connection, int db)
    {
        scan::ScanOptions options;
        options.connection = connection;
        options.connection.db = db;
        return options;
    }

    static std::uint64_t serverKeysUnder(test::PlainClient& client, const QByteArray& name)
    {
        QByteArray escaped;
        for (const char c : name) {
            if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\')
                escaped += '\\';
            escaped += c;
        }
        std::uint64_t keys = client.allKeys(escaped + ":*").size();
        keys += std::uint64_t(client.integer({"EXISTS", name}));
        return keys;
    }

    // A thread's nice value: field 19 of /proc/self/task/<tid>/stat, counted after the name's closing parenthesis.
    static int niceOf(const QByteArray& tid)
    {
        QFile stat(QStringLiteral("/proc/self/task/%1/stat").arg(QString::fromLatin1(tid)));
        if (!stat.open(QIODevice::ReadOnly))
            return -100;
        const QByteArray line = stat.readAll();
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        return fields.size() > 16 ? fields[16].toInt() : -100;
    }

    // By thread name (the last thread of a name wins): each thread's nice value.
    static std::map<QByteArray, int> threadNices()
    {
        std::map<QByteArray, int> nices;
        for (const QString& tid :
             QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            QFile comm(QStringLiteral("/proc/self/task/%1/comm").arg(tid));
            if (comm.open(QIODevice::ReadOnly))
                nices[comm.readAll().trimmed()] = niceOf(tid.toLatin1());
        }
        return nices;
    }

    static void waitForFinish(models::ScanSession& session)
    {
        QSignalSpy finished(&session, &models::ScanSession::finished);
        QVERIFY(finished.wait(120000));
    }

private Q_SLOTS:
    void initTestCase()
    {
        KEYLENS_START_SERVER(m_server);
        seed(0, 1);
        seed(1, 20);
    }

    void liveScanUnderTheModelTester()
    {
        models::ScanSession session;
        KeyTreeModel* model = session.model();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);

        scan::ScanOptions options = scanOf(m_server.connectionOptions(), 1);
        options.count = 20;
        options.maxKeysPerSecond = 600; // over two seconds: many publishes, so rows arrive while we watch
        int publishes = 0;
        QPersistentModelIndex userRow;
        connect(&session, &models::ScanSession::published, this, [&] {
            ++publishes;
            // Behave like a view: look into every top-level row (materialising it) and keep one open.
            for (int row = 0; row < model->rowCount(); ++row) {
                const QModelIndex index = model->index(row, 0);
                model->rowCount(index);
                if (index.data(KeyTreeModel::PathRole).toByteArray() == "user" && !userRow.isValid())
                    userRow = index;
            }
            if (publishes == 1)
                model->sort(KeyTreeModel::NameColumn, Qt::AscendingOrder);
            if (publishes == 2)
                model->setFilter(keyspace::KeyGlob("session:*"));
            if (publishes == 3)
                model->setFilter({});
            if (publishes == 4)
                model->sort(KeyTreeModel::MemoryColumn, Qt::DescendingOrder);
        });
        session.start(options, ':');
        waitForFinish(session);
        // Rows kept arriving after the last change of order and filter (under a sanitizer, with the
        // tester walking the whole model on every signal, publishes are fewer but never under five).
        QVERIFY2(publishes >= 5, qPrintable(QString::number(publishes)));
        QVERIFY(session.summary()->complete);

        // A persistent index taken mid-scan still points at the same node after sorts and growth.
        if (userRow.isValid())
            QCOMPARE(userRow.data(KeyTreeModel::PathRole).toByteArray(), QByteArray("user"));

        // Top-level rows: the server's first segments, each with the server's key count.
        test::PlainClient client(m_server.port());
        QCOMPARE(client.command({"SELECT", "1"}), QByteArray("OK"));
        std::set<QByteArray> firstSegments;
        for (const QByteArray& key : client.allKeys())
            firstSegments.insert(key.left(key.indexOf(':') < 0 ? key.size() : key.indexOf(':')));
        std::set<QByteArray> rows;
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex index = model->index(row, KeyTreeModel::KeysColumn);
            const QByteArray name = index.data(KeyTreeModel::PathRole).toByteArray();
            rows.insert(name);
            QCOMPARE(index.data(KeyTreeModel::SortRole).toULongLong(), serverKeysUnder(client, name));
        }
        QCOMPARE(rows, firstSegments);
    }

    // The pattern model folds live under the model tester while the scan runs, then swaps in the exact
    // tree; its totals equal the raw tree's sums and the server's counts.
    void patternModelDuringALiveScan()
    {
        models::ScanSession session;
        models::PatternTreeModel* patterns = session.patternModel();
        patterns->setActive(true);
        QAbstractItemModelTester tester(patterns, QAbstractItemModelTester::FailureReportingMode::QtTest);
        scan::ScanOptions options = scanOf(m_server.connectionOptions(), 1);
        options.count = 20;
        options.maxKeysPerSecond = 600;
        int publishes = 0;
        connect(&session, &models::ScanSession::published, this, [&] {
            ++publishes;
            for (int row = 0; row < patterns->rowCount(); ++row) {
                const QModelIndex top = patterns->index(row, 0);
                for (int child = 0; child < patterns->rowCount(top); ++child)
                    patterns->rowCount(patterns->index(child, 0, top));
            }
            if (publishes == 2)
                patterns->sort(KeyTreeModel::KeysColumn, Qt::DescendingOrder);
        });
        QSignalSpy exact(patterns, &models::PatternTreeModel::exactTreeReady);
        session.start(options, ':');
        waitForFinish(session);
        QVERIFY(exact.count() > 0 || exact.wait(20000));
        QVERIFY2(publishes >= 5, qPrintable(QString::number(publishes)));
        QVERIFY(patterns->isExact());

        // Top-level patterns are the raw tree's top-level names here (no id at the top): equal totals.
        const keyspace::Keyspace& store = session.keyspace();
        KeyTreeModel* raw = session.model();
        std::uint64_t keys = 0;
        for (int row = 0; row < patterns->rowCount(); ++row) {
            const QModelIndex index = patterns->index(row, 0);
            const keyspace::NodeId node = store.find(index.data(KeyTreeModel::PathRole).toByteArray());
            QVERIFY(node != keyspace::InvalidNode);
            const keyspace::SubtreeTotals folded = patterns->totalsOf(patterns->patternOf(index));
            const keyspace::SubtreeTotals unfolded = raw->totalsOf(node);
            QCOMPARE(folded.keys, unfolded.keys);
            QCOMPARE(folded.memoryBytes, unfolded.memoryBytes);
            QCOMPARE(folded.keysWithTtl, unfolded.keysWithTtl);
            QCOMPARE(folded.types, unfolded.types);
            QCOMPARE(folded.findings, unfolded.findings);
            keys += folded.keys;
        }
        test::PlainClient client(m_server.port());
        QCOMPARE(client.command({"SELECT", "1"}), QByteArray("OK"));
        QCOMPARE(qlonglong(keys), client.integer({"DBSIZE"}));
        // user:<int> stands for every user:N: the server's user:* keys, and the raw `user` row without
        // its own key.
        const std::optional<models::PatternTreeModel::PatternId> users = patterns->tree()->find("user:<int>");
        QVERIFY(users);
        const keyspace::SubtreeTotals folded = patterns->totalsOf(*users);
        QCOMPARE(folded.keys, std::uint64_t(client.allKeys("user:*").size()));
        const keyspace::SubtreeTotals userRow = raw->totalsOf(store.find("user"));
        QCOMPARE(folded.keys, userRow.keys - 1);
        QCOMPARE(folded.memoryBytes, userRow.memoryBytes - store.keyInfo(store.find("user")).memoryBytes);
        std::uint64_t serverMemory = 0;
        for (const QByteArray& key : client.allKeys("user:*"))
            serverMemory += std::uint64_t(client.integer({"MEMORY", "USAGE", key}));
        QCOMPARE(folded.memoryBytes, serverMemory);
    }

    // The charts' figures of the whole keyspace and of one namespace, from one walk over the store, equal
    // what the server says key by key: types, TTL buckets by keys and memory, name lengths, memory per
    // key, expiries per minute, and the biggest children.
    void chartSeriesEqualTheServer()
    {
        models::ScanSession session;
        session.start(scanOf(m_server.connectionOptions(), 1), ':');
        waitForFinish(session);
        const keyspace::Keyspace& store = session.keyspace();
        test::PlainClient client(m_server.port());
        QCOMPARE(client.command({"SELECT", "1"}), QByteArray("OK"));
        const std::map<QByteArray, test::PlainClient::KeyFacts> facts = client.inspectAll();

        for (const QByteArray& under : {QByteArray(), QByteArray("user")}) {
            const keyspace::NodeId root = under.isEmpty() ? keyspace::Keyspace::root() : store.find(under);
            const std::int64_t now = QDateTime::currentMSecsSinceEpoch();
            models::ChartWalk walk(store, {root}, now,
                                   [&](keyspace::NodeId child) { return QString::fromUtf8(store.segment(child)); });
            while (!walk.step(100)) {
            }
            const models::ChartData chart = walk.result();

            models::ChartData truth;
            std::map<QString, std::uint64_t> keysByChild, memoryByChild;
            for (const auto& [key, fact] : facts) {
                if (!under.isEmpty() && key != under && !key.startsWith(QByteArray(under + ':')))
                    continue;
                ++truth.keys;
                truth.memoryBytes += std::uint64_t(fact.memory);
                ++truth.types[std::size_t(keyspace::keyTypeFromName(fact.type))];
                // The scan's absolute expiry is a little older than this PTTL: compare buckets away from
                // their edges only (the seed's TTLs are 10 and 60 minutes).
                const std::int64_t expiresAt = fact.pttl >= 0 ? now + fact.pttl : keyspace::NoExpiry;
                const int bucket = models::ChartData::ttlBucketOf(expiresAt, now);
                ++truth.ttlKeys[std::size_t(bucket)];
                truth.ttlMemory[std::size_t(bucket)] += std::uint64_t(fact.memory);
                ++truth.nameLengths[std::size_t(models::ChartData::nameLengthBucketOf(std::size_t(key.size())))];
                ++truth.memoryPerKey[std::size_t(models::ChartData::memoryBucketOf(std::uint64_t(fact.memory)))];
                const QByteArray rest = under.isEmpty() ? key : key.mid(under.size() + 1);
                const QString child = QString::fromUtf8(
                    key == under ? QByteArray("(the keys themselves)")
                                 : rest.left(rest.indexOf(':') < 0 ? rest.size() : rest.indexOf(':')));
                ++keysByChild[child];
                memoryByChild[child] += std::uint64_t(fact.memory);
            }
            QVERIFY(truth.keys > 0);
            QCOMPARE(chart.keys, truth.keys);
            QCOMPARE(chart.memoryBytes, truth.memoryBytes);
            QCOMPARE(chart.types, truth.types);
            QCOMPARE(chart.ttlKeys, truth.ttlKeys);
            QCOMPARE(chart.ttlMemory, truth.ttlMemory);
            QCOMPARE(chart.nameLengths, truth.nameLengths);
            QCOMPARE(chart.memoryPerKey, truth.memoryPerKey);
            std::uint64_t expiring = 0;
            for (const std::uint32_t perMinute : chart.expiriesPerMinute)
                expiring += perMinute;
            QCOMPARE(expiring, truth.ttlKeys[1] + truth.ttlKeys[2] + truth.ttlKeys[3]);
            // The bars: every child's figures, the biggest first, the rest summed in the last.
            std::uint64_t barKeys = 0;
            for (const models::ChartData::Bar& bar : chart.byKeys) {
                barKeys += bar.keys;
                if (bar.count == 1)
                    QCOMPARE(bar.keys, keysByChild.at(bar.label));
            }
            QCOMPARE(barKeys, truth.keys);
            const auto biggest = std::max_element(memoryByChild.begin(), memoryByChild.end(),
                                                  [](const auto& a, const auto& b) { return a.second < b.second; });
            QCOMPARE(chart.byMemory.front().memoryBytes, biggest->second); // (ties may name another child)
            QCOMPARE(chart.byMemory.front().memoryBytes, memoryByChild.at(chart.byMemory.front().label));
        }
    }

    // The window's linter reads the `queues` set after the scan, as keylens-cli does: lists it does not name
    // are no library's, and the tree says so.
    void queuesSetDecidesTheLibrary()
    {
        test::PlainClient client(m_server.port());
        QCOMPARE(client.pipeline({{"SELECT", "7"},
                                  {"SADD", "queues", "default"},
                                  {"RPUSH", "queue:default", "a"},
                                  {"RPUSH", "queue:reports", "b"},
                                  {"ZADD", "retry", "1", "c"}}),
                 std::size_t(0));
        const auto libraryOfReports = [&] {
            models::ScanSession session;
            session.start(scanOf(m_server.connectionOptions(), 7), ':');
            waitForFinish(session);
            const keyspace::NodeId reports = session.keyspace().find("queue:reports");
            const QModelIndex index = session.model()->indexOfNode(reports);
            return index.data(KeyTreeModel::LibraryRole).toString();
        };
        QCOMPARE(libraryOfReports(), QString());
        QCOMPARE(client.pipeline({{"SELECT", "7"}, {"SADD", "queues", "reports"}}), std::size_t(0));
        QCOMPARE(libraryOfReports(), QStringLiteral("sidekiq"));
        QCOMPARE(client.pipeline({{"SELECT", "7"}, {"FLUSHDB"}}), std::size_t(0));
    }

    void memoryAndOrderMatchTheServer()
    {
        models::ScanSession session;
        KeyTreeModel* model = session.model();
        session.start(scanOf(m_server.connectionOptions(), 0), ':');
        waitForFinish(session);

        test::PlainClient client(m_server.port());
        std::map<QByteArray, std::uint64_t> memoryBySegment;
        for (const auto& [key, facts] : client.inspectAll())
            memoryBySegment[key.left(key.indexOf(':') < 0 ? key.size() : key.indexOf(':'))] +=
                std::uint64_t(facts.memory);
        // Sorted by memory, biggest first (the default), with the server's sums.
        std::uint64_t previous = std::numeric_limits<std::uint64_t>::max();
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex index = model->index(row, KeyTreeModel::MemoryColumn);
            const std::uint64_t memory = index.data(KeyTreeModel::SortRole).toULongLong();
            QCOMPARE(memory, memoryBySegment[index.data(KeyTreeModel::PathRole).toByteArray()]);
            QVERIFY(memory <= previous);
            previous = memory;
        }
        // The wide parent: 12k children, sorted by name naturally (2 before 10).
        const QModelIndex flat = model->indexOfNode(session.keyspace().find("flat"));
        QVERIFY(flat.isValid());
        model->sort(KeyTreeModel::NameColumn, Qt::AscendingOrder);
        QCOMPARE(model->rowCount(flat), 12000);
        for (int row = 0; row < 12000; row += 997)
            QCOMPARE(model->index(row, 0, flat).data().toString(), QString::number(row));
        model->sort(KeyTreeModel::NameColumn, Qt::DescendingOrder);
        QCOMPARE(model->index(0, 0, flat).data().toString(), QStringLiteral("11999"));

        // Overlays from the server's facts: the 20 KB string is big; session keys expire, 'user' itself
        // has no TTL while most of user:* do not either (no flag), the binary name is escaped.
        const QModelIndex plain = model->indexOfNode(session.keyspace().find("plain"));
        QVERIFY(plain.data(KeyTreeModel::OverlayRole).toInt() & KeyTreeModel::BigKey);
        const QModelIndex session0 = model->indexOfNode(session.keyspace().find("session:0"));
        QVERIFY(session0.isValid());
        QVERIFY(!(session0.data(KeyTreeModel::OverlayRole).toInt() & KeyTreeModel::NoTtlAmongExpiring));
        const QModelIndex bin = model->indexOfNode(session.keyspace().find(QByteArray("bin\xff\x00", 5)));
        QCOMPARE(bin.data().toString(), QStringLiteral("\"bin\\xff\\x00\"")); // quoted: the escapes are not its bytes
    }

    void aBigParentIsInOrderWhenTheScanFinishes()
    {
        // More children than a parent re-sorts live: its last sort runs on a worker, and finished() waits for it.
        constexpr int Wide = 30'000;
        test::PlainClient client(m_server.port());
        writeWideNamespace(client, 2, Wide, 11);

        models::ScanSession session;
        KeyTreeModel* model = session.model();
        QSignalSpy sortsApplied(model, &KeyTreeModel::workerSortApplied);
        scan::ScanOptions options = scanOf(m_server.connectionOptions(), 2);
        options.maxKeysPerSecond = 30'000; // a second: the parent is open while its rows arrive
        // While it fills, the open parent shows no more than a page (a view lays out every row it was told of
        // again on each insertion): the rows are announced until the page is full, then wait.
        int mostShown = 0;
        connect(&session, &models::ScanSession::published, this, [&] {
            if (const keyspace::NodeId wide = session.keyspace().find("wide"); wide != keyspace::InvalidNode)
                mostShown = std::max(mostShown, model->rowCount(model->indexOfNode(wide)));
        });
        // The end of the scan is announced in an event after the one that applied the worker's order, not in it (what
        // listens to finished() walks the tree: the two together held the GUI thread 40-70 ms at ten million keys).
        bool finishedWhileApplying = false;
        connect(model, &KeyTreeModel::workerSortApplied, this, [&] { finishedWhileApplying = !session.isRunning(); });
        session.start(options, ':');
        waitForFinish(session);
        QCOMPARE(sortsApplied.count(), 1);
        QVERIFY(!finishedWhileApplying);
        QVERIFY(!model->isSortingOnWorker());
        QCOMPARE(mostShown, int(KeyTreeModel::RowPage));

        // Biggest first, each with the server's MEMORY USAGE.
        std::map<QByteArray, long long> memory;
        for (const auto& [key, facts] : client.inspectAll())
            memory[key] = facts.memory;
        // A view is shown the first page, and the next when it shows the last row it has (asks for its data),
        // not for any other row. The order runs across pages.
        const QModelIndex wide = model->indexOfNode(session.keyspace().find("wide"));
        QCOMPARE(model->rowCount(wide), int(KeyTreeModel::RowPage));
        model->index(int(KeyTreeModel::RowPage) - 2, KeyTreeModel::KeysColumn, wide).data();
        QTest::qWait(20);
        QCOMPARE(model->rowCount(wide), int(KeyTreeModel::RowPage));
        // A key on a page not fetched yet (selected from a finding, say) is shown with the rows up to it.
        const auto smallest = std::min_element(memory.begin(), memory.end(),
                                               [](const auto& a, const auto& b) { return a.second < b.second; });
        const QModelIndex last = model->indexOfNode(session.keyspace().find(smallest->first));
        QVERIFY(last.isValid());
        QVERIFY(last.row() >= int(KeyTreeModel::RowPage));
        QCOMPARE(model->rowCount(wide), last.row() + 1);
        QCOMPARE(model->index(last.row(), 0, wide), last);
        QVERIFY(model->hasMoreRows(wide));
        model->index(model->rowCount(wide) - 1, KeyTreeModel::NameColumn, wide).data();
        QTRY_COMPARE(model->rowCount(wide), Wide);
        QVERIFY(!model->hasMoreRows(wide));
        long long previous = std::numeric_limits<long long>::max();
        for (int row = 0; row < Wide; ++row) {
            const QModelIndex index = model->index(row, KeyTreeModel::MemoryColumn, wide);
            const auto bytes = index.data(KeyTreeModel::SortRole).toLongLong();
            QCOMPARE(bytes, memory.at(index.data(KeyTreeModel::PathRole).toByteArray()));
            QVERIFY2(bytes <= previous, qPrintable(QStringLiteral("row %1").arg(row)));
            previous = bytes;
        }
        QCOMPARE(client.command({"FLUSHDB"}), QByteArray("OK"));
    }

    // A click on a header as the scan ends, while a big parent's rows are still being copied for the worker's sort
    // (a slice at a time where no room was made ahead for them), wins over that sort: the rows end in the clicked
    // order, and the scan is still announced once the worker is done.
    void aHeaderClickAsTheScanEndsWins()
    {
        constexpr int Wide = 25'000; // 200 KB of rows: too few for room made ahead, so copied in slices
        test::PlainClient client(m_server.port());
        writeWideNamespace(client, 3, Wide, 12);

        models::ScanSession session;
        KeyTreeModel* model = session.model();
        QSignalSpy sortsApplied(model, &KeyTreeModel::workerSortApplied);
        bool clicked = false;
        connect(&session, &models::ScanSession::published, this, [&] {
            if (const keyspace::NodeId wide = session.keyspace().find("wide"); wide != keyspace::InvalidNode)
                model->rowCount(model->indexOfNode(wide)); // shown, as an open namespace is
            if (!clicked && model->isSortingOnWorker()) {
                clicked = true;
                model->sort(KeyTreeModel::NameColumn, Qt::AscendingOrder);
            }
        });
        session.start(scanOf(m_server.connectionOptions(), 3), ':');
        waitForFinish(session);
        QVERIFY(clicked);
        QCOMPARE(sortsApplied.count(), 1);
        QVERIFY(!model->isSortingOnWorker());

        const QModelIndex wide = model->indexOfNode(session.keyspace().find("wide"));
        QCOMPARE(model->rowCount(wide), int(KeyTreeModel::RowPage));
        for (int row = 0; row < model->rowCount(wide); ++row) // ids as numbers: wide:0, wide:1, ...
            QCOMPARE(model->index(row, KeyTreeModel::NameColumn, wide).data().toString(), QString::number(row));
        QCOMPARE(client.command({"FLUSHDB"}), QByteArray("OK"));
    }

    void pauseResumeAndCancel()
    {
        models::ScanSession session;
        scan::ScanOptions options = scanOf(m_server.connectionOptions(), 0);
        options.count = 100;
        options.maxKeysPerSecond = 5000; // ~6 s for the whole of db 0: time to pause in the middle
        session.start(options, ':');
        QTRY_VERIFY_WITH_TIMEOUT(session.keyspace().keyCount() > 1000, 10000);
        session.pause();
        QTRY_VERIFY_WITH_TIMEOUT(session.lastProgress() && session.lastProgress()->paused, 3000);
        // What was in flight lands: the count holds still across two looks 300 ms apart (however slow the machine).
        std::uint64_t paused = session.keyspace().keyCount();
        const auto settled = [&] {
            const std::uint64_t before = paused;
            QTest::qWait(300);
            paused = session.keyspace().keyCount();
            return paused == before;
        };
        QTRY_VERIFY_WITH_TIMEOUT(settled(), 10000);
        QTest::qWait(700);
        QCOMPARE(session.keyspace().keyCount(), paused);
        QVERIFY(session.isRunning());
        session.resume();
        QTRY_VERIFY_WITH_TIMEOUT(session.keyspace().keyCount() > paused, 5000);
        QSignalSpy finished(&session, &models::ScanSession::finished);
        session.cancel();
        QVERIFY(finished.wait(3000));
        QVERIFY(session.summary()->cancelled);
        QVERIFY(!session.summary()->complete);
        QVERIFY(!session.isRunning());
    }

    void filterShowsMatchesWithTheirAncestors()
    {
        models::ScanSession session;
        KeyTreeModel* model = session.model();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model->setFilter(keyspace::KeyGlob("user:1?:*")); // set before the scan: applies as keys arrive
        session.start(scanOf(m_server.connectionOptions(), 1), ':');
        waitForFinish(session);

        test::PlainClient client(m_server.port());
        QCOMPARE(client.command({"SELECT", "1"}), QByteArray("OK"));
        const std::vector<QByteArray> expected = client.allKeys("user:1?:*");
        QCOMPARE(model->filterMatches(), std::uint64_t(expected.size()));
        QCOMPARE(model->rowCount(), 1); // only 'user', as the ancestor of the matches
        const QModelIndex user = model->index(0, 0);
        QCOMPARE(user.data(KeyTreeModel::PathRole).toByteArray(), QByteArray("user"));
        QCOMPARE(model->rowCount(user), 10); // user:10 .. user:19
        std::set<QByteArray> shown;
        for (int row = 0; row < model->rowCount(user); ++row) {
            const QModelIndex id = model->index(row, 0, user);
            for (int leaf = 0; leaf < model->rowCount(id); ++leaf)
                shown.insert(model->index(leaf, 0, id).data(KeyTreeModel::KeyBytesRole).toByteArray());
        }
        QCOMPARE(shown, std::set<QByteArray>(expected.begin(), expected.end()));
        // Every row counts the matches below it ("3 of 18,776"), as the keys arrived and when the filter is set
        // on the whole store at once.
        const auto matchesUnder = [&](const QByteArray& prefix) {
            return std::uint64_t(std::count_if(expected.begin(), expected.end(),
                                               [&](const QByteArray& key) { return key.startsWith(prefix); }));
        };
        for (const bool again : {false, true}) {
            if (again)
                model->setFilter(keyspace::KeyGlob("user:1?:*"));
            const QModelIndex top = model->index(0, 0);
            QCOMPARE(model->matchingKeysOf(model->nodeOf(top)), std::uint64_t(expected.size()));
            QCOMPARE(model->matchingKeysOf(keyspace::Keyspace::root()), std::uint64_t(expected.size()));
            for (int row = 0; row < model->rowCount(top); ++row) {
                const QModelIndex id = model->index(row, 0, top);
                const QByteArray path = id.data(KeyTreeModel::PathRole).toByteArray();
                QCOMPARE(model->matchingKeysOf(model->nodeOf(id)), matchesUnder(path + ':'));
            }
        }
    }

    // A key of 100,000 segments: the model, the filter and the top-keys walk stay iterative.
    void keyOfAHundredThousandSegments()
    {
        keyspace::Keyspace store;
        keyspace::KeyInfo info;
        info.type = keyspace::KeyType::String;
        info.memoryBytes = 64;
        info.memoryMeasured = true;
        const QByteArray deep = "deep" + QByteArray(99'999, ':');
        store.insert(deep, info);
        store.insert("shallow:1", info);
        KeyTreeModel model;
        model.setKeyspace(&store);
        model.publish(true);
        const keyspace::NodeId leaf = store.find(deep);
        QVERIFY(leaf != keyspace::InvalidNode);
        QModelIndex index = model.indexOfNode(leaf);
        QVERIFY(index.isValid());
        QCOMPARE(index.data(KeyTreeModel::KeyBytesRole).toByteArray(), deep);
        int depth = 0;
        for (QModelIndex up = index; up.isValid(); up = up.parent())
            ++depth;
        QCOMPARE(depth, 100'000);
        QCOMPARE(keyspace::topKeysByMemory(store, 5, store.find("deep")).size(), std::size_t(1));
        model.setFilter(keyspace::KeyGlob("deep:*"));
        QCOMPARE(model.filterMatches(), std::uint64_t(1));
        QVERIFY(model.indexOfNode(leaf).isValid());
        QVERIFY(!model.indexOfNode(store.find("shallow:1")).isValid());
        // The key itself as the filter: a literal head of 100,000 segments, followed down the tree segment by segment.
        model.setFilter(keyspace::KeyGlob(keyspace::KeyGlob::escaped(deep)));
        QCOMPARE(model.filterMatches(), std::uint64_t(1));
        QVERIFY(model.indexOfNode(leaf).isValid());
        model.setFilter(keyspace::KeyGlob(keyspace::KeyGlob::escaped(deep.chopped(1))));
        QCOMPARE(model.filterMatches(), std::uint64_t(0));
    }

    // A shown row that was a plain key gets its expand arrow when its first child arrives (a view asks hasChildren()
    // of it again only when told), and only then: a row that had children already is not announced again.
    void aKeyThatGetsChildrenGetsItsArrow()
    {
        keyspace::Keyspace store;
        keyspace::KeyInfo info;
        info.type = keyspace::KeyType::String;
        store.insert("user:1", info);
        store.insert("user:2", info);
        store.insert("user:2:old", info);
        KeyTreeModel model; // no model tester: it would ask every row for its children, as no view does
        model.setKeyspace(&store);
        model.publish(false);
        const QModelIndex user = model.indexOfNode(store.find("user"));
        QCOMPARE(model.rowCount(user), 2); // shown
        const QModelIndex first = model.indexOfNode(store.find("user:1"));
        const QModelIndex second = model.indexOfNode(store.find("user:2"));
        QVERIFY(!model.hasChildren(first));
        QVERIFY(model.hasChildren(second));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        store.insert("user:1:profile", info);
        store.insert("user:1:settings", info);
        store.insert("user:2:new", info);
        store.insert("user:3", info);
        store.insert("user:3:profile", info);
        model.publish(false);
        QVERIFY(model.hasChildren(first));
        const auto told = [&](const QModelIndex& row) {
            return std::any_of(changed.begin(), changed.end(), [&](const QList<QVariant>& signal) {
                const auto topLeft = signal.at(0).value<QModelIndex>();
                return topLeft.parent() == row.parent() && topLeft.row() == row.row() &&
                       topLeft.column() == KeyTreeModel::NameColumn;
            });
        };
        QVERIFY(told(model.indexOfNode(store.find("user:1"))));
        QVERIFY(!told(model.indexOfNode(store.find("user:2"))));
        QVERIFY(model.hasChildren(model.indexOfNode(store.find("user:3"))));
    }

    // The session's scan thread and the thread that frees the last scan run at background priority, so that they
    // take what the GUI thread leaves of a shared core; the GUI thread keeps its own. Read from /proc, by thread name.
    void scanThreadsYieldToTheGuiThread()
    {
        const int guiNice = niceOf(QByteArray::number(gettid()));
        models::ScanSession session;
        session.start(scanOf(m_server.connectionOptions(), 0), ':');
        waitForFinish(session);
        session.start(scanOf(m_server.connectionOptions(), 0), ':'); // lets go of the first scan
        waitForFinish(session);
        const std::map<QByteArray, int> threads = threadNices();
        QVERIFY(threads.count("keylens-scan"));
        QCOMPARE(threads.at("keylens-scan"), std::max(guiNice, 10));
        QVERIFY(threads.count("keylens let go"));
        QCOMPARE(threads.at("keylens let go"), std::max(guiNice, 10));
        QCOMPARE(niceOf(QByteArray::number(gettid())), guiNice);
    }

    // PTTL denied: the TTL column says "not measured", never "no TTL" or a share of 0%.
    void unknownTtlIsNotMeasured()
    {
        keyspace::Keyspace store;
        keyspace::KeyInfo unknown;
        unknown.type = keyspace::KeyType::Hash;
        unknown.expiresAtMs = keyspace::ExpiryUnknown;
        for (int i = 0; i < 5; ++i)
            store.insert(QByteArray("cart:" + QByteArray::number(i)), unknown);
        KeyTreeModel model;
        model.setKeyspace(&store);
        model.publish(true);
        const QModelIndex cart = model.indexOfNode(store.find("cart"), KeyTreeModel::TtlColumn);
        QCOMPARE(cart.data().toString(), QStringLiteral("not measured"));
        const QModelIndex key = model.indexOfNode(store.find("cart:3"), KeyTreeModel::TtlColumn);
        QCOMPARE(key.data().toString(), QStringLiteral("not measured"));
        QCOMPARE(model.overlaysOf(store.find("cart:3"), 0) & KeyTreeModel::NoTtlAmongExpiring, 0);
        QCOMPARE(store.stats(store.find("cart")).keysWithoutTtl(), 0u);
    }

    // Under a filter, matching keys whose memory nobody measured are unknown memory, not 0 B; some of them make the
    // figure a lower bound, as it is without a filter.
    void filteredMemoryOfUnmeasuredKeysIsNotZero()
    {
        keyspace::Keyspace store;
        keyspace::KeyInfo measured;
        measured.type = keyspace::KeyType::String;
        measured.memoryBytes = 100;
        measured.memoryMeasured = true;
        keyspace::KeyInfo unmeasured;
        unmeasured.type = keyspace::KeyType::Set;
        for (const char* key : {"mix:m1", "mix:m2", "mix:m3"})
            store.insert(key, measured);
        for (const char* key : {"mix:u1", "mix:u2"})
            store.insert(key, unmeasured);
        KeyTreeModel model;
        model.setKeyspace(&store);
        model.publish(true);
        const keyspace::NodeId mix = store.find("mix");
        const auto cell = [&](int column) { return model.indexOfNode(mix, column).data().toString(); };
        QCOMPARE(cell(KeyTreeModel::MemoryColumn), QStringLiteral("\u2265 300 B"));

        model.setFilter(keyspace::KeyGlob("mix:u*"));
        QCOMPARE(cell(KeyTreeModel::KeysColumn), QStringLiteral("2 of 5"));
        QCOMPARE(cell(KeyTreeModel::MemoryColumn), QStringLiteral("–"));
        QVERIFY(!model.matchingMemoryOf(mix).known());
        QVERIFY(model.indexOfNode(mix, KeyTreeModel::MemoryColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("with n/a of memory")));

        model.setFilter(keyspace::KeyGlob("mix:*1"));
        QCOMPARE(cell(KeyTreeModel::KeysColumn), QStringLiteral("2 of 5"));
        QCOMPARE(cell(KeyTreeModel::MemoryColumn), QStringLiteral("\u2265 100 B"));

        model.setFilter(keyspace::KeyGlob("mix:m*"));
        QCOMPARE(cell(KeyTreeModel::MemoryColumn), QStringLiteral("300 B"));
        const keyspace::MemoryFigure figure = model.matchingMemoryOf(mix);
        QCOMPARE(figure.bytes, std::uint64_t(300));
        QCOMPARE(figure.keys, std::uint64_t(3));
        QVERIFY(!figure.atLeast());
    }
};

QTEST_GUILESS_MAIN(TestKeyTreeModel)
#include "tst_keytreemodel.moc"
