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
};

QTEST_GUILESS_MAIN(TestRowPresenter)
#include "tst_rowpresenter.moc"
