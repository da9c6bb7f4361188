#pragma once

#include <QByteArray>

#include <zlib.h>

namespace keylens::test {

// zlib's own encoder, for payloads the viewer must recognise: windowBits 15 gives a zlib stream,
// 15 + 16 a gzip one.
inline QByteArray deflateBytes(const QByteArray& input, int windowBits, int level = Z_BEST_COMPRESSION)
{
    z_stream stream{};
    deflateInit2(&stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
    QByteArray out(int(deflateBound(&stream, uLong(input.size()))) + 32, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.constData()));
    stream.avail_in = uInt(input.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = uInt(out.size());
    deflate(&stream, Z_FINISH);
    out.resize(qsizetype(stream.total_out));
    deflateEnd(&stream);
    return out;
}

} // namespace keylens::test
