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
        const auto bytes = [](QByteArrayView text) {
            const std::optional<Delimiters> parsed = Delimiters::parse(text);
            return parsed ? parsed->bytes() : QByteArray("<none>");
        };
        QCOMPARE(bytes("/"), QByteArray("/"));
        QCOMPARE(bytes("\\t"), QByteArray("\t"));
        QCOMPARE(bytes("\\x1f"), QByteArray("\x1f"));
        QCOMPARE(bytes(":/"), QByteArray(":/"));
        QCOMPARE(bytes(":\\t/"), QByteArray(":\t/"));
        QCOMPARE(bytes("::"), QByteArray("<none>")); // a byte twice is a typo
        QCOMPARE(bytes(""), QByteArray("<none>"));
        QCOMPARE(bytes("\\xzz"), QByteArray("<none>"));
        QCOMPARE(bytes("\\x1"), QByteArray("<none>"));
        // What text() writes, parse() reads back.
        for (const QByteArray& set : {QByteArray(":/"), QByteArray("\t|"), QByteArray("\\:"), QByteArray("\x01\xff")}) {
            Delimiters delimiters(set.front());
            for (const char more : set.sliced(1))
                delimiters = delimiters.with(more);
            QCOMPARE(bytes(delimiters.text()), set);
        }
    }

    void splitsOnEveryDelimiterOfASet()
    {
        const std::optional<Delimiters> delimiters = Delimiters::parse(":/");
        QVERIFY(delimiters);
        for (const QByteArray& key : {QByteArray("LIMITER/192.0.2.7/hour"), QByteArray("user:1/avatar"),
                                      QByteArray(":/a::b//"), QByteArray(""), QByteArray("plain")}) {
            QByteArray rebuilt;
            int segments = 0;
            forEachSegment(key, *delimiters, [&](QByteArrayView segment, char joiner) {
                QVERIFY(segments == 0 ? joiner == 0 : delimiters->contains(joiner));
                if (joiner)
                    rebuilt.append(joiner);
                rebuilt.append(segment);
                ++segments;
            });
            QCOMPARE(rebuilt, key);
            QCOMPARE(segments, int(key.count(':') + key.count('/') + 1));
        }
    }
};

QTEST_APPLESS_MAIN(TestKeyPath)
#include "tst_keypath.moc"
