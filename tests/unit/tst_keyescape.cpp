#include "keyspace/KeyEscape.h"

#include <QSet>
#include <QTest>

using namespace keylens::keyspace;

class TestKeyEscape : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void printableUtf8()
    {
        QVERIFY(isPrintableUtf8("user:1001:profile"));
        QVERIFY(isPrintableUtf8("用户:1001:资料"));
        QVERIFY(isPrintableUtf8("emoji:🚀"));
        QVERIFY(isPrintableUtf8(""));
        QVERIFY(!isPrintableUtf8(QByteArray("a\0b", 3)));
        QVERIFY(!isPrintableUtf8("line1\nline2"));
        QVERIFY(!isPrintableUtf8("\xff\xfe"));
        QVERIFY(!isPrintableUtf8("\xc3\x28"));     // bad continuation byte
        QVERIFY(!isPrintableUtf8("\xc0\xaf"));     // overlong '/'
        QVERIFY(!isPrintableUtf8("\xed\xa0\x80")); // a UTF-16 surrogate
        QVERIFY(!isPrintableUtf8("\xe4\xb8"));     // truncated sequence
        QVERIFY(!isPrintableUtf8("\xc2\x85"));     // C1 control (NEL)
    }

    // The escaping redis-cli uses for binary-safe strings (sdscatrepr), quotes left off.
    void escapesLikeRedisCli()
    {
        QCOMPARE(escapeLikeRedisCli(QByteArray("bin:\xff\xfe\x00\x01", 8)), QByteArray("bin:\\xff\\xfe\\x00\\x01"));
        QCOMPARE(escapeLikeRedisCli("a\"b\\c"), QByteArray("a\\\"b\\\\c"));
        QCOMPARE(escapeLikeRedisCli("\n\r\t\a\b"), QByteArray("\\n\\r\\t\\a\\b"));
        QCOMPARE(escapeLikeRedisCli("\x7f"), QByteArray("\\x7f"));
        QCOMPARE(escapeLikeRedisCli("caf\xc3\xa9"), QByteArray("caf\\xc3\\xa9"));
    }

    void displayKeepsPrintableKeys()
    {
        QCOMPARE(displayBytes("用户:1"), QByteArray("用户:1"));
        QCOMPARE(displayBytes("user:1001:profile"), QByteArray("user:1001:profile"));
        QCOMPARE(displayBytes("tab\tkey"), QByteArray("\"tab\\tkey\""));
        QCOMPARE(displayValue("tab\tkey"), QByteArray("tab\\tkey")); // values: unquoted, as before
    }

    // Distinct keys never look the same: a real TAB and a backslash-t, a NUL and "\x00" typed out, the empty key,
    // spaces at the ends, a right-to-left override, and quotes that could imitate the quoted form.
    void distinctKeysLookDistinct()
    {
        const QList<QByteArray> keys = {
            "a\tb",
            "a\\tb",
            QByteArray("a\0b", 3),
            "a\\x00b",
            "",
            "\"\"",
            " ",
            "key",
            "key ",
            " key",
            "\"key\"",
            "ke\"y",
            "caf\xc3\xa9",
            "caf\xc3\xa9\t",
            "user\xe2\x80\xae"
            "1gpj.exe", // U+202E
            "user1gpj.exe",
            "a\xc2\xa0"
            "b", // a no-break space
            "a b",
            "a\xe2\x80\x8b"
            "b", // a zero-width space
            "ab",
            "\xff\xfe",
            "\\xff\\xfe",
        };
        QSet<QByteArray> shown;
        for (const QByteArray& key : keys) {
            const QByteArray display = displayBytes(key);
            QVERIFY2(!shown.contains(display), display.constData());
            shown.insert(display);
        }
        QCOMPARE(displayBytes(""), QByteArray("\"\""));
        QCOMPARE(displayBytes("user\xe2\x80\xae"
                              "1"),
                 QByteArray("\"user\\xe2\\x80\\xae1\""));
        QCOMPARE(displayBytes("caf\xc3\xa9\t"), QByteArray("\"caf\xc3\xa9\\t\""));
        QCOMPARE(displayBytes("a\\b"), QByteArray("\"a\\\\b\""));
        QCOMPARE(displayBytes("key "), QByteArray("\"key \""));
    }
};

QTEST_APPLESS_MAIN(TestKeyEscape)
#include "tst_keyescape.moc"
