#pragma once

#include "edit/KeySelection.h"
#include "redis/Connection.h"
#include "scan/ScanSpeed.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace keylens::edit {

// What to do to every key of a selection.
enum class BulkKind {
    Delete,  // UNLINK
    Expire,  // PEXPIRE, optionally with jitter
    Persist, // PERSIST
    Rename,  // RENAMENX to the name in newKeys: never over a key that exists
};
QString bulkVerb(BulkKind kind); // "delete", "expire", "persist", "rename"
// Every bulk action writes a backup first: delete and rename lose values, expire and persist lose the TTLs the keys
// had (a record keeps both; `restore --replace` puts them back).
bool needsBackup(BulkKind kind);
// keylens-backup-<verb>-<yyyyMMdd-HHmmss>.klb in `folder` (the current directory when empty): the backup's file
// when the user names none; -2, -3… before .klb when that name is taken.
QString defaultBackupName(BulkKind kind, const QString& folder = {});
// The failures a summary keeps with their reasons; the counts are always exact.
inline constexpr std::size_t MostFailuresKept = 100;

struct BulkRequest
{
    BulkKind kind = BulkKind::Delete;
    std::vector<QByteArray> keys;
    std::vector<QByteArray> newKeys; // Rename: keys[i] becomes newKeys[i]
    std::int64_t ttlMs = 0;          // Expire
    // Expire: each key's TTL is ttlMs plus a random share of this, so that keys written together do not all
    // expire in the same second (the fix for expiry-avalanche).
    std::int64_t jitterMs = 0;
    QString backupPath; // Delete and Rename: where the DUMP backup goes; empty only when the caller said so
    scan::ScanSpeed speed = scan::ScanSpeed::Gentle;
};

// What happened to one key of a bulk action.
enum class KeyOutcome : std::uint8_t { NotAttempted, Done, Unchanged, Failed, Unknown };

struct BulkFailure
{
    QByteArray key;
    QString reason;
};

// What a bulk action did, key by key counted once: every key of the request is in exactly one of done, unchanged,
// failed, unknown and notAttempted.
struct BulkSummary
{
    BulkKind kind = BulkKind::Delete;
    std::uint64_t total = 0;
    std::uint64_t done = 0;
    std::uint64_t unchanged = 0;    // gone before its turn (or, for persist, without a TTL): nothing to do
    std::uint64_t failed = 0;       // the server refused (see failures)
    std::uint64_t unknown = 0;      // sent, but the connection was lost before the answer came
    std::uint64_t notAttempted = 0; // never sent: cancelled, or stopped by an error before its turn
    std::uint64_t backedUp = 0;     // records in the backup
    QString backupPath;
    bool backupComplete = false; // the backup has its end record
    bool cancelled = false;
    std::optional<redis::Error> stoppedBy; // what ended the action early (a lost connection, a full disk)
    std::vector<BulkFailure> failures;     // the first ones, with the server's words
    std::vector<KeyOutcome> outcomes;      // per key of the request, so the caller's store can follow exactly
    std::vector<std::int64_t> ttlsSetMs;   // Expire: the TTL each key was given (jitter included), per key

    bool succeeded() const { return failed == 0 && unknown == 0 && notAttempted == 0 && !stoppedBy; }
    // A few lines for a person: what was done, what was not and why, where the backup is.
    QString text() const;
};

struct BulkProgress
{
    std::uint64_t processed = 0; // keys whose fate is known
    std::uint64_t total = 0;
    bool backingOff = false;
};
using BulkProgressCallback = std::function<void(const BulkProgress&)>;

// Runs a bulk action in batches, pipelined, at the request's speed. For a delete or a rename, each batch is first
// DUMPed with its PTTLs into the backup, which is synced to disk before the batch's keys are touched; so a cancel, a
// crash or a lost connection leaves a backup that holds every key changed. `cancel` is heard between batches (a
// batch once sent is read to its end, so the summary can say what happened to it). On a read-only connection
// nothing is sent, not even the DUMPs, and the summary says why.
BulkSummary runBulkAction(redis::Connection& connection, const BulkRequest& request,
                          const std::atomic<bool>* cancel = nullptr, const BulkProgressCallback& progress = {});

// How many keys of a selection are not what the scan saw any more: gone, or of another type (TYPE, pipelined,
// at the given speed). For the preview: "12 of 330 keys changed since the scan".
struct SelectionCheck
{
    std::uint64_t checked = 0;
    std::uint64_t gone = 0;
    std::uint64_t typeChanged = 0;
    std::uint64_t changed() const { return gone + typeChanged; }
};
redis::Result<SelectionCheck> checkSinceScan(redis::Connection& connection, const KeySelection& selection,
                                             scan::ScanSpeed speed, const std::atomic<bool>* cancel = nullptr);

} // namespace keylens::edit
