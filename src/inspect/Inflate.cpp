#include "inspect/Inflate.h"

#include <algorithm>
#include <zlib.h>

namespace keylens::inspect {

namespace {

constexpr qsizetype Chunk = 256 * 1024; // the output grows by this much at most per call

} // namespace

Inflated inflateBounded(QByteArrayView data, Wrapping wrapping, qsizetype maximumBytes)
{
    Inflated out;
    z_stream stream{};
    // The largest window, with the gzip header and trailer (+16) or either header (+32).
    if (inflateInit2(&stream, 15 + (wrapping == Wrapping::Gzip ? 16 : 32)) != Z_OK) {
        out.zlibMessage = QStringLiteral("zlib could not start");
        return out;
    }
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    stream.avail_in = uInt(data.size());
    while (true) {
        const qsizetype used = out.bytes.size();
        if (used >= maximumBytes) {
            out.end = Inflated::End::Capped;
            break;
        }
        out.bytes.resize(std::min(maximumBytes, used + Chunk));
        stream.next_out = reinterpret_cast<Bytef*>(out.bytes.data() + used);
        stream.avail_out = uInt(out.bytes.size() - used);
        const int status = inflate(&stream, Z_NO_FLUSH);
        out.bytes.resize(qsizetype(stream.total_out));
        if (status == Z_STREAM_END) {
            out.end = Inflated::End::Complete;
            out.trailing = qsizetype(stream.avail_in);
            break;
        }
        if (status == Z_BUF_ERROR && stream.avail_in == 0) {
            out.end = Inflated::End::CutShort;
            break;
        }
        if (status != Z_OK && status != Z_BUF_ERROR) { // Z_BUF_ERROR with input left: the output was full
            out.end = Inflated::End::Damaged;
            out.zlibMessage = QString::fromLatin1(stream.msg ? stream.msg : "corrupt data");
            break;
        }
    }
    inflateEnd(&stream);
    return out;
}

} // namespace keylens::inspect
