#pragma once

#include "redis/ConnectionOptions.h"

#include <atomic>

namespace keylens::redis {

// Asks the sentinels of options.sentinel, in order, where its master is now (SENTINEL get-master-addr-by-name), and
// returns the options with that host and port. The sentinels are asked without the master's credentials. Fails with
// the reason of every sentinel when none answers, and says so when they know no master of that name.
Result<ConnectionOptions> resolveThroughSentinel(const ConnectionOptions& options, const std::atomic<bool>* cancel);

} // namespace keylens::redis
