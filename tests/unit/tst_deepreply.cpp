// DeepReplyReader against hand-written RESP2: replies nested past hiredis 0.14's limit of seven arrays, every kind of
// value, replies split at every byte, several in one feed, and bytes that are not RESP.
#include "redis/DeepReplyReader.h"
#include "redis/Reply.h"

#include <QTest>

#include <hiredis/hiredis.h>

using namespace keylens;

namespace {

// `depth` arrays, each holding one more, around the string "core".
QByteArray nested(int depth)
{
    QByteArray out;
    for (int i = 0; i < depth; ++i)
        out += "*2\r\n:" + QByteArray::number(i) + "\r\n";
    out += "$4\r\ncore\r\n";
    return out;
}

} // namespace

class TestDeepReply : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsDeeperThanHiredis()
    {
        const QByteArray bytes = nested(40);
        // hiredis itself gives up at eight levels: the reason this reader exists.
        redisReader* hiredis = redisReaderCreate();
        redisReaderFeed(hiredis, bytes.constData(), std::size_t(bytes.size()));
        void* refused = nullptr;
        QCOMPARE(redisReaderGetReply(hiredis, &refused), REDIS_ERR);
        redisReaderFree(hiredis);

        redis::DeepReplyReader reader;
        reader.feed(bytes.constData(), bytes.size());
        redis::Result<redisReply*> next = reader.next();
        QVERIFY(next.ok() && *next);
        const redis::Reply reply(*next);
        redis::ReplyView at = reply;
        for (int i = 0; i < 40; ++i) {
            QVERIFY(at.isArray());
            QCOMPARE(at.size(), std::size_t(2));
            QCOMPARE(at.at(0).integer(), i);
            at = at.at(1);
        }
        QCOMPARE(at.bytes(), QByteArrayView("core"));
    }

    // Fed a byte at a time: nothing until the last byte, then exactly the replies sent, in order.
    void splitAtEveryByte()
    {
        const QByteArray bytes = "+OK\r\n-ERR no\r\n:-42\r\n$-1\r\n*-1\r\n*0\r\n$0\r\n\r\n$5\r\na\r\nbc\r\n" +
                                 nested(9) + "*3\r\n$1\r\nx\r\n*1\r\n:7\r\n+done\r\n";
        redis::DeepReplyReader reader;
        std::vector<redis::Reply> replies;
        for (const char byte : bytes) {
            reader.feed(&byte, 1);
            while (true) {
                redis::Result<redisReply*> next = reader.next();
                QVERIFY(next.ok());
                if (!*next)
                    break;
                replies.emplace_back(*next);
            }
        }
        QCOMPARE(replies.size(), std::size_t(10));
        QVERIFY(replies[0].isStatus() && replies[0].bytes() == "OK");
        QVERIFY(replies[1].isError() && replies[1].bytes() == "ERR no");
        QCOMPARE(replies[2].integer(), -42);
        QVERIFY(replies[3].isNil());
        QVERIFY(replies[4].isNil());
        QVERIFY(replies[5].isArray() && replies[5].size() == 0);
        QVERIFY(replies[6].isString() && replies[6].bytes().isEmpty());
        QCOMPARE(replies[7].bytes(), QByteArrayView("a\r\nbc")); // a bulk string may hold CR LF
        QCOMPARE(replies[8].at(1).at(1).at(0).integer(), 2);
        QCOMPARE(replies[9].at(1).at(0).integer(), 7);
        QCOMPARE(replies[9].at(2).bytes(), QByteArrayView("done"));
    }

    void refusesWhatIsNotResp()
    {
        for (const QByteArray& bad :
             {QByteArray("?what\r\n"), QByteArray(":12x\r\n"), QByteArray("$-5\r\n"), QByteArray("*abc\r\n")}) {
            redis::DeepReplyReader reader;
            reader.feed(bad.constData(), bad.size());
            QVERIFY2(!reader.next().ok(), bad.constData());
        }
        // A partial tree left behind is freed with the reader (ASan would say otherwise).
        redis::DeepReplyReader partial;
        const QByteArray half = "*3\r\n*2\r\n:1\r\n";
        partial.feed(half.constData(), half.size());
        QVERIFY(partial.next().ok());
    }
};

QTEST_GUILESS_MAIN(TestDeepReply)
#include "tst_deepreply.moc"
