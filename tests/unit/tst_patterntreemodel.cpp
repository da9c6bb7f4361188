// The pattern model without a server: a store filled in chunks with publishes in between (a scan as the
// model sees it) under QAbstractItemModelTester, the swap to the exact tree, parents of 50,000 children: one
// of ids (a placeholder whose members page in) and one of words (50,000 rows), and the row core it shares with
// the raw tree: where there is nothing to fold, both trees show the same rows in the same order.
#include "TestKeys.h"
#include "keyspace/Keyspace.h"
#include "models/KeyTreeModel.h"
#include "models/PatternTreeModel.h"

#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <map>

using namespace keylens;
using models::PatternTreeModel;

namespace {

void add(keyspace::Keyspace& store, const QByteArray& key, std::uint64_t memory)
{
    store.insert(key, test::measuredKey(keyspace::KeyType::String, memory));
}

// A lower-case word for a number: base 26 over a-z, so that no two are alike and none is an id.
QByteArray word(int n)
{
    QByteArray out = "w";
    do {
        out += char('a' + n % 26);
        n /= 26;
    } while (n > 0);
    return out;
}

QModelIndex childNamed(const PatternTreeModel& model, const QModelIndex& parent, const QString& name)
{
    for (int row = 0; row < model.rowCount(parent); ++row) {
        const QModelIndex index = model.index(row, 0, parent);
        if (index.data().toString() == name)
            return index;
    }
    return {};
}

} // namespace

class TestPatternTreeModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void liveFoldingUnderTheModelTester()
    {
        keyspace::Keyspace store;
        PatternTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setKeyspace(&store);
        model.setActive(true);
        QPersistentModelIndex user;
        for (int i = 0; i < 400; ++i) {
            add(store, "user:" + QByteArray::number(i) + ":profile", 100 + std::uint64_t(i));
            if (i % 3 == 0)
                add(store, "user:" + QByteArray::number(i) + ":settings", 50);
            if (i % 40 == 0)
                add(store, "config:" + word(i), 10);
            if (i % 25 == 24) {
                model.publish(false);
                // Behave like a view: open what exists.
                for (int row = 0; row < model.rowCount(); ++row) {
                    const QModelIndex top = model.index(row, 0);
                    if (top.data(PatternTreeModel::PathRole).toByteArray() == "user")
                        user = top;
                    for (int child = 0; child < model.rowCount(top); ++child)
                        model.rowCount(model.index(child, 0, top));
                }
                if (i == 99)
                    model.sort(PatternTreeModel::NameColumn, Qt::AscendingOrder);
                if (i == 199)
                    model.sort(PatternTreeModel::KeysColumn, Qt::DescendingOrder);
            }
        }
        model.publish(false);
        QVERIFY(user.isValid());
        QCOMPARE(user.data(PatternTreeModel::PathRole).toByteArray(), QByteArray("user"));
        QVERIFY(!model.isExact());
        // Live, every id folds: `config` has few children, but they are words and stay.
        const QModelIndex ids = childNamed(model, user, QStringLiteral("<int>"));
        QVERIFY(ids.isValid());
        // While a scan runs, totals are read again once a second, even when no publish follows (a pause).
        QTRY_COMPARE_WITH_TIMEOUT(model.totalsOf(model.patternOf(ids)).keys, std::uint64_t(400 + 134), 3000);

        QSignalSpy exact(&model, &PatternTreeModel::exactTreeReady);
        model.publish(true);
        QVERIFY(exact.wait(10000));
        QVERIFY(model.isExact());
        const QModelIndex userAgain = childNamed(model, {}, QStringLiteral("user"));
        QVERIFY(userAgain.isValid());
        const QModelIndex placeholder = childNamed(model, userAgain, QStringLiteral("<int>"));
        QVERIFY(placeholder.isValid());
        // Its members page in, biggest first: user:399 holds the biggest profile.
        const QModelIndex members = model.index(model.rowCount(placeholder) - 1, 0, placeholder);
        QCOMPARE(model.kindOf(members), PatternTreeModel::RowKind::Members);
        while (model.hasMoreRows(members)) // (the tester may have fetched them all already)
            model.showMoreRows(members);
        QCOMPARE(model.rowCount(members), 400);
        QVERIFY(!model.hasMoreRows(members));
        QCOMPARE(model.index(0, 0, members).data(PatternTreeModel::PathRole).toByteArray(), QByteArray("user:399"));
        QCOMPARE(model.index(0, 0, members).parent(), members);
        // A key's pattern, in the exact tree as in the live one.
        QCOMPARE(model.tree()->text(model.patternOfNode(store.find("user:7:profile"))),
                 QByteArray("user:<int>:profile"));
    }

    // One row core (RowTreeModel): a keyspace without ids has the same rows in both trees, and every column
    // orders them alike, in both directions, names naturally (2 before 10, `Beta` beside `beta`).
    void bothTreesOrderAlike()
    {
        keyspace::Keyspace store;
        const QList<QByteArray> names = {"beta", "Beta",  "alpha", "Gamma", "delta", "v10",
                                         "v2",   "x-ray", "zulu",  "Echo",  "echo2", "kilo"};
        const std::int64_t soon = QDateTime::currentMSecsSinceEpoch() + 3'600'000;
        for (int i = 0; i < names.size(); ++i) {
            // Distinct counts, sizes and expiries, so that no order rests on a tie.
            const auto type = keyspace::KeyType(1 + i % 3);
            for (int j = 0; j <= i; ++j) {
                const std::int64_t expiry = j == 0 ? soon + std::int64_t(i) * 60'000 : keyspace::NoExpiry;
                store.insert(
                    QByteArray(names[i] + ":" + word(j)),
                    test::measuredKey(type, 1000 * std::uint64_t(i % 5 + 1) + 7 * std::uint64_t(i) + std::uint64_t(j),
                                      expiry));
            }
        }
        models::KeyTreeModel raw;
        raw.setKeyspace(&store);
        PatternTreeModel patterns;
        patterns.setKeyspace(&store);
        patterns.setActive(true);
        QSignalSpy exact(&patterns, &PatternTreeModel::exactTreeReady);
        patterns.publish(true);
        QVERIFY(exact.wait(10000));
        const auto order = [](const QAbstractItemModel& model) {
            QList<QByteArray> paths;
            for (int row = 0; row < model.rowCount(); ++row)
                paths << model.index(row, 0).data(PatternTreeModel::PathRole).toByteArray();
            return paths;
        };
        for (int column = 0; column < PatternTreeModel::ColumnCount; ++column) {
            if (column == PatternTreeModel::FindingsColumn)
                continue; // no findings here: every row ties, and ties go by id, which differ between the trees
            for (const Qt::SortOrder sortOrder : {Qt::AscendingOrder, Qt::DescendingOrder}) {
                raw.sort(column, sortOrder);
                patterns.sort(column, sortOrder);
                QCOMPARE(order(patterns), order(raw));
            }
        }
        raw.sort(PatternTreeModel::NameColumn, Qt::AscendingOrder);
        patterns.sort(PatternTreeModel::NameColumn, Qt::AscendingOrder);
        const QList<QByteArray> byName = {"alpha", "Beta", "beta", "delta", "Echo",  "echo2",
                                          "Gamma", "kilo", "v10",  "v2",    "x-ray", "zulu"};
        QCOMPARE(order(patterns), byName);
        raw.sort(PatternTreeModel::MemoryColumn, Qt::DescendingOrder);
        patterns.sort(PatternTreeModel::MemoryColumn, Qt::DescendingOrder);
        for (int row = 1; row < raw.rowCount(); ++row)
            QVERIFY(raw.index(row - 1, PatternTreeModel::MemoryColumn).data(PatternTreeModel::SortRole).toULongLong() >=
                    raw.index(row, PatternTreeModel::MemoryColumn).data(PatternTreeModel::SortRole).toULongLong());
    }

    // The row core repaints a parent of more than a thousand shown rows only where a view asked for them (a view
    // repaints what it shows, and QTreeView visits every row of a changed range): here rows 40 to 59.
    void aBigParentRepaintsTheRowsAViewAskedFor()
    {
        keyspace::Keyspace store;
        for (int i = 0; i < 5'000; ++i)
            add(store, "big:" + QByteArray::number(i), 100);
        models::KeyTreeModel raw;
        raw.setKeyspace(&store);
        raw.publish(false);
        const QModelIndex big = raw.index(0, 0);
        QCOMPARE(raw.rowCount(big), 5'000);
        const auto repaintsOfBig = [&](const QSignalSpy& spy) {
            QList<std::pair<int, int>> ranges;
            for (const QList<QVariant>& signal : spy) {
                const auto topLeft = signal.at(0).value<QModelIndex>();
                if (topLeft.parent() == big)
                    ranges.append({topLeft.row(), signal.at(1).value<QModelIndex>().row()});
            }
            return ranges;
        };

        for (int row = 59; row >= 40; --row)
            raw.index(row, PatternTreeModel::KeysColumn, big).data();
        QSignalSpy changed(&raw, &QAbstractItemModel::dataChanged);
        add(store, "big:5000", 100);
        raw.publish(false);
        QCOMPARE(raw.rowCount(big), 5'001);
        QCOMPARE(repaintsOfBig(changed), (QList<std::pair<int, int>>{{40, 59}}));

        // Nothing asked since: nothing to repaint. (The root's one row is repainted whole, as any small parent.)
        changed.clear();
        add(store, "big:5001", 100);
        raw.publish(true);
        QVERIFY(repaintsOfBig(changed).isEmpty());
        QVERIFY(!changed.isEmpty());
    }

    // A placeholder of 50,000 members, and a parent of 50,000 word children (50,000 rows).
    // The view first shown after a scan of many keys folds them a slice at a time (rows appear as it goes) while the
    // exact tree is built; the totals it ends with are the store's own.
    void aBigFinishedStoreFoldsInSlices()
    {
        keyspace::Keyspace store;
        std::map<QByteArray, std::pair<std::uint64_t, std::uint64_t>> byTop; // keys and memory per first segment
        for (int i = 0; i < 120'000; ++i) {
            const QByteArray top = "tenant" + QByteArray::number(i % 7);
            const std::uint64_t memory = 10 + std::uint64_t(i % 91);
            add(store, top + ":user:" + QByteArray::number(i) + ":profile", memory);
            byTop[top].first += 1;
            byTop[top].second += memory;
        }
        PatternTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setKeyspace(&store);
        model.publish(true); // the scan ended while another view showed
        QSignalSpy exact(&model, &PatternTreeModel::exactTreeReady);
        model.setActive(true);
        QVERIFY(model.tree() != nullptr);
        QVERIFY2(model.tree()->foldedNodes() < store.nodeCount(), "folded all at once");
        int sawRowsWhileFolding = 0;
        QElapsedTimer waited;
        waited.start();
        while (exact.isEmpty() && waited.elapsed() < 60'000) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
            if (model.tree() && model.tree()->isLive() && model.tree()->foldedNodes() < store.nodeCount())
                sawRowsWhileFolding = std::max(sawRowsWhileFolding, model.rowCount());
        }
        QCOMPARE(exact.count(), 1);
        QVERIFY(sawRowsWhileFolding > 0);
        QCOMPARE(model.rowCount(), 7);
        for (const auto& [top, figures] : byTop) {
            const QModelIndex row = childNamed(model, {}, QString::fromLatin1(top));
            QVERIFY(row.isValid());
            const keyspace::SubtreeTotals totals = model.totalsOf(model.patternOf(row));
            QCOMPARE(totals.keys, figures.first);
            QCOMPARE(totals.memoryBytes, figures.second);
        }
    }

    void fiftyThousandChildren()
    {
        keyspace::Keyspace store;
        for (int i = 0; i < 50'000; ++i) {
            add(store, "flat:" + QByteArray::number(i), 1 + std::uint64_t(i % 1000));
            add(store, "words:" + word(i), 1 + std::uint64_t(i % 777));
        }
        PatternTreeModel model;
        model.setKeyspace(&store);
        model.setActive(true);
        QSignalSpy exact(&model, &PatternTreeModel::exactTreeReady);
        model.publish(true);
        QVERIFY(exact.wait(30000));

        const QModelIndex flat = childNamed(model, {}, QStringLiteral("flat"));
        const QModelIndex ids = model.index(0, 0, flat);
        QCOMPARE(ids.data().toString(), QStringLiteral("<int>"));
        QCOMPARE(model.totalsOf(model.patternOf(ids)).keys, std::uint64_t(50'000));
        const QModelIndex members = model.index(0, 0, ids);
        QCOMPARE(model.kindOf(members), PatternTreeModel::RowKind::Members);
        QCOMPARE(model.rowCount(members), PatternTreeModel::MemberPage);
        QVERIFY(model.hasMoreRows(members));
        model.showMoreRows(members);
        QCOMPARE(model.rowCount(members), 2 * PatternTreeModel::MemberPage);
        QCOMPARE(model.index(0, PatternTreeModel::MemoryColumn, members).data(PatternTreeModel::SortRole).toULongLong(),
                 1000ull);

        // A view is shown the first page of a parent; the biggest row comes first whatever page it was on.
        const QModelIndex words = childNamed(model, {}, QStringLiteral("words"));
        QCOMPARE(model.rowCount(words), int(PatternTreeModel::RowPage));
        QElapsedTimer timer;
        timer.start();
        model.sort(PatternTreeModel::NameColumn, Qt::AscendingOrder);
        qInfo("sorting 50,000 pattern rows by name: %lld ms", timer.elapsed());
        QCOMPARE(model.index(0, 0, words).data().toString(), QStringLiteral("wa"));
        model.sort(PatternTreeModel::MemoryColumn, Qt::DescendingOrder);
        const QModelIndex biggest = model.index(0, PatternTreeModel::MemoryColumn, words);
        QCOMPARE(biggest.data(PatternTreeModel::SortRole).toULongLong(), 777ull);
        QCOMPARE(biggest.parent(), words.siblingAtColumn(0));
        // The rest a page at a time, as a view scrolls.
        for (int page = 2; page <= 3; ++page) {
            QVERIFY(model.hasMoreRows(words));
            model.showMoreRows(words);
            QCOMPARE(model.rowCount(words), std::min(page * int(PatternTreeModel::RowPage), 50'000));
        }
        QVERIFY(!model.hasMoreRows(words));
        // Every row's parent is its parent, and the rows total their parent.
        std::uint64_t keys = 0;
        for (int row = 0; row < model.rowCount(words); ++row) {
            const QModelIndex index = model.index(row, PatternTreeModel::KeysColumn, words);
            QCOMPARE(index.parent(), words.siblingAtColumn(0));
            keys += index.data(PatternTreeModel::SortRole).toULongLong();
        }
        QCOMPARE(keys, std::uint64_t(50'000));
    }
};

QTEST_GUILESS_MAIN(TestPatternTreeModel)
#include "tst_patterntreemodel.moc"
