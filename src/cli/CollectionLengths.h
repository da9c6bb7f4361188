#pragma once

#include "keyspace/Keyspace.h"
#include "lint/Linter.h"
#include "redis/ConnectionOptions.h"

#include <QString>

namespace keylens::cli {

// big-collection for `keylens-cli lint`: asks the server for the element count of every collection
// that may hold more than the rule's threshold (one pipelined O(1) length command each, as the browser
// does after a scan) and tells the linter. Returns what went wrong, if anything, for the report's
// notices: the other rules' findings stand either way.
QString countBigCollections(const redis::ConnectionOptions& options, keyspace::Keyspace& store, lint::Linter& linter);

} // namespace keylens::cli
