#pragma once

#include "inspect/UntouchedReads.h"
#include "lint/ValueSamples.h"
#include "redis/ConnectionOptions.h"

#include <QByteArray>
#include <QHash>
#include <QString>

#include <vector>

namespace keylens::inspect {

// The first bytes of some string values and a few members of some collections, never a whole value: what the role
// evidence of a lint reads of a few keys per pattern (lint/RoleEvidence.h).
struct ValuePrefixes
{
    QHash<QByteArray, QByteArray> values; // a key left out is gone, denied or not a string
    lint::ValueMembers members;           // a key left out is gone, denied or of another type
    QString unread;                       // why none was read, when none could be
};

// GETRANGE key 0 bytes-1 of each string, and SRANDMEMBER key 5, ZRANGE key 0 4 or LRANGE key 0 4 of each set, sorted
// set or list (lint::SampledMembers; each member kept up to lint::MemberBytes), pipelined, on a connection of its own
// in NO-TOUCH mode where the server has it. Where it has not and `touching` spares the idle times a scan measured,
// nothing is read and `unread` says so; so it does when the server cannot be reached, and it names the commands the
// server refused (an ACL) and for how many keys.
ValuePrefixes readValuePrefixes(const redis::ConnectionOptions& server, const lint::ValueQuestion& question,
                                Touching touching, int bytes);

} // namespace keylens::inspect
