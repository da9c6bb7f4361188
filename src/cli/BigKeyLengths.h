#pragma once

#include "keyspace/Keyspace.h"
#include "lint/Linter.h"
#include "lint/OverlayRules.h"
#include "redis/ConnectionOptions.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace keylens::cli {

// big-string and big-collection for `keylens-cli lint`: the length of every key that may be bigger than
// the rules' thresholds, one pipelined O(1) STRLEN, HLEN… each (as the browser does after a scan), in
// three steps so that the server's answers can be awaited while the linter finishes on the store:
// which keys to ask about (lint::bigKeyCandidates, reads the store), the answers (askBigKeyLengths, the
// network only), recording them.
struct BigKeyLengths
{
    lint::BigKeyCandidates candidates;                 // from lint::bigKeyCandidates()
    std::vector<std::optional<std::uint64_t>> lengths; // parallel to the candidates, once asked
    QString error;                                     // why none could be asked
};
void askBigKeyLengths(const redis::ConnectionOptions& options, BigKeyLengths& lengths);
// Tells the linter; returns what went wrong, if anything, for the report's notices: the other rules'
// findings stand either way.
QString recordBigKeyLengths(keyspace::Keyspace& store, lint::Linter& linter, const BigKeyLengths& lengths);

} // namespace keylens::cli
