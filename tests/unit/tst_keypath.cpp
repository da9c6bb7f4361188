#include "keyspace/KeyPath.h"

#include <QRandomGenerator>
#include <QTest>

#include <vector>

using namespace keylens::keyspace;

class TestKeyPath : public QObject
{
    Q_OBJECT

    static std::vector<QByteArray> split(QByteArrayView key, char delimiter)
    {
        std::vector<QByteArray> segments;
        forEachSegment(key, delimiter, [&](QByteArrayView segment) { segments.push_back(segment.toByteArray()); });
        return segments;
    }

    static QByteArray roundTrip(QByteArrayView key, char delimiter)
    {
        const auto segments = split(key, delimiter);
        std::vector<QByteArrayView> views(segments.begin(), segments.end());
        return joinSegments(views, delimiter);
    }

private Q_SLOTS:
    void keepsEmptySegments_data()
    {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<int>("segments");
        QTest::newRow("plain") << QByteArray("user:1:profile") << 3;
        QTest::newRow("empty key") << QByteArray() << 1;
        QTest::newRow("only delimiter") << QByteArray(":") << 2;
        QTest::newRow("leading") << QByteArray(":a") << 2;
        QTest::newRow("trailing") << QByteArray("a:") << 2;
        QTest::newRow("doubled") << QByteArray("a::b") << 3;
        QTest::newRow("no delimiter") << QByteArray("user_123") << 1;
    }
    void keepsEmptySegments()
    {
        QFETCH(QByteArray, key);
        QFETCH(int, segments);
        QCOMPARE(static_cast<int>(split(key, ':').size()), segments);
        QCOMPARE(roundTrip(key, ':'), key);
    }

    void randomBytesRoundTrip()
    {
        // Random byte strings over a small alphabet full of delimiters, NULs and high bytes.
        QRandomGenerator random(1234);
        const char alphabet[] = {':', ':', 'a', 'b', '\0', '\xff', '\n', '/', '\x80'};
        for (int round = 0; round < 5000; ++round) {
            QByteArray key;
            const int length = random.bounded(0, 40);
            for (int i = 0; i < length; ++i)
                key.append(alphabet[random.bounded(int(sizeof alphabet))]);
            for (const char delimiter : {':', '/', '\0'})
                QCOMPARE(roundTrip(key, delimiter), key);
        }
    }

    void sixteenKilobyteKey()
    {
        QByteArray key = "blob:";
        for (int i = 0; i < 16 * 1024; ++i)
            key.append(static_cast<char>(i % 251));
        QCOMPARE(roundTrip(key, ':'), key);
        QVERIFY(split(key, ':').size() > 2);
    }

    void parsesDelimiters()
    {
        char delimiter = 0;
        QVERIFY(parseDelimiter("/", &delimiter));
        QCOMPARE(delimiter, '/');
        QVERIFY(parseDelimiter("\\t", &delimiter));
        QCOMPARE(delimiter, '\t');
        QVERIFY(parseDelimiter("\\x1f", &delimiter));
        QCOMPARE(delimiter, '\x1f');
        QVERIFY(!parseDelimiter("::", &delimiter));
        QVERIFY(!parseDelimiter("", &delimiter));
        QVERIFY(!parseDelimiter("\\xzz", &delimiter));
    }
};

QTEST_APPLESS_MAIN(TestKeyPath)
#include "tst_keypath.moc"
