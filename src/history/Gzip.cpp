#include "history/Gzip.h"

#include <cstring>
#include <zlib.h>

namespace keylens::history {

namespace {

constexpr int GzipWindowBits = 15 + 16; // the largest window, with the gzip header and trailer
constexpr qsizetype Chunk = 256 * 1024;

} // namespace

QByteArray gzipBytes(QByteArrayView data)
{
    z_stream stream{};
    deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, GzipWindowBits, 8, Z_DEFAULT_STRATEGY);
    QByteArray out;
    out.resize(qsizetype(deflateBound(&stream, uLong(data.size()))) + 32);
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    stream.avail_in = uInt(data.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = uInt(out.size());
    deflate(&stream, Z_FINISH); // the output holds deflateBound: one call finishes
    out.resize(qsizetype(stream.total_out));
    deflateEnd(&stream);
    return out;
}

std::optional<QByteArray> gunzipBytes(QByteArrayView data, qsizetype maximumBytes, QString* error)
{
    z_stream stream{};
    if (inflateInit2(&stream, GzipWindowBits) != Z_OK) {
        *error = QStringLiteral("zlib could not start");
        return std::nullopt;
    }
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    stream.avail_in = uInt(data.size());
    QByteArray out;
    int status = Z_OK;
    while (status == Z_OK) {
        if (out.size() >= maximumBytes) {
            *error = QStringLiteral("its contents are larger than %1 MiB").arg(maximumBytes >> 20);
            break;
        }
        const qsizetype used = out.size();
        out.resize(std::min(maximumBytes, used + Chunk));
        stream.next_out = reinterpret_cast<Bytef*>(out.data() + used);
        stream.avail_out = uInt(out.size() - used);
        status = inflate(&stream, Z_NO_FLUSH);
        out.resize(qsizetype(stream.total_out));
        if (status == Z_BUF_ERROR && stream.avail_in == 0) {
            *error = QStringLiteral("it is cut short (%1 bytes read, the gzip stream does not end)").arg(data.size());
            break;
        }
        if (status == Z_BUF_ERROR)
            status = Z_OK; // the output was full: give it more room
    }
    const bool ended = status == Z_STREAM_END;
    const qsizetype trailing = qsizetype(stream.avail_in);
    if (!ended && error->isEmpty())
        *error = QStringLiteral("it is not a gzip stream or is damaged (zlib: %1)")
                     .arg(QString::fromLatin1(stream.msg ? stream.msg : "no detail"));
    inflateEnd(&stream);
    if (!ended)
        return std::nullopt;
    if (trailing > 0) {
        *error = QStringLiteral("%1 bytes follow the end of its gzip stream").arg(trailing);
        return std::nullopt;
    }
    return out;
}

} // namespace keylens::history
