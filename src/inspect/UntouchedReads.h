#pragma once

#include "redis/Connection.h"

#include <QString>

namespace keylens::inspect {

// A read of a value or a length (STRLEN, HLEN, SMEMBERS, GETRANGE…) resets the key's LRU idle time and raises its LFU
// counter, so that a tool which reads the biggest keys' lengths makes them look recently used, and cold memory can
// never flag them. A client in CLIENT NO-TOUCH mode (Redis 7.2+, Valkey 7.2+) reads without touching; older servers
// have no such mode. TYPE, PTTL, OBJECT and MEMORY USAGE never touch, whatever the mode.
enum class Touching {
    Allowed,        // the key's access data is not being measured: a read may touch it
    OnlyIfUntouched // idle times or LFU counters are measured: read only where the server can leave them as they are
};

// Puts `connection` in NO-TOUCH mode when the server has it. True: reads on it touch nothing from now on; false: the
// server has no such mode (or the connection spans a cluster's nodes, whose other connections would not be in it), and
// `why` says so in words for a notice. An error only when the connection failed.
redis::Result<bool> readWithoutTouching(redis::Connection& connection, QString* why);

} // namespace keylens::inspect
