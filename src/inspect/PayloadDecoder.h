#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

namespace keylens::inspect {

// What a value's bytes turn out to be, so the viewer can show them the way a person wants to read them.
enum class Compression { None, Gzip, Zlib, Lz4Frame, Snappy, SnappyFramed, Zstd };
enum class ContentKind { Empty, Text, Json, Binary };

QString compressionName(Compression compression);

struct DecodedValue
{
    Compression compression = Compression::None;
    QByteArray bytes; // decompressed when a compression was recognised, else the raw bytes
    ContentKind kind = ContentKind::Empty;
    QByteArray prettyJson;     // indented JSON when kind is Json
    QString problem;           // why a payload that looked compressed could not be decompressed
    bool outputCapped = false; // decompression stopped at the output limit
};

// Recognises gzip, zlib, LZ4 frames, Snappy (raw and framed) and zstd by their headers and
// decompresses up to `maxOutput` bytes (a decompression bomb stops there), then tells text, JSON and
// binary apart. Raw Snappy has no magic number, so it is only tried on bytes that are not text.
DecodedValue decodeValue(QByteArrayView raw, qsizetype maxOutput = 64 * 1024 * 1024);

// Valid UTF-8 without control characters other than newline, carriage return and tab.
bool isReadableText(QByteArrayView bytes);

// Sixteen bytes per line: offset, hex, and the printable ASCII beside it. Stops after `maxBytes`.
QByteArray hexDump(QByteArrayView bytes, qsizetype maxBytes = 256 * 1024);

} // namespace keylens::inspect
