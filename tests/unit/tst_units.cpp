#include "keyspace/Units.h"

#include <QTest>

using namespace keylens::keyspace;

class TestUnits : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void bytes()
    {
        QCOMPARE(formatBytes(0), QByteArray("0 B"));
        QCOMPARE(formatBytes(1023), QByteArray("1023 B"));
        QCOMPARE(formatBytes(1024), QByteArray("1.00 KiB"));
        QCOMPARE(formatBytes(1536), QByteArray("1.50 KiB"));
        QCOMPARE(formatBytes(50 * 1024 * 1024), QByteArray("50.0 MiB"));
        QCOMPARE(formatBytes(300ULL * 1024 * 1024 * 1024), QByteArray("300 GiB"));
    }
    void counts()
    {
        QCOMPARE(formatCount(0), QByteArray("0"));
        QCOMPARE(formatCount(999), QByteArray("999"));
        QCOMPARE(formatCount(1000), QByteArray("1,000"));
        QCOMPARE(formatCount(1234567), QByteArray("1,234,567"));
    }
    void countedNouns()
    {
        QCOMPARE(formatCounted(1, "key"), QByteArray("1 key"));
        QCOMPARE(formatCounted(0, "key"), QByteArray("0 keys"));
        QCOMPARE(formatCounted(2628, "key"), QByteArray("2,628 keys"));
        QCOMPARE(formatCounted(1, "match", "matches"), QByteArray("1 match"));
        QCOMPARE(formatCounted(3, "match", "matches"), QByteArray("3 matches"));
    }
    void durations()
    {
        QCOMPARE(formatDuration(450), QByteArray("450ms"));
        QCOMPARE(formatDuration(1500), QByteArray("1.5s"));
        QCOMPARE(formatDuration(59'000), QByteArray("59s"));
        QCOMPARE(formatDuration(61'000), QByteArray("1m 1s"));
        QCOMPARE(formatDuration(3'600'000), QByteArray("1h"));
        QCOMPARE(formatDuration(90'000'000), QByteArray("1d 1h"));
    }
    void percents()
    {
        QCOMPARE(formatPercent(0.4567), QByteArray("45.7%"));
        QCOMPARE(formatPercent(0.0001), QByteArray("<0.1%"));
        QCOMPARE(formatPercent(0), QByteArray("0.0%"));
        QCOMPARE(formatPercent(5627.0 / 5628.0), QByteArray(">99.9%"));
        QCOMPARE(formatPercent(1.0), QByteArray("100.0%"));
    }
};

QTEST_APPLESS_MAIN(TestUnits)
#include "tst_units.moc"
