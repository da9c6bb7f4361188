#pragma once

#include <QProcessEnvironment>

namespace keylens::redis {

// The environment for programs Keylens starts (ssh for a tunnel, the demo's redis-server): its own, without the
// variables that may hold a Redis password (REDISCLI_AUTH, REDIS_URL). They were read once, for our connections;
// a child has no use for them, and its environment is one more place a crash reporter or a debugger copies.
QProcessEnvironment childEnvironment();

} // namespace keylens::redis
