// Segment shapes: every shape the patterns and the naming rules rely on, the precedence between them, and
// the words that must stay words.
#include "lint/SegmentShape.h"

#include <QTest>

using namespace keylens;
using lint::Shape;

Q_DECLARE_METATYPE(lint::Shape)

class TestSegmentShape : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void shapes_data()
    {
        QTest::addColumn<QByteArray>("segment");
        QTest::addColumn<Shape>("shape");
        const auto row = [](const char* name, const char* segment, Shape shape) {
            QTest::newRow(name) << QByteArray(segment) << shape;
        };
        row("small int", "1000", Shape::Integer);
        row("zero", "0", Shape::Integer);
        row("long int", "123456789012345678901234", Shape::Integer);
        row("year-like id", "2024", Shape::Integer); // user:2024 is far more often an id than a year
        row("yyyymmdd", "20240310", Shape::Date);
        row("yyyymm", "202403", Shape::Date);
        row("bad month", "20241310", Shape::Integer);
        row("epoch s", "1710064800", Shape::Epoch);
        row("epoch ms", "1710064800123", Shape::Epoch);
        row("too far for epoch", "9999999999", Shape::Integer);
        row("uuid", "5f1c2a7e-9b3d-4c8e-a1f2-0e6d7c8b9a01", Shape::Uuid);
        row("uuid upper", "5F1C2A7E-9B3D-4C8E-A1F2-0E6D7C8B9A01", Shape::Uuid);
        row("iso date", "2024-03-01", Shape::Date);
        row("iso month", "2024-03", Shape::Date);
        row("iso datetime", "2024-03-10T10:30:00Z", Shape::Date);
        row("iso datetime offset", "2024-03-10T10:30:00.123+01:00", Shape::Date);
        row("quarter", "2024Q1", Shape::Date);
        row("iso week", "2024-W10", Shape::Date);
        row("hour bucket", "hour12", Shape::Date);
        row("hour out of range", "hour25", Shape::Word);
        row("email", "ada@example.com", Shape::Email);
        row("user at number", "user@1001", Shape::Word);
        row("ipv4", "192.168.1.20", Shape::Ip);
        row("not ipv4", "1.2.3", Shape::Word);
        row("ipv6", "2001:db8::1", Shape::Ip);
        row("ulid", "01ARZ3NDEKTSV4RRFFQ69G5FAV", Shape::Ulid);
        row("md5", "9e107d9d372bb6826bd81d3542a419d6", Shape::Hex);
        row("sha1", "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12", Shape::Hex);
        row("sha256", "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592", Shape::Hex);
        row("hex 16", "00ff00ff12ab34cd", Shape::Hex);
        row("base64 token", "dGhpcyBpcyBhIHRva2VuMTIz", Shape::Token);
        row("base62 token", "aZ3kP9qLm2XvB7nR", Shape::Token);
        row("session id", "9F2A8C1D4E6B7A30", Shape::Hex);
        row("short hex id", "3f9a1c0b7e2d", Shape::Hex); // a Docker container id
        row("12 hex letters", "deadbeefcafe", Shape::Word);
        row("11 hex", "3f9a1c0b7e2", Shape::Word);
        row("deadbeef", "deadbeef", Shape::Word);
        row("settings", "settings", Shape::Word);
        row("2fa", "2fa", Shape::Word);
        row("v1", "v1", Shape::Word);
        row("camel", "userSettings", Shape::Word);
        row("long word", "notificationpreferences", Shape::Word); // no digit: not a token
        row("empty", "", Shape::Word);
        // Random base64url without a digit: about half capitals. Words are mostly one case.
        row("token without digits", "cWHCDwPGQBegZB_bgJNJDdqxhmHaHoiR", Shape::Token);
        row("camel words", "userNotificationPreferencesCache", Shape::Word);
        row("shouting words", "USER_NOTIFICATION_PREFERENCES", Shape::Word);
        row("path of words", "views/products/0-20240310120000000000/index", Shape::Word);
    }

    void shapes()
    {
        QFETCH(QByteArray, segment);
        QFETCH(Shape, shape);
        QCOMPARE(lint::shapeOf(segment), shape);
    }

    void patterns_data()
    {
        QTest::addColumn<QByteArray>("segment");
        QTest::addColumn<QByteArray>("pattern");
        QTest::newRow("int") << QByteArray("10086") << QByteArray("<int>");
        QTest::newRow("word") << QByteArray("profile") << QByteArray("profile");
        QTest::newRow("celery") << QByteArray("celery-task-meta-5f1c2a7e-9b3d-4c8e-a1f2-0e6d7c8b9a01")
                                << QByteArray("celery-task-meta-<uuid>");
        QTest::newRow("dashed") << QByteArray("user-profile-123") << QByteArray("user-profile-<int>");
        QTest::newRow("underscored") << QByteArray("product_price_42") << QByteArray("product_price_<int>");
        QTest::newRow("camel glued") << QByteArray("userSettings_1234") << QByteArray("userSettings_<int>");
        QTest::newRow("cache user") << QByteArray("cache_user_14606") << QByteArray("cache_user_<int>");
        QTest::newRow("dated log") << QByteArray("access.2024-03-10") << QByteArray("access.<date>");
        QTest::newRow("numbered code") << QByteArray("SKU120279") << QByteArray("SKU<int>");
        QTest::newRow("short code stays") << QByteArray("ipv4") << QByteArray("ipv4");
        QTest::newRow("iso date stays whole") << QByteArray("2024-03-10") << QByteArray("<date>");
        QTest::newRow("snake word") << QByteArray("user_settings") << QByteArray("user_settings");
        QTest::newRow("version") << QByteArray("api-v2") << QByteArray("api-v2");
        QTest::newRow("short words") << QByteArray("ab-cd-123") << QByteArray("ab-cd-<int>");
        QTest::newRow("base64url token") << QByteArray("nk-7chBTInqdSr7fhdz7eEBr6BB_VNN-") << QByteArray("<token>");
        QTest::newRow("mixed-case token") << QByteArray("rIgMg6li_HPwI9yvSqxdyFcGCSt9qLwS") << QByteArray("<token>");
        QTest::newRow("uuid stays whole") << QByteArray("24acf412-37a1-0aaf-d102-f39ba3c73049") << QByteArray("<uuid>");
        QTest::newRow("glued token") << QByteArray("session-aZ3kP9qLm2XvB7nR") << QByteArray("session-<token>");
        // A random id that happens to start with lower-case letters and a '-' or '_' is not word-glued.
        QTest::newRow("random head") << QByteArray("aydw-VMcqpYONfJMpeJOBUt2t4DyGzFb") << QByteArray("<token>");
        QTest::newRow("random head, no vowel")
            << QByteArray("bfvvbx_r9unf7vukwXcEnSTMfX2EBShb") << QByteArray("<token>");
        QTest::newRow("words and digits")
            << QByteArray("user-profile-1234567890123") << QByteArray("user-profile-<epoch>");
        QTest::newRow("16 KB of dashes") << QByteArray(16 * 1024, '-') << QByteArray(16 * 1024, '-');
        QTest::newRow("15 KB opaque") << QByteArray("a-1").repeated(5000) << QByteArray("<token>");
    }

    void patterns()
    {
        QFETCH(QByteArray, segment);
        QFETCH(QByteArray, pattern);
        QCOMPARE(lint::patternOf(segment), pattern);
    }

    void placeholdersAreTheInterface()
    {
        QCOMPARE(lint::placeholder(Shape::Integer), QByteArrayView("<int>"));
        QCOMPARE(lint::placeholder(Shape::Uuid), QByteArrayView("<uuid>"));
        QCOMPARE(lint::placeholder(Shape::Ulid), QByteArrayView("<ulid>"));
        QCOMPARE(lint::placeholder(Shape::Hex), QByteArrayView("<hex>"));
        QCOMPARE(lint::placeholder(Shape::Token), QByteArrayView("<token>"));
        QCOMPARE(lint::placeholder(Shape::Email), QByteArrayView("<email>"));
        QCOMPARE(lint::placeholder(Shape::Ip), QByteArrayView("<ip>"));
        QCOMPARE(lint::placeholder(Shape::Date), QByteArrayView("<date>"));
        QCOMPARE(lint::placeholder(Shape::Epoch), QByteArrayView("<epoch>"));
        QVERIFY(lint::placeholder(Shape::Word).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSegmentShape)
#include "tst_segmentshape.moc"
