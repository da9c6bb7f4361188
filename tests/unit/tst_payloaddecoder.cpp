// Payload detection and decompression, checked against the compression libraries themselves: each test
// compresses with the library's own encoder and expects the original bytes back.
#include "Deflate.h"
#include "inspect/Inflate.h"
#include "inspect/PayloadDecoder.h"
#include "inspect/PayloadEncoder.h"

#include <QTest>

#include <lz4frame.h>
#include <snappy-c.h>
#include <zstd.h>

using namespace keylens;
using inspect::Compression;
using inspect::ContentKind;

namespace {

QByteArray original()
{
    QByteArray json = R"({"user":{"id":123,"name":"Ada","tags":["a","b"]},"items":[)";
    for (int i = 0; i < 200; ++i)
        json += "{\"sku\":" + QByteArray::number(i) + ",\"qty\":" + QByteArray::number(i % 7) + "},";
    json.chop(1);
    json += "]}";
    return json;
}

QByteArray snappyRaw(const QByteArray& input)
{
    std::size_t length = snappy_max_compressed_length(std::size_t(input.size()));
    QByteArray out(qsizetype(length), '\0');
    snappy_compress(input.constData(), std::size_t(input.size()), out.data(), &length);
    out.resize(qsizetype(length));
    return out;
}

} // namespace

