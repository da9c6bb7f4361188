// The snapshot file format (docs/snapshot-format.md): what is written is read back equal, and every kind of bad file
// is refused with a sentence that says what is wrong, never read as a smaller snapshot.
#include "history/Gzip.h"
#include "history/SnapshotDiff.h"
#include "history/SnapshotFile.h"
#include "history/SnapshotSeries.h"
#include "history/SnapshotStore.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace keylens;
using namespace keylens::history;

namespace {

SnapshotStats statsWith(std::uint64_t keys, std::uint64_t memory, std::uint64_t withTtl = 0)
{
    SnapshotStats stats;
    stats.keys = keys;
    stats.memoryBytes = memory;
    stats.keysWithTtl = withTtl;
    stats.types[0] = keys;
    if (withTtl) {
        stats.soonestExpiryMs = 1'700'000'000'000;
        stats.latestExpiryMs = 1'800'000'000'000;
    }
    return stats;
}

Snapshot sample()
{
    Snapshot snapshot;
    snapshot.takenAtMs = 1'790'000'000'123;
    snapshot.complete = true;
    snapshot.server = {"127.0.0.1:6379", "abcdef0123", "7.0.15", 3, 1200, 987654321};
    snapshot.delimiters = ":/";
    snapshot.profile = "default";
    snapshot.keysScanned = 1200;
    snapshot.listedDepth = 2;
    snapshot.totals = statsWith(1200, 5'000'000, 300);
    snapshot.unlistedTopLevel = {2, 7, 900};
    snapshot.namespaces.push_back({SnapshotNamespace::TopLevel, "user:", statsWith(1000, 4'000'000), "", {}});
    snapshot.namespaces.push_back({0, "user:1:", statsWith(10, 40'000, 10), "", {5, 50, 500}});
    // A binary path, bytes end to end.
    snapshot.namespaces.push_back(
        {SnapshotNamespace::TopLevel, QByteArray("\xff\x00\x01:", 4), statsWith(3, 30), "bullmq", {}});
    snapshot.patterns.push_back({"user:<int>:profile", statsWith(1000, 4'000'000), ""});
    snapshot.findingsByRule.push_back({"missing-ttl", 42});
    snapshot.libraries.push_back({"bullmq", 3, 30});
    return snapshot;
}

QString decodeError(const QByteArray& bytes)
{
    QString error;
    const std::optional<Snapshot> decoded = decodeSnapshot(bytes, &error);
    return decoded ? QString() : error;
}

} // namespace

class TestSnapshotFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void writtenIsReadBackEqual()
    {
        const Snapshot snapshot = sample();
        const QByteArray bytes = encodeSnapshot(snapshot);
        QString error;
        const std::optional<Snapshot> decoded = decodeSnapshot(bytes, &error);
        QVERIFY2(decoded, qPrintable(error));
        QVERIFY(*decoded == snapshot);
        QCOMPARE(decoded->namespaces[2].path, QByteArray("\xff\x00\x01:", 4));
        QVERIFY(!decoded->totals.soonestExpiryMs || *decoded->totals.soonestExpiryMs == 1'700'000'000'000);
        QCOMPARE(decoded->depthOf(1), 1);
    }

    void theFileIsOneGzipStream()
    {
        const QByteArray bytes = encodeSnapshot(sample());
        QVERIFY(looksLikeSnapshotFile(bytes));
        QString error;
        const std::optional<QByteArray> contents = gunzipBytes(bytes, 1 << 20, &error);
        QVERIFY2(contents, qPrintable(error));
        QVERIFY(contents->startsWith("KEYLENS-SNAPSHOT\n\x01"));
    }

    void writingReplacesWholeOrNothing()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a.kls"));
        QCOMPARE(writeSnapshotFile(path, sample()), QString());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QString error;
        QVERIFY(decodeSnapshot(file.readAll(), &error));
        // A directory that does not exist: an error sentence, and no file.
        const QString nowhere = dir.filePath(QStringLiteral("missing/a.kls"));
        QVERIFY(writeSnapshotFile(nowhere, sample()).contains(QStringLiteral("cannot write")));
        QVERIFY(!QFile::exists(nowhere));
    }

    void anEmptyFileIsRefused() { QVERIFY(decodeError({}).contains(QStringLiteral("empty"))); }

    void anotherFileIsRefused()
    {
        QVERIFY(decodeError("hello, world").contains(QStringLiteral("neither")));
        QVERIFY(decodeError(gzipBytes("something else entirely")).contains(QStringLiteral("not a Keylens snapshot")));
    }

    void aTruncatedFileIsRefusedAtEveryLength()
    {
        const QByteArray bytes = encodeSnapshot(sample());
        for (qsizetype length = 1; length < bytes.size(); ++length) {
            const QString error = decodeError(bytes.first(length));
            QVERIFY2(!error.isEmpty(),
                     qPrintable(QStringLiteral("read at %1 of %2 bytes").arg(length).arg(bytes.size())));
        }
    }

    void aDamagedFileIsRefused()
    {
        const Snapshot original = sample();
        const QByteArray bytes = encodeSnapshot(original);
        // Every byte after the gzip header flipped in turn: refused, or (a flip in the deflate stream's unused last
        // bits, which change nothing read) the very snapshot written. Never another one.
        int refused = 0;
        for (qsizetype at = 10; at < bytes.size(); ++at) {
            QByteArray damaged = bytes;
            damaged[at] = char(damaged[at] ^ 0x5a);
            QString error;
            const std::optional<Snapshot> decoded = decodeSnapshot(damaged, &error);
            QVERIFY2(!decoded || *decoded == original, qPrintable(QStringLiteral("byte %1 read as another").arg(at)));
            refused += !decoded;
        }
        QVERIFY(refused >= int(bytes.size() - 10) - 2);
    }

    void contentsThatLieAreRefused()
    {
        // Well-formed gzip around contents whose counts and lengths are wrong: the format's own checks.
        QString error;
        QByteArray contents = *gunzipBytes(encodeSnapshot(sample()), 1 << 20, &error);
        QByteArray extra = contents + "x";
        QVERIFY(decodeError(gzipBytes(extra)).contains(QStringLiteral("follow its end")));
        QByteArray cut = contents.chopped(3);
        QVERIFY(decodeError(gzipBytes(cut)).contains(QStringLiteral("damaged")));
    }

    void aFutureVersionIsRefusedByName()
    {
        QString error;
        QByteArray contents = *gunzipBytes(encodeSnapshot(sample()), 1 << 20, &error);
        contents[17] = char(SnapshotFormatVersion + 1);
        const QString refusal = decodeError(gzipBytes(contents));
        QVERIFY(refusal.contains(QStringLiteral("version %1").arg(SnapshotFormatVersion + 1)));
        QVERIFY(refusal.contains(QStringLiteral("newer")));
    }

    void absenceCountsOnlyWhereEverySiblingIsListed()
    {
        // `user:1:` is listed before, not after; after lists `user:` with unlisted children: not comparable. With
        // every child listed, it is gone.
        Snapshot before = sample();
        Snapshot after = sample();
        after.namespaces.erase(after.namespaces.begin() + 1);
        after.namespaces[0].unlisted = {4, 40, 400};
        after.namespaces[1].parent = SnapshotNamespace::TopLevel;
        SnapshotDiff diff = diffSnapshots(before, after, {});
        QCOMPARE(diff.notComparable, std::uint64_t(1));
        after.namespaces[0].unlisted = {};
        diff = diffSnapshots(before, after, {});
        QCOMPARE(diff.notComparable, std::uint64_t(0));
        const auto gone = std::find_if(diff.namespaces.begin(), diff.namespaces.end(),
                                       [](const Change& change) { return change.path == "user:1:"; });
        QVERIFY(gone != diff.namespaces.end());
        QCOMPARE(gone->status, ChangeStatus::Gone);
        QCOMPARE(gone->keysDelta(), std::int64_t(-10));
    }

    void theStoreKeepsTheNewestAndOnePerDay()
    {
        QTemporaryDir dir;
        SnapshotStore store(dir.path(), 100);
        Snapshot snapshot = sample();
        snapshot.server.address = "redis.example:6379/x";
        // 130 scans, one every 6 hours: the 100 newest stay, and of the 30 older ones the newest of each day.
        constexpr std::int64_t Start = 1'790'000'000'000, Step = 6 * 3600 * 1000, DayMs = 24 * 3600 * 1000;
        for (int i = 0; i < 130; ++i) {
            snapshot.takenAtMs = Start + i * Step;
            snapshot.complete = i != 129; // the last one partial
            QCOMPARE(store.save(snapshot), QString());
        }
        std::set<std::int64_t> olderDays;
        for (int i = 0; i < 30; ++i)
            olderDays.insert((Start + i * Step) / DayMs);
        const std::vector<SnapshotStore::Entry> kept = store.list(snapshot.server.address, snapshot.server.db);
        QCOMPARE(kept.size(), 100 + olderDays.size());
        QCOMPARE(kept.back().takenAtMs, Start + 129 * Step);
        QVERIFY(!kept.back().complete);
        QVERIFY(kept.back().path.endsWith(QStringLiteral("-partial.kls")));
        QVERIFY(std::is_sorted(kept.begin(), kept.end(),
                               [](const auto& a, const auto& b) { return a.takenAtMs < b.takenAtMs; }));
        // Each kept file reads back as what was saved at its time; the folder's name has no ':' or '/'.
        QString error;
        QFile file(kept.front().path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const std::optional<Snapshot> read = decodeSnapshot(file.readAll(), &error);
        QVERIFY2(read, qPrintable(error));
        QCOMPARE(read->takenAtMs, kept.front().takenAtMs);
        QVERIFY(!QFileInfo(kept.front().path).dir().dirName().contains(QLatin1Char(':')));
        // Another database of the same server has none.
        QVERIFY(store.list(snapshot.server.address, snapshot.server.db + 1).empty());
    }

    // The history of a folder: one point per snapshot that lists the path; a damaged file is named, not read as less.
    void aSeriesFollowsAPathAcrossSnapshots()
    {
        QTemporaryDir dir;
        SnapshotStore store(dir.path(), 100);
        Snapshot snapshot = sample();
        for (int i = 0; i < 3; ++i) {
            snapshot.takenAtMs = 1'790'000'000'000 + i * 60'000;
            snapshot.namespaces[0].stats = statsWith(1000 + i * 10, 4'000'000 + i * 100);
            snapshot.patterns = {{"user:<int>:profile", statsWith(900 + i, 100), ""},
                                 {"user:<int>", statsWith(100, 50), ""},
                                 {"users:<int>", statsWith(7, 7), ""}, // not below `user`
                                 {"user/<int>", statsWith(2, 2), ""}}; // `/` is a delimiter here
            QCOMPARE(store.save(snapshot), QString());
        }
        const QString folder = store.folderOf(snapshot.server.address, snapshot.server.db);
        QFile broken(QDir(folder).filePath(QStringLiteral("20300101-000000000.kls")));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("damaged");
        broken.close();
        QStringList unreadable;
        const SnapshotSeries series = SnapshotSeries::readFolder(folder, &unreadable);
        QCOMPARE(series.snapshots(), std::size_t(3));
        QCOMPARE(unreadable.size(), 1);
        QVERIFY2(unreadable.front().contains(QStringLiteral("20300101")), qPrintable(unreadable.front()));
        const std::vector<SnapshotSeries::Point> user = series.ofNamespace("user:");
        QCOMPARE(user.size(), std::size_t(3));
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(user[std::size_t(i)].keys, std::uint64_t(1000 + i * 10));
            QCOMPARE(user[std::size_t(i)].takenAtMs, 1'790'000'000'000 + i * 60'000);
        }
        QVERIFY(series.ofNamespace("nothing:").empty());
        // A pattern's subtree: itself and what continues it after a delimiter, not `users:<int>`.
        const std::vector<SnapshotSeries::Point> pattern = series.ofPatternSubtree("user", false);
        QCOMPARE(pattern.size(), std::size_t(3));
        QCOMPARE(pattern[2].keys, std::uint64_t(902 + 100 + 2));
        QCOMPARE(series.ofKeyspace().size(), std::size_t(3));
        QVERIFY(isInPatternSubtree("SKU<int>", "SKU", ":", true)); // a level glued to the next
        QVERIFY(!isInPatternSubtree("SKU<int>", "SKU", ":", false));
    }
};

QTEST_GUILESS_MAIN(TestSnapshotFile)
#include "tst_snapshotfile.moc"
