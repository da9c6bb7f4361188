#pragma once

#include "inspect/UntouchedReads.h"
#include "redis/ConnectionOptions.h"

#include <QByteArray>
#include <QHash>
#include <QString>

#include <vector>

namespace keylens::inspect {

// The first bytes of some string values, never a whole value: what the role evidence of a lint reads of a few keys per
// pattern (lint/RoleEvidence.h).
struct ValuePrefixes
{
    QHash<QByteArray, QByteArray> values; // a key left out is gone, denied or not a string
    QString unread;                       // why none was read, when none could be
};

// GETRANGE key 0 bytes-1 of each key, pipelined, on a connection of its own in NO-TOUCH mode where the server has it.
// Where it has not and `touching` spares the idle times a scan measured, nothing is read and `unread` says so; so it
// does when the server cannot be reached.
ValuePrefixes readValuePrefixes(const redis::ConnectionOptions& server, const std::vector<QByteArray>& keys,
                                Touching touching, int bytes);

} // namespace keylens::inspect
