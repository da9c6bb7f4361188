#pragma once

#include "inspect/UntouchedReads.h"
#include "keyspace/KeyType.h"
#include "redis/Connection.h"

#include <QByteArray>
#include <QByteArrayList>
#include <QHash>
#include <QStringList>

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace keylens::inspect {

using redis::Result;

// Everything the details pane shows about one key, read with a handful of cheap commands (never a
// command whose cost grows with the value, except GETRANGE of a capped prefix).
struct KeyOverview
{
    QByteArray key;
    bool exists = true;
    keyspace::KeyType type = keyspace::KeyType::Unknown;
    QByteArray typeName;      // as TYPE answered (module types keep their own name)
    QByteArray encoding;      // OBJECT ENCODING
    std::int64_t pttlMs = -1; // -1: no TTL
    std::optional<std::uint64_t> memoryBytes;
    std::optional<std::uint64_t> length; // STRLEN, HLEN, LLEN, SCARD, ZCARD or XLEN
    QByteArray valuePrefix;              // a string's first bytes (all of it when not truncated)
    bool valueTruncated = false;
    QStringList problems; // commands the server refused, said in words
};

// The first `valueLimit` bytes of a string are read; bigger strings show that prefix.
Result<KeyOverview> readKeyOverview(redis::Connection& connection, const QByteArray& key,
                                    qsizetype valueLimit = 4 * 1024 * 1024);

// One page of a collection, fetched the way that never blocks the server: HSCAN, SSCAN and ZSCAN with
// a cursor, LRANGE by index, XRANGE from the last id seen.
struct ValueRow
{
    QByteArray first;  // hash field, list index, set member, zset member, stream entry id
    QByteArray second; // hash value, list element, zset score, stream fields; empty for sets
};

struct ValuePage
{
    std::vector<ValueRow> rows;
    QByteArray nextPosition; // where the next page starts: a cursor, an index or an exclusive id
    bool done = false;
};

// Which elements a page holds, and in what order.
struct ValueQuery
{
    // A pattern as HSCAN, SSCAN and ZSCAN's MATCH reads it; empty: every element. Lists and streams have no
    // server-side search, so it is ignored for them (see canSearch()).
    QByteArray match;
    // Sorted sets come by score (ZRANGE / ZREVRANGE by rank, WITHSCORES), lowest first unless this is set. A
    // search (ZSCAN MATCH) comes in the server's scan order instead: there is no MATCH by score.
    bool highestScoreFirst = false;
};

// Whether the server can search this type's elements (HSCAN, SSCAN, ZSCAN with MATCH).
bool canSearch(keyspace::KeyType type);

// `position` is empty for the first page. SCAN-style commands may return a few elements twice while
// the key changes, and ranges by rank or index may shift when elements are added; that is their documented
// contract, and the rows say what the server said.
Result<ValuePage> readValuePage(redis::Connection& connection, const QByteArray& key, keyspace::KeyType type,
                                const ValueQuery& query, const QByteArray& position, int pageSize);

// STRLEN, HLEN, LLEN, SCARD, ZCARD or XLEN; empty for a type without one.
QByteArrayView lengthCommand(keyspace::KeyType type);

// The members of these sets, each read only when it has at most `maxMembers` (SCARD first, then SMEMBERS, all
// pipelined), and of the strings among the keys their first 64 bytes, as one element (GETRANGE); a key that is
// denied, gone, of another type or too big is left out. An error only when the connection fails.
Result<QHash<QByteArray, QByteArrayList>>
readSetMembers(redis::Connection& connection, const std::vector<QByteArray>& keys, std::size_t maxMembers = 100'000);
// The same on a connection of its own, in NO-TOUCH mode where the server has it: nothing when there is nothing to
// read, the server cannot be reached, or reading would touch keys that `touching` says to spare (the caller then does
// without).
QHash<QByteArray, QByteArrayList> readSetMembers(const redis::ConnectionOptions& server,
                                                 const std::vector<QByteArray>& keys, Touching touching);

// The length of each key (nullopt where the server refused or the key is gone), with one O(1) command
// per key, pipelined. For marking big collections (> 5,000 elements) without opening them.
Result<std::vector<std::optional<std::uint64_t>>>
readLengths(redis::Connection& connection, const std::vector<std::pair<QByteArray, keyspace::KeyType>>& keys);

// The names of a collection's two columns ("Field", "Value"...), or an empty second one for sets.
std::pair<QString, QString> valueColumnNames(keyspace::KeyType type);

} // namespace keylens::inspect
