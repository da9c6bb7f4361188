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
        // Words glued to a number are no token; a random id over [a-z0-9] (Django's session keys) still is.
        row("words around a number", "customer1234567profile", Shape::Word);
        row("lower-case alphanumeric id", "0sz6356dfa8x2kq1m9ztb4wn7c0pyx3e", Shape::Token);
        row("another one", "cachezqytrhaiu2ud8bowze3jk9xpl4vn", Shape::Token);
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
        row("not ipv4: a version", "1.2.3", Shape::Semver);
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
        // More of each shape, from the forms real programs write.
        row("int 1", "1", Shape::Integer);
        row("int leading zeros", "000123", Shape::Integer);
        row("int 19 digits", "9223372036854775807", Shape::Integer);
        row("snowflake id", "175928847299117063", Shape::Integer);
        row("order number", "4815162342", Shape::Integer); // 10 digits, but after 2100
        row("phone number", "33612345678", Shape::Integer);
        row("int 3 digits", "404", Shape::Integer);
        row("yyyymmdd 2001", "20010101", Shape::Date);
        row("yyyymmdd dec 31", "20991231", Shape::Date);
        row("yyyymmdd day 32", "20240332", Shape::Integer);
        row("yyyymm jan", "202401", Shape::Date);
        row("yyyymm month 13", "202413", Shape::Integer);
        row("epoch s 2001", "1000000000", Shape::Epoch);
        row("epoch s 2033", "2000000000", Shape::Epoch);
        row("epoch ms 2001", "1000000000000", Shape::Epoch);
        row("epoch ms 2030", "1900000000000", Shape::Epoch);
        row("epoch s 1990", "631152000", Shape::Integer); // 9 digits: an id
        row("12 digits", "171006480012", Shape::Integer);
        row("uuid v1", "6ba7b810-9dad-11d1-80b4-00c04fd430c8", Shape::Uuid);
        row("uuid v7", "01890a5d-ac96-774b-bcce-b302099a8057", Shape::Uuid);
        row("nil uuid", "00000000-0000-0000-0000-000000000000", Shape::Uuid);
        row("uuid mixed case", "5f1C2a7E-9b3d-4C8e-A1f2-0e6D7c8B9a01", Shape::Uuid);
        row("uuid missing group", "5f1c2a7e-9b3d-4c8e-a1f2", Shape::Token);
        row("uuid with g", "5f1c2a7e-9b3d-4c8e-a1f2-0e6d7c8b9agg", Shape::Token);
        row("uuid without dashes", "5f1c2a7e9b3d4c8ea1f20e6d7c8b9a01", Shape::Hex);
        row("braced uuid", "{5f1c2a7e-9b3d-4c8e-a1f2-0e6d7c8b9a01}", Shape::Word);
        row("ulid lower", "01arz3ndektsv4rrffq69g5fav", Shape::Ulid);
        row("ulid 2", "01HGW2N7GQ9S4R8E1KX3V5T6YB", Shape::Ulid);
        row("ulid too short", "01ARZ3NDEKTSV4RRFFQ69G5FA", Shape::Token);
        row("ulid with U", "01ARZ3NDEKTSV4RRFFQ69G5FAU", Shape::Token);
        row("md5 upper", "9E107D9D372BB6826BD81D3542A419D6", Shape::Hex);
        row("sha512",
            "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47"
            "417a81a538327af927da3e",
            Shape::Hex);
        row("git short sha", "a1b2c3d4e5f6", Shape::Hex);
        row("object id", "507f1f77bcf86cd799439011", Shape::Hex); // MongoDB ObjectId
        row("hex 17", "0123456789abcdef0", Shape::Hex);
        row("hex 20 digits only", "12345678901234567890", Shape::Integer);
        row("hex letters only 16", "abcdefabcdefabcd", Shape::Word);
        row("hex 13", "a1b2c3d4e5f6a", Shape::Hex);
        row("hex 12 digits first", "1a2b3c4d5e6f", Shape::Hex);
        row("token 16", "Ab3dEf6hIj9lMn0p", Shape::Token);
        row("token 22 base64url", "3q2-7wX_9kZpL0mN4vB8cA", Shape::Token);
        row("token 32 base62", "k9XbQ2mZr7TnW4pLs8VyA3dF6hJ1cG5e", Shape::Token);
        row("jwt-ish part", "eyJhbGciOiJIUzI1NiJ9", Shape::Token);
        row("base64 padded", "dGhpcyBpcyBhIHRva2Vu==", Shape::Token);
        row("express session id", "pX9Qkz3vV_aH2bL8rN0mT6yW4cE1dF7g", Shape::Token);
        row("token 15", "Ab3dEf6hIj9lMn0", Shape::Word);
        row("email plus", "ada+redis@example.co.uk", Shape::Email);
        row("email dotted", "first.last@mail.example.org", Shape::Email);
        row("email upper", "Ada@Example.COM", Shape::Email);
        row("at without dot", "ada@localhost", Shape::Word);
        row("at at start", "@example.com", Shape::Word);
        row("two ats", "a@b@example.com", Shape::Word);
        row("ipv4 zeros", "0.0.0.0", Shape::Ip);
        row("ipv4 broadcast", "255.255.255.255", Shape::Ip);
        row("ipv4 loopback", "127.0.0.1", Shape::Ip);
        row("ipv4 octet 256", "256.1.1.1", Shape::Word);
        row("ipv4 five parts", "1.2.3.4.5", Shape::Word);
        row("version number", "1.2.3", Shape::Semver);
        row("ipv6 loopback", "::1", Shape::Ip);
        row("ipv6 full", "2001:0db8:85a3:0000:0000:8a2e:0370:7334", Shape::Ip);
        row("ipv6 mapped v4", "::ffff:192.0.2.1", Shape::Ip);
        row("ipv6 link local", "fe80::1ff:fe23:4567:890a", Shape::Ip);
        row("iso datetime seconds", "2024-03-10T10:30:00", Shape::Date);
        row("iso datetime minutes", "2024-03-10T10:30", Shape::Date);
        row("iso datetime compact z", "20240310T103000Z", Shape::Date);
        row("iso date bad month", "2024-13-01", Shape::Word);
        row("iso date bad day", "2024-02-30", Shape::Date); // day 30 passes: no calendar arithmetic
        row("quarter 4", "2023Q4", Shape::Date);
        row("quarter 5", "2023Q5", Shape::Word);
        row("quarter lower", "2023q2", Shape::Date);
        row("iso week 53", "2020-W53", Shape::Date);
        row("iso week 54", "2020-W54", Shape::Word);
        row("hour 0", "hour0", Shape::Date);
        row("hour 23", "hour23", Shape::Date);
        row("hours word", "hours", Shape::Word);
        // Words that look a little like ids.
        row("beef", "beef", Shape::Word);
        row("cafebabe", "cafebabe", Shape::Word);
        row("facade", "facade", Shape::Word);
        row("decade", "decade", Shape::Word);
        row("accededdeface", "accededdeface", Shape::Word);
        row("3d", "3d", Shape::Word);
        row("b2b", "b2b", Shape::Word);
        row("mp4", "mp4", Shape::Word);
        row("oauth2", "oauth2", Shape::Word);
        row("utf8", "utf8", Shape::Word);
        row("x509", "x509", Shape::Word);
        row("h264", "h264", Shape::Word);
        row("sha256 word", "sha256", Shape::Word);
        row("ipv6 word", "ipv6", Shape::Word);
        row("api", "api", Shape::Word);
        row("v2", "v2", Shape::Word);
        row("v10", "v10", Shape::Word);
        row("snake", "user_settings", Shape::Word);
        row("kebab", "rate-limit", Shape::Word);
        row("dotted words", "views.decorators.cache", Shape::Word);
        row("long snake", "notification_preferences_cache", Shape::Word);
        row("capital", "User", Shape::Word);
        row("all caps", "CACHE", Shape::Word);
        row("pascal", "UserProfile", Shape::Word);
        row("stat name", "processed", Shape::Word);
        row("bullmq state", "stalled-check", Shape::Word);
        row("kombu binding", "_kombu.binding.celery", Shape::Word);
        row("rq words", "clean_registries", Shape::Word);
        row("unicode word", "caf\xc3\xa9", Shape::Word);
        row("space", "two words", Shape::Word);
        row("minus number", "-1", Shape::Word);
        row("decimal", "3.14", Shape::Word);
        row("pseudo hex 15 no digit", "abcdefabcdefabc", Shape::Word);
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
        // Raw bytes: a digest as bytes, alone or after a word (its own ':' or '_' bytes are no delimiters).
        QTest::newRow("raw digest") << QByteArray("\x93\x01\xffq_\x8e\x12\x00\x7f\xc3", 10) << QByteArray("<binary>");
        QTest::newRow("word and raw bytes")
            << QByteArray("sess\xa7\x10-\xfe\x02\x99\x81", 11) << QByteArray("sess<binary>");
        QTest::newRow("word, delimiter, raw bytes")
            << QByteArray("cache_\xde\xad\xbe\xef\x00", 11) << QByteArray("cache_<binary>");
        QTest::newRow("utf-8 is text") << QByteArray("caf\xc3\xa9") << QByteArray("caf\xc3\xa9");
        // Percent-encoded ids fold like the decoded ones.
        QTest::newRow("percent ipv6") << QByteArray("2001%3Adb8%3A%3A1") << QByteArray("<ip>");
        QTest::newRow("percent email") << QByteArray("ann%40example.org") << QByteArray("<email>");
        QTest::newRow("percent word stays") << QByteArray("caf%C3%A9") << QByteArray("caf%C3%A9");
        QTest::newRow("percent-encoded url")
            << QByteArray("https%3A%2F%2Fapi.example%2Fv1%2Fproducts%3Fid%3D80%26lang%3Dde") << QByteArray("<url>");
        QTest::newRow("query with encoded ip")
            << QByteArray("rate?ip=2001%3Adb8%3A%3A7&n=3") << QByteArray("rate?ip=<ip>&n=<int>");
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
        // Inner delimiters: ids among words joined by / . _ - | and ids that hold those characters themselves.
        QTest::newRow("slash path with ip")
            << QByteArray("LIMITER/192.0.2.7/search/3/4/hour") << QByteArray("LIMITER/<ip>/search/<int>/<int>/hour");
        QTest::newRow("slash words") << QByteArray("users/104/avatar_url") << QByteArray("users/<int>/avatar_url");
        QTest::newRow("underscore id") << QByteArray("user_1792_profile") << QByteArray("user_<int>_profile");
        QTest::newRow("placeholder name") << QByteArray("tmp_14") << QByteArray("tmp_<int>");
        QTest::newRow("capitals between")
            << QByteArray("exchange_rates/EUR/30") << QByteArray("exchange_rates/EUR/<int>");
        QTest::newRow("cidr") << QByteArray("10.0.0.0/8") << QByteArray("<cidr>");
        QTest::newRow("cidr after a word") << QByteArray("net/10.1.0.0/16") << QByteArray("net/<cidr>");
        QTest::newRow("email") << QByteArray("jane.doe@example.com") << QByteArray("<email>");
        QTest::newRow("email after a word") << QByteArray("user|jane.doe@example.com") << QByteArray("user|<email>");
        QTest::newRow("email inside words")
            << QByteArray("b_per-user-ada@example.com_settings") << QByteArray("b_<email>_settings");
        QTest::newRow("an address with a word glued on") << QByteArray("ada@example.com_x") << QByteArray("<email>_x");
        QTest::newRow("semver") << QByteArray("lib-1.4.2") << QByteArray("lib-<semver>");
        QTest::newRow("django view") << QByteArray(
                                            "views.decorators.cache.cache_page..GET.0123456789abcdef0123456789abcdef."
                                            "d41d8cd98f00b204e9800998ecf8427e.en-us.UTC")
                                     << QByteArray("views.decorators.cache.cache_page..GET.<hex>.<hex>.en-us.UTC");
        QTest::newRow("url path") << QByteArray("flask_cache_view//users/1") << QByteArray("flask_cache_view/<path>");
        QTest::newRow("url after scheme") << QByteArray("//example.com/a/b") << QByteArray("<path>");
        QTest::newRow("dated words") << QByteArray("report.2024-03-10.csv") << QByteArray("report.<date>.csv");
        QTest::newRow("token between words")
            << QByteArray("sess|aZ3kP9qLm2XvB7nRw4Yt|data") << QByteArray("sess|<token>|data");
        QTest::newRow("words only") << QByteArray("feature_flags.enabled") << QByteArray("feature_flags.enabled");
        QTest::newRow("query values") << QByteArray("search?q=garden hose&page=2")
                                      << QByteArray("search?q=<value> hose&page=<int>");
        QTest::newRow("dogpile arguments")
            << QByteArray("load_catalogue_page|books 3") << QByteArray("load_catalogue_page|books <int>");
        QTest::newRow("standard base64 across /")
            << QByteArray("flask_cache_+H3SLM2xim5/JpkdS0s8uD") << QByteArray("flask_cache_<token>");
        QTest::newRow("a path of words is no token")
            << QByteArray("views/layouts/_sidebar") << QByteArray("views/layouts/_sidebar");
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
