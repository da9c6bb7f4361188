#pragma once

#include "demo/RedisServerProcess.h"

#include <cstdint>

// Starts `server` (with `options`) and fills it with `keys` keys of the demo mix. Prints why on stderr
// and returns false when either fails; `seconds`, when given, receives the seeding time.
bool startDemoServer(keylens::demo::RedisServerProcess& server, std::uint64_t keys,
                     const keylens::demo::RedisServerProcess::Options& options = {}, double* seconds = nullptr);
