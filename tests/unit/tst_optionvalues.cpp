// The values typed into options and dialogs (usage/OptionValues.h), and the diff's growth gate built on them.
#include "cli/GrowthGateOption.h"
#include "usage/OptionValues.h"

#include <QTest>

using namespace keylens;

class TestOptionValues : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void durations_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qint64>("milliseconds"); // -1: refused
        QTest::newRow("bare seconds") << QByteArray("90") << qint64(90'000);
        QTest::newRow("milliseconds") << QByteArray("500ms") << qint64(500);
        QTest::newRow("minutes") << QByteArray("15m") << qint64(900'000);
        QTest::newRow("days") << QByteArray("7d") << qint64(604'800'000);
        QTest::newRow("a sum") << QByteArray("1h30m") << qint64(5'400'000);
        QTest::newRow("a bare number last") << QByteArray("1m30") << qint64(90'000);
        QTest::newRow("blanks around") << QByteArray("  2h ") << qint64(7'200'000);
        QTest::newRow("a bare number first") << QByteArray("30 1m") << qint64(-1);
        QTest::newRow("a unit unknown") << QByteArray("2w") << qint64(-1);
        QTest::newRow("upper case") << QByteArray("2H") << qint64(-1);
        QTest::newRow("negative") << QByteArray("-5s") << qint64(-1);
        QTest::newRow("empty") << QByteArray("") << qint64(-1);
        QTest::newRow("overflowing") << QByteArray("99999999999999999999d") << qint64(-1);
    }
    void durations()
    {
        QFETCH(QByteArray, text);
        QFETCH(qint64, milliseconds);
        QCOMPARE(usage::parseDuration(text).value_or(-1), milliseconds);
    }

    void wholeSecondsNeedAtLeastOne()
    {
        QCOMPARE(usage::parseWholeSeconds("90s"), std::optional<std::int64_t>(90));
        QCOMPARE(usage::parseWholeSeconds("1500ms"), std::optional<std::int64_t>(1)); // idle times are whole seconds
        QVERIFY(!usage::parseWholeSeconds("999ms"));
        QVERIFY(!usage::parseWholeSeconds("0"));
    }

    void byteSizes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("bytes"); // -1: refused
        QTest::newRow("bare") << QStringLiteral("4096") << qint64(4096);
        QTest::newRow("bytes") << QStringLiteral("4096B") << qint64(4096);
        QTest::newRow("decimal") << QStringLiteral("10MB") << qint64(10'000'000);
        QTest::newRow("binary") << QStringLiteral("512KiB") << qint64(512 * 1024);
        QTest::newRow("a fraction") << QStringLiteral("1.5MiB") << qint64(1'572'864);
        QTest::newRow("any case") << QStringLiteral("2gib") << qint64(2LL << 30);
        QTest::newRow("a word") << QStringLiteral("many") << qint64(-1);
        QTest::newRow("a unit alone") << QStringLiteral("KB") << qint64(-1);
        QTest::newRow("negative") << QStringLiteral("-1KB") << qint64(-1);
        QTest::newRow("beyond 64 bits") << QStringLiteral("20000000000GB") << qint64(-1);
    }
    void byteSizes()
    {
        QFETCH(QString, text);
        QFETCH(qint64, bytes);
        const std::optional<std::uint64_t> parsed = usage::parseByteSize(text);
        QCOMPARE(parsed ? qint64(*parsed) : qint64(-1), bytes);
    }

    void countsKeepTheirRange()
    {
        QCOMPARE(usage::parseCount(QStringLiteral("5000")), std::optional<std::uint64_t>(5000));
        QVERIFY(!usage::parseCount(QStringLiteral("0"))); // at least 1 unless said
        QCOMPARE(usage::parseCount(QStringLiteral("0"), 0), std::optional<std::uint64_t>(0));
        QVERIFY(!usage::parseCount(QStringLiteral("65536"), 1, 65535)); // a port
        QVERIFY(!usage::parseCount(QStringLiteral("-3")));
        QVERIFY(!usage::parseCount(QStringLiteral("3.5")));
        QVERIFY(!usage::parseCount(QStringLiteral("ten")));
    }

    void ratesAreAboveZero()
    {
        QCOMPARE(usage::parseRate(QStringLiteral("0.5")), std::optional<double>(0.5));
        QVERIFY(!usage::parseRate(QStringLiteral("0")));
        QVERIFY(!usage::parseRate(QStringLiteral("-10")));
        QVERIFY(!usage::parseRate(QStringLiteral("inf")));
        QVERIFY(!usage::parseRate(QStringLiteral("fast")));
    }

    void ttlFromIsSavedOrNow()
    {
        QCOMPARE(usage::parseTtlFromSave(u"saved"), std::optional(true));
        QCOMPARE(usage::parseTtlFromSave(u"now"), std::optional(false));
        QVERIFY(!usage::parseTtlFromSave(u"Saved"));
    }

    void growthGatesParse()
    {
        QString error;
        QCOMPARE(cli::parseGrowthGate(QStringLiteral("50"), &error)->percent, 50.0);
        QCOMPARE(cli::parseGrowthGate(QStringLiteral("50%:10MB"), &error)->bytes, std::uint64_t(10'000'000));
        QCOMPARE(cli::parseGrowthGate(QStringLiteral("0:1KiB"), &error)->bytes, std::uint64_t(1024));
        QVERIFY(!cli::parseGrowthGate(QStringLiteral("fast"), &error));
        QVERIFY(!cli::parseGrowthGate(QStringLiteral("-5"), &error));
        QVERIFY(!cli::parseGrowthGate(QStringLiteral("5:many"), &error));
        QVERIFY(!cli::parseGrowthGate(QStringLiteral("5:1:2"), &error));
        QVERIFY(error.contains(QStringLiteral("--fail-on-growth")));
    }
};

QTEST_GUILESS_MAIN(TestOptionValues)
#include "tst_optionvalues.moc"
