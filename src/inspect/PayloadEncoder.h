#pragma once

#include "inspect/PayloadDecoder.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <optional>

namespace keylens::inspect {

// Compresses an edited value the way the stored one was compressed (decodeValue told which), so that the program
// that wrote it reads it back: gzip, zlib, an LZ4 frame, raw or framed Snappy, or zstd. Nothing, with the reason in
// `problem`, when a codec fails.
std::optional<QByteArray> encodeValue(QByteArrayView bytes, Compression compression, QString* problem);

} // namespace keylens::inspect
