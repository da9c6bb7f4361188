#pragma once

#include <QByteArray>
#include <QHash>
#include <QString>

#include <functional>
#include <memory>
#include <vector>

namespace keylens::lint {

// The first bytes of some string values (lint::ValuePrefixBytes of them), by key.
using ValuePrefixes = QHash<QByteArray, QByteArray>;

// What a server answered for the keys asked, or why it was not asked (a notice: reading would have reset the idle
// times a scan measured, on a server without CLIENT NO-TOUCH).
struct ValueRead
{
    ValuePrefixes values; // a key left out was not read: gone, denied, not a string
    QString unread;
};

// Where the role evidence (RoleEvidence.h) takes the first bytes of a few values per pattern from. The linter reads
// no server itself: the end of a scan (inspect::valueSourceFor) gives it an RDB file's kept values, or a way to ask the
// server for the few keys it picks. Empty: no value is read, and the other evidence judges alone.
struct ValueSource
{
    // An RDB file's values, kept as it was read (a few per kind of key): each pattern takes those of its keys.
    std::shared_ptr<const ValuePrefixes> kept;
    // GETRANGE on a server, of the keys the evidence picks; called on the judging thread, blocking.
    std::function<ValueRead(const std::vector<QByteArray>& keys)> read;

    bool isEmpty() const { return !kept && !read; }
};

} // namespace keylens::lint
