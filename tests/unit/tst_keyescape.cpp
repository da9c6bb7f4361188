#include "keyspace/KeyEscape.h"

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
        QCOMPARE(displayBytes("tab\tkey"), QByteArray("tab\\tkey"));
    }
};

QTEST_APPLESS_MAIN(TestKeyEscape)
#include "tst_keyescape.moc"
