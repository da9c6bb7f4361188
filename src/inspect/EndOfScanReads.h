#pragma once

#include "inspect/UntouchedReads.h"
#include "keyspace/Keyspace.h"
#include "lint/LibraryLayouts.h"
#include "lint/Linter.h"
#include "lint/OverlayRules.h"
#include "lint/ValueSamples.h"
#include "redis/ConnectionOptions.h"
#include "scan/ScanTypes.h"

#include <QByteArray>
#include <QHash>
#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace keylens::inspect {

// What the end of a scan reads of the server for the rules, beside them: one step for the window
// (models::EndOfScan, on its worker), the CLI (keylens-cli lint) and the tests. The rules themselves read no server
// (src/lint): they are handed the library sets, the big keys' lengths and a few values read here, each in NO-TOUCH mode
// where the server has it.

// The lengths of the keys that may be bigger than big-string's and big-collection's thresholds: one pipelined O(1)
// STRLEN, HLEN… each, asked once the scan is over.
struct BigKeyLengths
{
    lint::BigKeyCandidates candidates;                 // from lint::bigKeyCandidates()
    std::vector<std::optional<std::uint64_t>> lengths; // parallel to the candidates, once asked
    QString error;                                     // why none could be asked
};

// A scan that measured idle times or LFU counters spares them: nothing after it may read what would touch them.
Touching touchingFor(const scan::ScanOptions& options);

// The set members that library layouts keep registries in (Sidekiq's `queues`…), asked of `server` for the keys
// LibraryLayouts::keysToRead names; none when reading them would touch keys that `touching` spares.
lint::SetMembers readLibrarySets(const redis::ConnectionOptions& server, const keyspace::Keyspace& store,
                                 Touching touching);

// The end of a scan, one step for the GUI, the CLI and the tests. `judge` runs the namespace rules and library
// layouts over the store, given the library set members (`known`, or read from `server` first); meanwhile the server
// answers the big keys' lengths, on a connection of its own. An RDB file's lengths are known (`fileLengths`, from
// ScanSummary::knownLengths): the candidates are looked up there, and no server is asked. Without either (the scan
// failed or was interrupted: a failed server would only time out again) nothing is asked, and the lengths say so.
// `cancel`, once set, ends a length question blocked on the server (a rescan waiting for this). Every read is made in
// NO-TOUCH mode where the server has it; where it has not, `touching` OnlyIfUntouched (the scan measured idle times)
// leaves the lengths and sets unread, and the lengths' error says why. Nothing may write to the store until it
// returns; any thread.
BigKeyLengths judgeBesideLengths(const keyspace::Keyspace& store, const redis::ConnectionOptions* server,
                                 Touching touching, std::optional<lint::SetMembers> known,
                                 const std::function<void(const lint::SetMembers&)>& judge,
                                 const std::atomic<bool>* cancel = nullptr,
                                 const QHash<QByteArray, std::uint64_t>* fileLengths = nullptr);

// After the judgement's verdicts are recorded: the lengths told to the linter. Returns what could not be checked,
// for the notices (empty when every candidate was): the other rules' findings stand either way.
QString recordBigKeyLengths(keyspace::Keyspace& store, lint::Linter& linter, const BigKeyLengths& lengths);

// Where a lint's role evidence (lint/RoleEvidence.h) takes the first bytes of a few values per pattern, and a few
// members of the collections that may index other keys, from: an RDB file's, kept as it was read; or the server's, read
// once the scan is over on a connection of its own, in NO-TOUCH mode where the server has it (where it has not and the
// scan measured idle times, none is read and the lint says so). None after a scan that did not finish: a failed server
// would only time out again.
lint::ValueSource valueSourceFor(const scan::ScanOptions& options, const scan::ScanSummary& summary, bool finished);

} // namespace keylens::inspect
