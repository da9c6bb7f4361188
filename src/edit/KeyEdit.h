#pragma once

#include "keyspace/KeyType.h"
#include "keyspace/NamespaceStats.h"
#include "redis/Connection.h"

#include <QByteArray>
#include <QByteArrayList>
#include <QString>

#include <cstdint>
#include <optional>

namespace keylens::edit {

// One change to one key, as the details pane and the console's neighbours ask for it.
//
// An edit of something the user was shown carries what they were shown (`expected`): the edit checks, under WATCH,
// that the server still holds exactly that, and writes in MULTI/EXEC, so a value that changed since it was read is
// never overwritten: the edit comes back as a conflict, with what the server holds now, for a diff.
struct KeyEdit
{
    enum class Kind {
        SetString,          // SET key value KEEPTTL; expected: the value read
        SetHashField,       // HSET; expected: the old value, or none for a new field (which must not exist)
        RemoveHashField,    // HDEL; expected: the value read
        SetListElement,     // LSET index; expected: the element read there
        InsertListElement,  // LINSERT BEFORE|AFTER pivot (field), value
        RemoveListElements, // LREM count value
        AppendListElement,  // RPUSH value
        AddSetMember,       // SADD
        RemoveSetMember,    // SREM
        ReplaceSetMember,   // SREM field + SADD value, at once; the old member must still be there
        SetZsetMember,      // ZADD score field; expected: the old score, or none for a new member
        RenameZsetMember,   // ZREM field + ZADD score value, at once; expected: the old score
        RemoveZsetMember,   // ZREM
        AddStreamEntry,     // XADD key id(field, "*" by default) fields...
        RemoveStreamEntry,  // XDEL id (field)
        CreateKey,          // of any type, with fields, and a TTL; the key must not exist
        Rename,             // RENAMENX, or COPY … DB + DEL to another database; the new name must not exist
        Duplicate,          // COPY [DB]; the new name must not exist
        SetTtl,             // PEXPIRE
        Persist,            // PERSIST
    };
    Kind kind = Kind::SetString;
    QByteArray key;
    QByteArray field; // a hash field, a set or zset member, a pivot, a stream id, the old member of a replace
    QByteArray value; // a string or hash value, a list element, the new member of a replace
    std::optional<QByteArray> expected;
    std::int64_t index = 0; // SetListElement; RemoveListElements' count
    bool before = true;     // InsertListElement
    double score = 0;       // SetZsetMember, RenameZsetMember
    QByteArrayList fields;  // AddStreamEntry, CreateKey: field, value, field, value… (members for a set, score,
                            // member… for a zset, elements for a list)
    keyspace::KeyType type = keyspace::KeyType::String; // CreateKey
    QByteArray newKey;                                  // Rename, Duplicate
    int database = -1;                                  // Rename, Duplicate: another database; -1 this one
    std::int64_t ttlMs = -1;                            // SetTtl, CreateKey (-1: none)
};

struct EditOutcome
{
    bool applied = false;
    // Not applied because the server does not hold what the edit expected: what it holds now (nothing when the
    // key or element is gone), for the diff.
    bool conflict = false;
    std::optional<QByteArray> current;
    // The conflict is that the key itself is gone (deleted or renamed since it was read): nothing can be edited in it.
    bool keyGone = false;
    QString message;  // why it was not applied, in words (conflicts and refusals alike)
    QByteArray reply; // for an XADD: the new entry's id
};

// Applies one edit. A connection failure, and a write a read-only connection refuses before sending, are errors;
// a server's refusal (WRONGTYPE, NOPERM, an index out of range) and a conflict are outcomes that were not applied.
redis::Result<EditOutcome> applyEdit(redis::Connection& connection, const KeyEdit& edit);

// What the store keeps of a key, asked again after an edit (TYPE, PTTL and MEMORY USAGE, pipelined): nothing when the
// key is gone. A denied PTTL or MEMORY USAGE is recorded as unknown, as the scan records it.
redis::Result<std::optional<keyspace::KeyInfo>> readKeyFacts(redis::Connection& connection, const QByteArray& key);

// A score as ZADD and ZSCORE write it: the shortest text that reads back as the same double.
QByteArray scoreText(double score);

} // namespace keylens::edit
