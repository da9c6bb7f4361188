#include "inspect/PayloadDecoder.h"

#include "inspect/Inflate.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QStringDecoder>

#include <cstring>
#include <lz4frame.h>
#include <optional>
#include <snappy-c.h>
#include <zstd.h>

namespace keylens::inspect {

namespace {

bool startsWith(QByteArrayView raw, const char* magic, qsizetype length)
{
    return raw.size() >= length && std::memcmp(raw.data(), magic, std::size_t(length)) == 0;
}

// What a decompressor gave: the bytes, capped at the limit or not, and a problem.
struct Decompressed
{
    QByteArray bytes;
    QString problem;
    bool capped = false;
};

Decompressed inflateZlibOrGzip(QByteArrayView raw, qsizetype maxOutput)
{
    inspect::Inflated inflated = inflateBounded(raw, Wrapping::ZlibOrGzip, maxOutput);
    Decompressed out;
    out.bytes = std::move(inflated.bytes);
    out.capped = inflated.end == inspect::Inflated::End::Capped;
    if (inflated.end == inspect::Inflated::End::CutShort)
        out.problem = QStringLiteral("the compressed data ends early");
    else if (inflated.end == inspect::Inflated::End::Damaged)
        out.problem = inflated.zlibMessage;
    return out;
}

Decompressed decompressLz4Frame(QByteArrayView raw, qsizetype maxOutput)
{
    Decompressed out;
    LZ4F_dctx* context = nullptr;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&context, LZ4F_VERSION))) {
        out.problem = QStringLiteral("LZ4 could not start");
        return out;
    }
    const char* in = raw.data();
    std::size_t remaining = std::size_t(raw.size());
    char chunk[64 * 1024];
    while (remaining > 0) {
        std::size_t produced = sizeof chunk;
        std::size_t consumed = remaining;
        const std::size_t hint = LZ4F_decompress(context, chunk, &produced, in, &consumed, nullptr);
        if (LZ4F_isError(hint)) {
            out.problem = QString::fromUtf8(LZ4F_getErrorName(hint));
            break;
        }
        out.bytes.append(chunk, qsizetype(produced));
        in += consumed;
        remaining -= consumed;
        if (out.bytes.size() >= maxOutput) {
            out.capped = true;
            break;
        }
        if (hint == 0)
            break; // the frame is complete
        if (consumed == 0 && produced == 0) {
            out.problem = QStringLiteral("the compressed data ends early");
            break;
        }
    }
    LZ4F_freeDecompressionContext(context);
    return out;
}

Decompressed decompressZstd(QByteArrayView raw, qsizetype maxOutput)
{
    Decompressed out;
    ZSTD_DStream* stream = ZSTD_createDStream();
    ZSTD_initDStream(stream);
    ZSTD_inBuffer input{raw.data(), std::size_t(raw.size()), 0};
    char chunk[64 * 1024];
    std::size_t hint = 1;
    while (input.pos < input.size || hint != 0) {
        ZSTD_outBuffer output{chunk, sizeof chunk, 0};
        hint = ZSTD_decompressStream(stream, &output, &input);
        if (ZSTD_isError(hint)) {
            out.problem = QString::fromUtf8(ZSTD_getErrorName(hint));
            break;
        }
        out.bytes.append(chunk, qsizetype(output.pos));
        if (out.bytes.size() >= maxOutput) {
            out.capped = true;
            break;
        }
        if (output.pos == 0 && input.pos == input.size) {
            if (hint != 0)
                out.problem = QStringLiteral("the compressed data ends early");
            break;
        }
    }
    ZSTD_freeDStream(stream);
    return out;
}

Decompressed decompressSnappyRaw(QByteArrayView raw, qsizetype maxOutput)
{
    Decompressed out;
    std::size_t length = 0;
    if (snappy_uncompressed_length(raw.data(), std::size_t(raw.size()), &length) != SNAPPY_OK ||
        qsizetype(length) > maxOutput) {
        out.problem = QStringLiteral("not a Snappy block");
        return out;
    }
    out.bytes.resize(qsizetype(length));
    if (snappy_uncompress(raw.data(), std::size_t(raw.size()), out.bytes.data(), &length) != SNAPPY_OK) {
        out.bytes.clear();
        out.problem = QStringLiteral("corrupt Snappy data");
    }
    return out;
}

