#include "history/Gzip.h"

#include "inspect/Inflate.h"

#include <cstring>
#include <zlib.h>

namespace keylens::history {

namespace {

constexpr int GzipWindowBits = 15 + 16; // the largest window, with the gzip header and trailer

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
    inspect::Inflated inflated = inspect::inflateBounded(data, inspect::Wrapping::Gzip, maximumBytes);
    switch (inflated.end) {
    case inspect::Inflated::End::Complete:
        if (inflated.trailing > 0) {
            *error = QStringLiteral("%1 bytes follow the end of its gzip stream").arg(inflated.trailing);
            return std::nullopt;
        }
        return std::move(inflated.bytes);
    case inspect::Inflated::End::Capped:
        *error = QStringLiteral("its contents are larger than %1 MiB").arg(maximumBytes >> 20);
        return std::nullopt;
    case inspect::Inflated::End::CutShort:
        *error = QStringLiteral("it is cut short (%1 bytes read, the gzip stream does not end)").arg(data.size());
        return std::nullopt;
    case inspect::Inflated::End::Damaged:
        break;
    }
    *error = QStringLiteral("it is not a gzip stream or is damaged (zlib: %1)").arg(inflated.zlibMessage);
    return std::nullopt;
}

} // namespace keylens::history
