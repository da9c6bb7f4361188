// A snapshot lists the same namespaces whatever it is taken from: a scan's store (the window), a report (the CLI's
// scan --snapshot) or a report's JSON (diff OLD.json), and its caps sum what they leave out into the parents.
#include "TestKeys.h"
#include "history/SnapshotOfJsonReport.h"
#include "history/SnapshotOfScan.h"
#include "report/JsonReport.h"

#include <QTest>

using namespace keylens;
using keylens::test::measuredKey;
using keyspace::KeyType;

namespace {

// 12 top-level namespaces t<i> of i+1 keys each under three sub-namespaces; and two loose keys.
keyspace::Keyspace sampleKeyspace()
{
    keyspace::Keyspace store;
    for (int i = 0; i < 12; ++i) {
        for (int k = 0; k <= i; ++k)
            store.insert(QByteArray("t" + QByteArray::number(i) + ":s" + QByteArray::number(k % 3) + ":" +
                                    QByteArray::number(k)),
                         measuredKey(KeyType::Hash, 100 + std::uint64_t(i)));
    }
    store.insert("loose", measuredKey(KeyType::String, 5));
    store.insert("another", measuredKey(KeyType::List, 7));
    return store;
}

scan::ScanSummary completeScan()
{
    scan::ScanSummary summary;
    summary.complete = true;
    summary.server.address = QStringLiteral("127.0.0.1:6379");
    summary.server.dbsize = 80;
    return summary;
}

struct Listed
{
    QByteArray path;
    std::uint32_t parent;
    std::uint64_t keys;
    history::Unlisted unlisted;
    bool operator==(const Listed&) const = default;
};

std::vector<Listed> listed(const history::Snapshot& snapshot)
{
    std::vector<Listed> out;
    for (const history::SnapshotNamespace& entry : snapshot.namespaces)
        out.push_back({entry.path, entry.parent, entry.stats.keys, entry.unlisted});
    return out;
}

// Every key is listed once: in a listed namespace's own keys beneath it, or in an Unlisted sum.
std::uint64_t keysAccountedFor(const history::Snapshot& snapshot)
{
    std::uint64_t keys = snapshot.unlistedTopLevel.keys;
    for (const history::SnapshotNamespace& entry : snapshot.namespaces) {
        if (entry.parent == history::SnapshotNamespace::TopLevel)
            keys += entry.stats.keys;
    }
    return keys;
}

} // namespace

class TestSnapshotSources : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void storeAndReportListTheSame_data()
    {
        QTest::addColumn<int>("topWidth");
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("total");
        QTest::newRow("no cap reached") << 100 << 100 << 1000;
        QTest::newRow("widths cut") << 5 << 2 << 1000;
        QTest::newRow("the total cuts the second level") << 8 << 3 << 11;
        QTest::newRow("the total cuts the top level") << 100 << 3 << 6;
    }
    void storeAndReportListTheSame()
    {
        QFETCH(int, topWidth);
        QFETCH(int, width);
        QFETCH(int, total);
        const keyspace::Keyspace store = sampleKeyspace();
        history::SnapshotLimits limits;
        limits.depth = 2;
        limits.width = width;
        limits.topWidth = topWidth;
        limits.total = std::size_t(total);
        const std::int64_t at = 1'790'000'000'000;

        const std::optional<history::Snapshot> ofStore =
            history::snapshotOfStore(store, completeScan(), at, nullptr, limits);
        QVERIFY(ofStore);
        const report::ScanReport report =
            report::buildReport(store, completeScan(), 0, history::snapshotReportOptions(limits), at);
        const history::Snapshot ofReport = history::snapshotOf(report, limits);

        QCOMPARE(listed(*ofStore), listed(ofReport));
        QCOMPARE(ofStore->unlistedTopLevel, ofReport.unlistedTopLevel);
        QVERIFY(ofStore->namespaces.size() <= std::size_t(total));
        // 78 keys in the namespaces and 2 loose ones; the loose keys are no namespace's.
        QCOMPARE(keysAccountedFor(*ofStore), std::uint64_t(78));
        for (std::size_t i = 0; i < ofStore->namespaces.size(); ++i) {
            const std::uint32_t parent = ofStore->namespaces[i].parent;
            QVERIFY(parent == history::SnapshotNamespace::TopLevel || parent < i); // parents first
        }
    }

    void aReportsJsonListsWhatTheReportDoes()
    {
        const keyspace::Keyspace store = sampleKeyspace();
        history::SnapshotLimits limits;
        limits.depth = 2;
        limits.width = 2;
        limits.topWidth = 7;
        const std::int64_t at = 1'790'000'000'000;
        const report::ScanReport report =
            report::buildReport(store, completeScan(), 0, history::snapshotReportOptions(limits), at);
        QString error;
        const std::optional<history::Snapshot> ofJson =
            history::snapshotOfJsonReport(report::toJson(report), 0, &error);
        QVERIFY2(ofJson, qPrintable(error));
        const history::Snapshot ofReport = history::snapshotOf(report, limits);
        QCOMPARE(listed(*ofJson), listed(ofReport));
        QCOMPARE(ofJson->unlistedTopLevel, ofReport.unlistedTopLevel);
        QCOMPARE(ofJson->listedDepth, 2);
        QCOMPARE(ofJson->namespaces.size(), std::size_t(7 + 7 * 2));
    }
};

QTEST_GUILESS_MAIN(TestSnapshotSources)
#include "tst_snapshotsources.moc"
