#pragma once

#include "keyspace/KeyType.h"
#include "rdb/RdbInput.h"

#include <QByteArray>
#include <QByteArrayList>
#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

class QIODevice;

namespace keylens::rdb {

// One key of an RDB file as the reader keeps it: never its value, only what the tree and the rules need, so a key
// holding a 4 GB list costs what a small one costs.
struct RdbKey
{
    QByteArray key;
    int db = 0;
    keyspace::KeyType type = keyspace::KeyType::Unknown;
    std::uint8_t rdbType = 0;          // the RDB object type: the encoding the saving server used
    std::uint64_t elements = 0;        // a string's length in bytes; a collection's elements (fields, members, entries)
    std::uint64_t savedBytes = 0;      // the value's bytes in the file
    std::uint64_t estimatedMemory = 0; // MEMORY USAGE as Redis 7 would answer it (MemoryModel)
    // Of estimatedMemory, what only the server that wrote the key holds: a stream's newest node, allocated ahead of its
    // entries (rdb::memory::streamNodePreallocation). A server that loads the file holds the rest.
    std::uint64_t preallocatedMemory = 0;
    std::optional<std::int64_t> expiresAtMs;
    std::optional<std::uint64_t> idleSeconds; // the IDLE opcode (saved under an LRU policy)
    std::optional<int> frequency;             // the FREQ opcode (under an LFU policy)
    // A string's first bytes, when RdbCallbacks::valueBytes asked for them (never a whole big value: it is skipped).
    QByteArray valuePrefix;
    // A set's, sorted set's or list's first members, when RdbCallbacks::members asked for them (each cut to
    // RdbCallbacks::memberBytes; a sorted set's without their scores).
    QByteArrayList members;
};

struct RdbSummary;

// What the reader tells as it goes; every member is optional.
struct RdbCallbacks
{
    // Once, before the first key (or at the end of a file without keys): the header and the AUX fields so far.
    std::function<void(const RdbSummary&)> header;
    std::function<void(const RdbKey&)> key; // each key of the database asked for
    // Before a string's value is read (the key's name, type and expiry known): how many of its first bytes to keep in
    // RdbKey::valuePrefix; 0, or no callback, keeps none.
    std::function<int(const RdbKey&)> valueBytes;
    // Before a set's, sorted set's or list's value is read (its name, type and expiry known): how many of its first
    // members to keep in RdbKey::members, each up to memberBytes; 0, or no callback, keeps none. The rest is skipped
    // as ever.
    std::function<int(const RdbKey&)> members;
    int memberBytes = 512;
    std::function<void(std::uint64_t bytes)> progress; // the bytes read, now and then
    const std::atomic<bool>* cancel = nullptr;         // stops it between keys
};

// What the file says about itself, and how the reading went.
struct RdbSummary
{
    int version = 0;
    bool valkey = false;                                // a VALKEY magic (Valkey 9)
    std::vector<std::pair<QByteArray, QByteArray>> aux; // redis-ver, ctime, used-mem, …
    std::optional<std::int64_t> savedAtSeconds;         // AUX ctime
    std::optional<std::uint64_t> usedMemory;            // AUX used-mem
    QByteArray redisVersion;                            // AUX redis-ver
    // RESIZEDB's count of keys, by database: what a store is sized for before they come.
    std::vector<std::pair<int, std::uint64_t>> dbSizes;
    std::uint64_t keys = 0;
    std::uint64_t functions = 0;
    std::uint64_t bytes = 0; // read, trailer included
    bool complete = false;   // read to its end marker, the checksum matched (or the file has none)
    bool checksumChecked = false;
    std::optional<ParseError> error; // why the reading stopped early
};

// Reads an RDB file front to back (the format as redis-server and valkey-server write it: versions 1 to 12, and
// Valkey's VALKEY080) and hands over each key of database `db` (every database: -1) as it comes. Stops at the first
// thing that does not parse, with its offset (RdbSummary::error); what came before was handed over.
RdbSummary readRdb(QIODevice& device, int db, const RdbCallbacks& callbacks);

// Whether the reader makes the summary's figures of this AUX field (redis-ver or valkey-ver, ctime, used-mem): shown
// from those, not again as a field of their own.
bool isSummarisedAux(QByteArrayView name);

} // namespace keylens::rdb
