#pragma once

#include "keyspace/KeyType.h"

#include <QByteArray>
#include <QByteArrayList>
#include <QHash>
#include <QString>

#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace keylens::lint {

// The first bytes of some string values (lint::ValuePrefixBytes of them), by key.
using ValuePrefixes = QHash<QByteArray, QByteArray>;
// A few members of some sets, sorted sets and lists (at most SampledMembers, each cut to MemberBytes), by key.
using ValueMembers = QHash<QByteArray, QByteArrayList>;

// Members read of a collection: SRANDMEMBER key 5, ZRANGE key 0 4, LRANGE key 0 4; never the whole collection.
inline constexpr int SampledMembers = 5;
// A member is kept up to this many bytes: longer, it names no key the evidence looks up (a payload, not a name).
inline constexpr int MemberBytes = 512;

// What the evidence asks a server for: the first bytes of some strings, and a few members of some collections.
struct ValueQuestion
{
    std::vector<QByteArray> strings;
    std::vector<std::pair<QByteArray, keyspace::KeyType>> collections; // sets, sorted sets, lists

    bool isEmpty() const { return strings.empty() && collections.empty(); }
};

// What a server answered for the keys asked, or why it was not asked (a notice: reading would have reset the idle
// times a scan measured, on a server without CLIENT NO-TOUCH).
struct ValueRead
{
    ValuePrefixes values; // a key left out was not read: gone, denied, not a string
    ValueMembers members; // a key left out was not read: gone, denied, of another type
    QString unread;
};

// Where the role evidence (RoleEvidence.h) takes the first bytes of a few values per pattern from, and a few members of
// the collections that may index other keys. The linter reads no server itself: the end of a scan
// (inspect::valueSourceFor) gives it an RDB file's kept values, or a way to ask the server for the few keys it picks.
// Empty: no value is read, and the other evidence judges alone.
struct ValueSource
{
    // An RDB file's values and members, kept as it was read (a few per kind of key): each pattern takes those of its
    // keys.
    std::shared_ptr<const ValuePrefixes> kept;
    std::shared_ptr<const ValueMembers> keptMembers;
    // GETRANGE, SRANDMEMBER, ZRANGE or LRANGE on a server, of the keys the evidence picks; called on the judging
    // thread, blocking.
    std::function<ValueRead(const ValueQuestion& question)> read;

    bool isEmpty() const { return !kept && !keptMembers && !read; }
};

} // namespace keylens::lint
