#pragma once

#include "keyspace/Keyspace.h"
#include "lint/Linter.h"
#include "redis/ConnectionOptions.h"

#include <QString>

namespace keylens::cli {

// big-string and big-collection for `keylens-cli lint`: asks the server for the length of every key
// that may be bigger than the rules' thresholds (one pipelined O(1) STRLEN, HLEN… each, as the browser
// does after a scan) and tells the linter. Returns what went wrong, if anything, for the report's
// notices: the other rules' findings stand either way.
QString checkBigKeys(const redis::ConnectionOptions& options, keyspace::Keyspace& store, lint::Linter& linter);

} // namespace keylens::cli
