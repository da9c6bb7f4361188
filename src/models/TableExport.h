#pragma once

#include "keyspace/Keyspace.h"

#include <QByteArray>

namespace keylens::models {

// A node's table, as the tree shows it under the node: one row per child with its subtree's keys, memory, TTLs and
// types. CSV names are shown the way the tree shows them (binary bytes escaped as redis-cli does); JSON names are
// written as every JSON of ours writes bytes (report::JsonWriter::bytesField: the text, escaped, and the exact bytes in
// `<field>_base64` where they are not printable UTF-8). Memory in bytes and times in ms since the Unix epoch, so a
// spreadsheet can sum and sort them. A JSON row whose memory is a range (streams read from an RDB file) adds
// memory_bytes_if_loaded, as keylens-cli's report does.
QByteArray childrenCsv(const keyspace::Keyspace& store, keyspace::NodeId node);
QByteArray childrenJson(const keyspace::Keyspace& store, keyspace::NodeId node);

} // namespace keylens::models
