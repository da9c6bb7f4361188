// The cells both key trees share (models/RowPresenter.h): the type mix reads right at its extremes.
#include "models/RowPresenter.h"

#include <QTest>

using namespace keylens;
using keyspace::KeyType;

namespace {

keyspace::SubtreeTotals mix(std::initializer_list<std::pair<KeyType, std::uint64_t>> counts)
{
    keyspace::SubtreeTotals totals;
    for (const auto& [type, count] : counts) {
        totals.types[std::size_t(type)] += count;
        totals.keys += count;
    }
    return totals;
}

} // namespace

class TestRowPresenter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void typeMixAtItsExtremes()
    {
        // 999 hashes and one list: not "hash 100% · list <1%".
        QCOMPARE(models::typeMix(mix({{KeyType::Hash, 999}, {KeyType::List, 1}})),
                 QStringLiteral("hash >99% · list <1%"));
        QCOMPARE(models::typeMix(mix({{KeyType::Hash, 71}, {KeyType::Set, 29}})), QStringLiteral("hash 71% · set 29%"));
        QCOMPARE(models::typeMix(mix({{KeyType::String, 5}})), QStringLiteral("string"));
        // Exactly 99%: said as it is.
        QCOMPARE(models::typeMix(mix({{KeyType::ZSet, 99}, {KeyType::String, 1}})),
                 QStringLiteral("zset 99% · string 1%"));
    }

    // Figures that look current but are not: a namespace whose keys have all expired says so in its TTL cell (not
    // "100% · some expired"), one whose keys were all deleted says "deleted" in its Keys cell (not "3 of 0"), and a
    // partly measured memory is a lower bound.
    void staleRowsSayWhatTheyAre()
    {
        const std::int64_t now = 1'000'000'000;
        models::RowFacts expired;
        expired.totals = mix({{KeyType::String, 3}});
        expired.totals.keysWithTtl = 3;
        expired.totals.soonestExpiryMs = now - 60'000;
        expired.totals.latestExpiryMs = now - 1'000;
        QCOMPARE(models::rowDisplay(expired, models::TreeColumns::TtlColumn, now).toString(),
                 QStringLiteral("all expired"));
        expired.totals.latestExpiryMs = now + 60'000; // one still to come
        QVERIFY(models::rowDisplay(expired, models::TreeColumns::TtlColumn, now).toString() !=
                QStringLiteral("all expired"));

        models::RowFacts deleted;
        deleted.matchingKeys = 3;
        QCOMPARE(models::rowDisplay(deleted, models::TreeColumns::KeysColumn, now).toString(),
                 QStringLiteral("deleted"));

        models::RowFacts partly;
        partly.totals = mix({{KeyType::Hash, 4}});
        partly.totals.memoryBytes = 2048;
        partly.totals.keysMemoryUnmeasured = 1;
        QCOMPARE(models::rowDisplay(partly, models::TreeColumns::MemoryColumn, now).toString(),
                 QStringLiteral("\u2265 2.00 KiB"));
    }
};

QTEST_GUILESS_MAIN(TestRowPresenter)
#include "tst_rowpresenter.moc"
