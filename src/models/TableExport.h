#pragma once

#include "keyspace/Keyspace.h"

#include <QByteArray>

namespace keylens::models {

// A node's table, as the tree shows it under the node: one row per child with its subtree's keys, memory, TTLs and
// types. Names are shown the way the tree shows them (binary bytes escaped as redis-cli does), memory in bytes and
// times in ms since the Unix epoch, so a spreadsheet can sum and sort them.
QByteArray childrenCsv(const keyspace::Keyspace& store, keyspace::NodeId node);
QByteArray childrenJson(const keyspace::Keyspace& store, keyspace::NodeId node);

} // namespace keylens::models