// The Snappy framing format: a stream identifier, then chunks of compressed (0x00) or plain (0x01)
// data, each with a 4-byte checksum we skip (the data is only being shown, not trusted).
Decompressed decompressSnappyFramed(QByteArrayView raw, qsizetype maxOutput)
{
    Decompressed out;
    qsizetype pos = 0;
    while (pos + 4 <= raw.size()) {
        const auto type = static_cast<unsigned char>(raw[pos]);
        const qsizetype length = qsizetype(static_cast<unsigned char>(raw[pos + 1])) |
                                 qsizetype(static_cast<unsigned char>(raw[pos + 2])) << 8 |
                                 qsizetype(static_cast<unsigned char>(raw[pos + 3])) << 16;
        pos += 4;
        if (pos + length > raw.size()) {
            out.problem = QStringLiteral("the compressed data ends early");
            break;
        }
        const QByteArrayView body = raw.sliced(pos, length);
        pos += length;
        if (type == 0x00 && length >= 4) {
            Decompressed chunk = decompressSnappyRaw(body.sliced(4), maxOutput - out.bytes.size());
            if (!chunk.problem.isEmpty()) {
                out.problem = chunk.problem;
                break;
            }
            out.bytes += chunk.bytes;
        } else if (type == 0x01 && length >= 4) {
            out.bytes += body.sliced(4);
        }
        if (out.bytes.size() >= maxOutput) {
            out.capped = true;
            break;
        }
    }
    return out;
}

// Re-indents JSON text as it is, four spaces a level. QJsonDocument::toJson would sort object keys and
// turn every number into a double (a 64-bit id such as 1234567890123456789 would come back rounded);
// a viewer must show the value the application wrote. Only called on text QJsonDocument accepted.
QByteArray reindentJson(QByteArrayView json)
{
    QByteArray out;
    out.reserve(json.size() * 2);
    int depth = 0;
    bool inString = false;
    const auto newline = [&] {
        out += '\n';
        out += QByteArray(depth * 4, ' ');
    };
    const auto nextSignificant = [&](qsizetype from) {
        while (from < json.size() &&
               (json[from] == ' ' || json[from] == '\n' || json[from] == '\r' || json[from] == '\t'))
            ++from;
        return from < json.size() ? json[from] : '\0';
    };
    for (qsizetype i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (inString) {
            out += c;
            if (c == '\\' && i + 1 < json.size())
                out += json[++i];
            else if (c == '"')
                inString = false;
            continue;
        }
        switch (c) {
        case '"':
            inString = true;
            out += c;
            break;
        case '{':
        case '[':
            out += c;
            if (nextSignificant(i + 1) == (c == '{' ? '}' : ']')) {
                out += c == '{' ? '}' : ']';
                i = json.indexOf(c == '{' ? '}' : ']', i + 1);
            } else {
                ++depth;
                newline();
            }
            break;
        case '}':
        case ']':
            --depth;
            newline();
            out += c;
            break;
        case ',':
            out += c;
            newline();
            break;
        case ':':
            out += ": ";
            break;
        case ' ':
        case '\n':
        case '\r':
        case '\t':
            break;
        default:
            out += c;
        }
    }
    out += '\n';
    return out;
}

ContentKind classify(QByteArrayView bytes, bool readable, QByteArray* prettyJson)
{
    if (bytes.isEmpty())
        return ContentKind::Empty;
    if (!readable)
        return ContentKind::Binary;
    const QByteArrayView trimmed = bytes.trimmed();
    if (!trimmed.isEmpty() && (trimmed.front() == '{' || trimmed.front() == '[')) {
        QJsonParseError error{};
        const QJsonDocument document = QJsonDocument::fromJson(trimmed.toByteArray(), &error);
        if (error.error == QJsonParseError::NoError) {
            *prettyJson = reindentJson(trimmed);
            return ContentKind::Json;
        }
    }
    return ContentKind::Text;
}

} // namespace

QString compressionName(Compression compression)
{
    switch (compression) {
    case Compression::None:
        return QStringLiteral("none");
    case Compression::Gzip:
        return QStringLiteral("gzip");
    case Compression::Zlib:
        return QStringLiteral("zlib");
    case Compression::Lz4Frame:
        return QStringLiteral("LZ4");
    case Compression::Snappy:
        return QStringLiteral("Snappy");
    case Compression::SnappyFramed:
        return QStringLiteral("Snappy (framed)");
    case Compression::Zstd:
        return QStringLiteral("zstd");
    }
    return {};
}