class TestPayloadDecoder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // An edited value saved back compressed the way it was stored: the decoder recognises the codec and gets the
    // exact bytes back, for every codec and for an empty value and one of several Snappy chunks.
    void encodedValuesDecodeToTheSameBytes()
    {
        using inspect::Compression;
        const QByteArray json = R"({"edited":true,"items":[1,2,3],"note":"saved back by Keylens"})";
        QByteArray large;
        for (int i = 0; i < 30000; ++i)
            large += "line " + QByteArray::number(i) + " of a long log\n";
        for (const Compression codec : {Compression::Gzip, Compression::Zlib, Compression::Lz4Frame,
                                        Compression::Snappy, Compression::SnappyFramed, Compression::Zstd}) {
            for (const QByteArray& value : {json, large}) {
                QString problem;
                const std::optional<QByteArray> encoded = inspect::encodeValue(value, codec, &problem);
                QVERIFY2(encoded, qPrintable(problem));
                QVERIFY(*encoded != value);
                const inspect::DecodedValue decoded = inspect::decodeValue(*encoded);
                QCOMPARE(decoded.compression, codec);
                QVERIFY2(decoded.problem.isEmpty(), qPrintable(decoded.problem));
                QCOMPARE(decoded.bytes, value);
            }
        }
    }

    void decompresses_data()
    {
        QTest::addColumn<QByteArray>("payload");
        QTest::addColumn<int>("compression");
        const QByteArray input = original();
        QTest::newRow("gzip") << test::deflateBytes(input, 15 + 16) << int(Compression::Gzip);
        QTest::newRow("zlib") << test::deflateBytes(input, 15) << int(Compression::Zlib);
        {
            QByteArray out(qsizetype(LZ4F_compressFrameBound(std::size_t(input.size()), nullptr)), '\0');
            const std::size_t n = LZ4F_compressFrame(out.data(), std::size_t(out.size()), input.constData(),
                                                     std::size_t(input.size()), nullptr);
            out.resize(qsizetype(n));
            QTest::newRow("lz4 frame") << out << int(Compression::Lz4Frame);
        }
        {
            QByteArray out(qsizetype(ZSTD_compressBound(std::size_t(input.size()))), '\0');
            out.resize(qsizetype(
                ZSTD_compress(out.data(), std::size_t(out.size()), input.constData(), std::size_t(input.size()), 3)));
            QTest::newRow("zstd") << out << int(Compression::Zstd);
        }
        QTest::newRow("snappy raw") << snappyRaw(input) << int(Compression::Snappy);
        {
            // The framing format: stream identifier, then one compressed chunk (type 0, CRC not checked).
            const QByteArray body = QByteArray(4, '\0') + snappyRaw(input);
            QByteArray framed("\xff\x06\x00\x00sNaPpY", 10);
            framed += char(0x00);
            framed += char(body.size() & 0xff);
            framed += char((body.size() >> 8) & 0xff);
            framed += char((body.size() >> 16) & 0xff);
            framed += body;
            QTest::newRow("snappy framed") << framed << int(Compression::SnappyFramed);
        }
    }

    void decompresses()
    {
        QFETCH(QByteArray, payload);
        QFETCH(int, compression);
        QVERIFY(payload != original());
        const inspect::DecodedValue value = inspect::decodeValue(payload);
        QCOMPARE(int(value.compression), compression);
        QCOMPARE(value.bytes, original());
        QVERIFY2(value.problem.isEmpty(), qPrintable(value.problem));
        QCOMPARE(value.kind, ContentKind::Json);
        QVERIFY(value.prettyJson.contains("\n    \"user\": {\n        \"id\": 123"));
    }

    void jsonKeepsItsOrderAndItsNumbers()
    {
        const inspect::DecodedValue value = inspect::decodeValue(
            " {\"z\":1234567890123456789,\"a\":[],\"m\":{\"s\":\"a,b:{c}\\\"]\"},\"n\":[1, {\"x\":null}]}");
        QCOMPARE(value.kind, ContentKind::Json);
        QCOMPARE(value.prettyJson, QByteArray("{\n"
                                              "    \"z\": 1234567890123456789,\n"
                                              "    \"a\": [],\n"
                                              "    \"m\": {\n"
                                              "        \"s\": \"a,b:{c}\\\"]\"\n"
                                              "    },\n"
                                              "    \"n\": [\n"
                                              "        1,\n"
                                              "        {\n"
                                              "            \"x\": null\n"
                                              "        }\n"
                                              "    ]\n"
                                              "}\n"));
    }

    void truncatedPayloadSaysSo()
    {
        const QByteArray gz = test::deflateBytes(original(), 15 + 16);
        const inspect::DecodedValue value = inspect::decodeValue(gz.left(gz.size() / 2));
        QCOMPARE(value.compression, Compression::Gzip);
        QVERIFY(!value.problem.isEmpty());
        QVERIFY(!value.bytes.isEmpty());
        QVERIFY(original().startsWith(value.bytes));
    }

    void lookalikeIsShownRaw()
    {
        // Starts like zlib (0x78 0x9c) but is not: the raw bytes are shown, with the reason.
        const QByteArray fake("\x78\x9c garbage that does not inflate", 33);
        const inspect::DecodedValue value = inspect::decodeValue(fake);
        QCOMPARE(value.compression, Compression::None);
        QCOMPARE(value.bytes, fake);
        QVERIFY(value.problem.contains(QStringLiteral("zlib")));
    }

    void decompressionBombStopsAtTheLimit()
    {
        const QByteArray zeros(20 * 1024 * 1024, '\0');
        const QByteArray bomb = test::deflateBytes(zeros, 15 + 16);
        QVERIFY(bomb.size() < 100 * 1024);
        const inspect::DecodedValue value = inspect::decodeValue(bomb, 1024 * 1024);
        QVERIFY(value.outputCapped);
        QVERIFY(value.bytes.size() >= 1024 * 1024);
        QVERIFY(value.bytes.size() < 2 * 1024 * 1024);
    }

    // The one bounded inflate, as both its readers use it (values here, snapshot files in history/Gzip): the bound
    // holds to the byte, a stream that ends at it is complete, and each other end is told apart.
    void theInflateKeepsItsBound()
    {
        using inspect::Inflated;
        const QByteArray zeros(3 * 1024 * 1024, '\0');
        const QByteArray gzip = test::deflateBytes(zeros, 15 + 16);
        const Inflated capped = inspect::inflateBounded(gzip, inspect::Wrapping::Gzip, 1000 * 1000);
        QCOMPARE(capped.end, Inflated::End::Capped);
        QCOMPARE(capped.bytes.size(), 1000 * 1000);
        const Inflated exact = inspect::inflateBounded(gzip, inspect::Wrapping::Gzip, zeros.size());
        QCOMPARE(exact.end, Inflated::End::Complete);
        QCOMPARE(exact.bytes, zeros);
        const Inflated trailing =
            inspect::inflateBounded(QByteArray(gzip + "xyz"), inspect::Wrapping::ZlibOrGzip, zeros.size());
        QCOMPARE(trailing.end, Inflated::End::Complete);
        QCOMPARE(trailing.trailing, 3);
        QCOMPARE(inspect::inflateBounded(gzip.chopped(8), inspect::Wrapping::Gzip, 2 * zeros.size()).end,
                 Inflated::End::CutShort);
        const QByteArray zlib = test::deflateBytes(zeros, 15);
        QCOMPARE(inspect::inflateBounded(zlib, inspect::Wrapping::ZlibOrGzip, zeros.size()).bytes, zeros);
        const Inflated notGzip = inspect::inflateBounded(zlib, inspect::Wrapping::Gzip, zeros.size());
        QCOMPARE(notGzip.end, Inflated::End::Damaged);
        QVERIFY(!notGzip.zlibMessage.isEmpty());
    }

    void classifiesContent()
    {
        QCOMPARE(inspect::decodeValue("").kind, ContentKind::Empty);
        QCOMPARE(inspect::decodeValue("hello\tworld\n").kind, ContentKind::Text);
        QCOMPARE(inspect::decodeValue("{not json").kind, ContentKind::Text);
        QCOMPARE(inspect::decodeValue("[1, 2, 3]").kind, ContentKind::Json);
        QCOMPARE(inspect::decodeValue("caf\xc3\xa9").kind, ContentKind::Text);
        QCOMPARE(inspect::decodeValue(QByteArray("\x00\x01\xff", 3)).kind, ContentKind::Binary);
        QCOMPARE(inspect::decodeValue("caf\xe9").kind, ContentKind::Binary); // Latin-1, not UTF-8
        // Plain text is never taken for raw Snappy, which has no magic number.
        QCOMPARE(inspect::decodeValue("plain text that is long enough").compression, Compression::None);
    }

    void hexDumpLines()
    {
        const QByteArray dump = inspect::hexDump(QByteArray("ABC\x00\xff", 5));
        QCOMPARE(dump, QByteArray("00000000  41 42 43 00 ff                                    ABC..\n"));
        const QByteArray long_ = inspect::hexDump(QByteArray(100, 'x'), 32);
        QCOMPARE(long_.count('\n'), 3);
        QVERIFY(long_.contains("68 more bytes"));
    }
};

QTEST_GUILESS_MAIN(TestPayloadDecoder)
#include "tst_payloaddecoder.moc"
