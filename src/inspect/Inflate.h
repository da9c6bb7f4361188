#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

namespace keylens::inspect {

// The one bounded inflate (zlib's): a value's gzip or zlib payload for the details pane (PayloadDecoder.h), a
// snapshot file's gzip stream (history/Gzip.h). The output never grows past the bound: a length in damaged or
// hostile input (a decompression bomb) is not trusted. The caller says what each end means to its reader.
enum class Wrapping {
    Gzip,       // RFC 1952 only, as `gzip -dc` reads it
    ZlibOrGzip, // either header (zlib's automatic detection)
};

struct Inflated
{
    enum class End {
        Complete, // the stream's end was reached
        Capped,   // the output reached the bound before the end
        CutShort, // the input ended before the stream did
        Damaged,  // not such a stream, or corrupt (zlibMessage says how)
    };
    QByteArray bytes; // what was inflated, whatever the end: at most the bound
    End end = End::Damaged;
    qsizetype trailing = 0; // input bytes after the stream's end
    QString zlibMessage;    // zlib's own words for a damaged stream, or "corrupt data"
};

Inflated inflateBounded(QByteArrayView data, Wrapping wrapping, qsizetype maximumBytes);

} // namespace keylens::inspect
