#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <cstdint>

namespace keylens::lint {

// What the first bytes of a string value say it holds, read from the bytes alone: a language's serialized object
// (pickle, PHP's serialize or igbinary, Java's serialization, Ruby's Marshal, MessagePack), a compressed frame (gzip,
// zlib, zstd, LZ4, Snappy), JSON with or without an expiry field, a lock's random token, a number. Never who wrote it:
// a value's shape is no library's signature (an application's own 32-hex lock tokens are Redlock's too), only a hint
// of the key's role (RoleEvidence.h).
enum class ValueShape : std::uint8_t {
    Unknown,
    Number,      // a counter, a flag, a timestamp
    Serialized,  // a language's object serialization or a compressed frame: what caches and sessions store
    ExpiryJson,  // a JSON object with an expiry field (`expires`, `exp`, `maxAge`…): a session's, a cache entry's
    Json,        // another JSON object or array
    RandomToken, // 32 hex digits or a UUID alone: a lock's owner token (or any other random id)
};

struct ValueKind
{
    ValueShape shape = ValueShape::Unknown;
    // For people and the evidence ("pickle", "PHP serialize", "gzip", "JSON with an expiry field"…); static.
    const char* name = "";
    // What tells two values of one shape apart, so that keys holding the same kind of thing can be compared: a JSON
    // object's first field, a serialization's own name. Empty when nothing does.
    QByteArray signature;
};

// The first bytes of a value (GETRANGE 0 N, or an RDB file's): what they hold. Only the prefix is read: a JSON
// object's expiry field past it is not seen.
ValueKind valueKindOf(QByteArrayView firstBytes);

// The bytes of a value its evidence reads: enough for a serialization's header and a JSON object's first fields.
inline constexpr int ValuePrefixBytes = 128;

} // namespace keylens::lint
