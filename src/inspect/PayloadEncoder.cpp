#include "inspect/PayloadEncoder.h"

#include <QtEndian>

#include <array>
#include <lz4frame.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

namespace keylens::inspect {

namespace {

std::optional<QByteArray> deflateWith(QByteArrayView bytes, int windowBits, QString* problem)
{
    z_stream stream{};
    if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        *problem = QStringLiteral("zlib could not start");
        return std::nullopt;
    }
    QByteArray out(qsizetype(deflateBound(&stream, uLong(bytes.size()))) + 32, Qt::Uninitialized);
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    stream.avail_in = uInt(bytes.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = uInt(out.size());
    const int result = deflate(&stream, Z_FINISH);
    out.truncate(qsizetype(stream.total_out));
    deflateEnd(&stream);
    if (result != Z_STREAM_END) {
        *problem = QStringLiteral("zlib could not compress the value");
        return std::nullopt;
    }
    return out;
}

// CRC-32C (Castagnoli), which the Snappy framing format checks each chunk with.
std::uint32_t crc32c(QByteArrayView bytes)
{
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> entries{};
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t crc = i;
            for (int bit = 0; bit < 8; ++bit)
                crc = crc & 1 ? (crc >> 1) ^ 0x82f63b78u : crc >> 1;
            entries[i] = crc;
        }
        return entries;
    }();
    std::uint32_t crc = 0xffffffffu;
    for (const char byte : bytes)
        crc = table[(crc ^ std::uint8_t(byte)) & 0xff] ^ (crc >> 8);
    return ~crc;
}

std::optional<QByteArray> snappyRaw(QByteArrayView bytes, QString* problem)
{
    size_t length = snappy_max_compressed_length(size_t(bytes.size()));
    QByteArray out(qsizetype(length), Qt::Uninitialized);
    if (snappy_compress(bytes.data(), size_t(bytes.size()), out.data(), &length) != SNAPPY_OK) {
        *problem = QStringLiteral("Snappy could not compress the value");
        return std::nullopt;
    }
    out.truncate(qsizetype(length));
    return out;
}

std::optional<QByteArray> snappyFramed(QByteArrayView bytes, QString* problem)
{
    constexpr qsizetype ChunkBytes = 65536; // the format's most uncompressed bytes per chunk
    QByteArray out("\xff\x06\x00\x00sNaPpY", 10);
    for (qsizetype at = 0; at < bytes.size() || (at == 0 && bytes.isEmpty()); at += ChunkBytes) {
        const QByteArrayView chunk = bytes.sliced(at, std::min(ChunkBytes, bytes.size() - at));
        const std::optional<QByteArray> compressed = snappyRaw(chunk, problem);
        if (!compressed)
            return std::nullopt;
        const std::uint32_t crc = crc32c(chunk);
        const std::uint32_t masked = ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
        const std::uint32_t length = std::uint32_t(compressed->size() + 4);
        out.append(char(0x00));
        out.append(char(length & 0xff)).append(char(length >> 8 & 0xff)).append(char(length >> 16 & 0xff));
        char crcBytes[4];
        qToLittleEndian(masked, crcBytes);
        out.append(crcBytes, 4);
        out.append(*compressed);
        if (bytes.isEmpty())
            break;
    }
    return out;
}

} // namespace

std::optional<QByteArray> encodeValue(QByteArrayView bytes, Compression compression, QString* problem)
{
    switch (compression) {
    case Compression::None:
        return bytes.toByteArray();
    case Compression::Gzip:
        return deflateWith(bytes, 15 + 16, problem);
    case Compression::Zlib:
        return deflateWith(bytes, 15, problem);
    case Compression::Lz4Frame: {
        QByteArray out(qsizetype(LZ4F_compressFrameBound(size_t(bytes.size()), nullptr)), Qt::Uninitialized);
        const size_t written =
            LZ4F_compressFrame(out.data(), size_t(out.size()), bytes.data(), size_t(bytes.size()), nullptr);
        if (LZ4F_isError(written)) {
            *problem = QStringLiteral("LZ4: %1").arg(QString::fromUtf8(LZ4F_getErrorName(written)));
            return std::nullopt;
        }
        out.truncate(qsizetype(written));
        return out;
    }
    case Compression::Snappy:
        return snappyRaw(bytes, problem);
    case Compression::SnappyFramed:
        return snappyFramed(bytes, problem);
    case Compression::Zstd: {
        QByteArray out(qsizetype(ZSTD_compressBound(size_t(bytes.size()))), Qt::Uninitialized);
        const size_t written = ZSTD_compress(out.data(), size_t(out.size()), bytes.data(), size_t(bytes.size()), 3);
        if (ZSTD_isError(written)) {
            *problem = QStringLiteral("zstd: %1").arg(QString::fromUtf8(ZSTD_getErrorName(written)));
            return std::nullopt;
        }
        out.truncate(qsizetype(written));
        return out;
    }
    }
    return std::nullopt;
}

} // namespace keylens::inspect