bool isReadableText(QByteArrayView bytes)
{
    for (const char c : bytes) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\n' && c != '\r' && c != '\t') || u == 0x7f)
            return false;
    }
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString text = decoder.decode(bytes);
    return !decoder.hasError();
}

DecodedValue decodeValue(QByteArrayView raw, qsizetype maxOutput)
{
    DecodedValue value;
    Decompressed inflated;
    // Whether the raw bytes are text: asked by the raw-Snappy test, kept for classifying an
    // uncompressed value, so a 4 MB string is not decoded as UTF-8 twice.
    std::optional<bool> rawReadable;
    if (startsWith(raw, "\x1f\x8b\x08", 3)) {
        value.compression = Compression::Gzip;
        inflated = inflateZlibOrGzip(raw, maxOutput);
    } else if (raw.size() >= 2 && static_cast<unsigned char>(raw[0]) == 0x78 &&
               ((static_cast<unsigned char>(raw[0]) << 8) | static_cast<unsigned char>(raw[1])) % 31 == 0) {
        value.compression = Compression::Zlib;
        inflated = inflateZlibOrGzip(raw, maxOutput);
    } else if (startsWith(raw, "\x28\xb5\x2f\xfd", 4)) {
        value.compression = Compression::Zstd;
        inflated = decompressZstd(raw, maxOutput);
    } else if (startsWith(raw, "\x04\x22\x4d\x18", 4)) {
        value.compression = Compression::Lz4Frame;
        inflated = decompressLz4Frame(raw, maxOutput);
    } else if (startsWith(raw, "\xff\x06\x00\x00sNaPpY", 10)) {
        value.compression = Compression::SnappyFramed;
        inflated = decompressSnappyFramed(raw.sliced(10), maxOutput);
    } else if (raw.size() > 2 && !*(rawReadable = isReadableText(raw)) &&
               snappy_validate_compressed_buffer(raw.data(), std::size_t(raw.size())) == SNAPPY_OK) {
        inflated = decompressSnappyRaw(raw, maxOutput);
        if (inflated.problem.isEmpty())
            value.compression = Compression::Snappy;
    }

    if (value.compression == Compression::None || (!inflated.problem.isEmpty() && inflated.bytes.isEmpty())) {
        // Not compressed, or it only looked so: show the bytes as they are and say why.
        value.problem = value.compression == Compression::None
                            ? QString()
                            : QStringLiteral("looks like %1 but does not decompress: %2")
                                  .arg(compressionName(value.compression), inflated.problem);
        value.compression = Compression::None;
        value.bytes = raw.toByteArray();
    } else {
        value.bytes = std::move(inflated.bytes);
        value.outputCapped = inflated.capped;
        if (!inflated.problem.isEmpty())
            value.problem = QStringLiteral("decompressed in part: %1").arg(inflated.problem);
    }
    const bool rawShown = value.compression == Compression::None;
    const bool readable = rawShown && rawReadable ? *rawReadable : isReadableText(value.bytes);
    value.kind = classify(value.bytes, readable, &value.prettyJson);
    return value;
}

QByteArray hexDump(QByteArrayView bytes, qsizetype maxBytes)
{
    static const char digits[] = "0123456789abcdef";
    const qsizetype shown = std::min(bytes.size(), maxBytes);
    QByteArray out;
    out.reserve((shown / 16 + 1) * 78);
    for (qsizetype line = 0; line < shown; line += 16) {
        out += QByteArray::number(line, 16).rightJustified(8, '0');
        out += "  ";
        for (qsizetype i = 0; i < 16; ++i) {
            if (line + i < shown) {
                const auto u = static_cast<unsigned char>(bytes[line + i]);
                out += digits[u >> 4];
                out += digits[u & 15];
                out += ' ';
            } else {
                out += "   ";
            }
            if (i == 7)
                out += ' ';
        }
        out += ' ';
        for (qsizetype i = 0; i < 16 && line + i < shown; ++i) {
            const char c = bytes[line + i];
            out += (c >= 0x20 && c < 0x7f) ? c : '.';
        }
        out += '\n';
    }
    if (shown < bytes.size())
        out += "… " + QByteArray::number(bytes.size() - shown) + " more bytes\n";
    return out;
}

} // namespace keylens::inspect
