#pragma once

#include "edit/BackupFile.h"
#include "edit/BulkAction.h"

namespace keylens::edit {

struct RestoreOptions
{
    bool replace = false; // RESTORE … REPLACE: put the backup's value over a key that exists now
    scan::ScanSpeed speed = scan::ScanSpeed::Gentle;
    // Restore a backup that ends before its end record (cut short, or its writer was killed or ran out of disk): the
    // keys it holds. Without it such a backup is refused whole, as a damaged one is: nothing checks it whole (its
    // gzip CRC is at its end), and a file cut short cannot be told from one whose writer stopped.
    bool incomplete = false;
};

struct RestoreSummary
{
    std::uint64_t restored = 0;
    std::uint64_t existed = 0; // a key of that name exists now, and replace was not asked for: left as it is
    std::uint64_t failed = 0;  // the server refused (see failures)
    std::uint64_t unknown = 0; // sent, but the connection was lost before the answer
    std::uint64_t read = 0;    // records read from the backup
    bool backupComplete = false;
    bool backupStoppedEarly = false; // its writer did not finish: every key it holds was read
    std::uint64_t plannedKeys = 0;   // what the header says the writer meant to back up; 0 when it does not say
    QByteArray action;               // what the writer did after the dump ("delete", "expire"…), when it says
    bool cancelled = false;
    std::optional<redis::Error> damage; // the backup is damaged there
    // The damage was found before the first write (the whole file is read first): nothing was restored. Without it,
    // the file changed between the check and the restore, and what came before the damage was restored.
    bool refusedWhole = false;
    std::optional<redis::Error> stoppedBy; // what ended the restore early: the connection, read-only
    std::vector<BulkFailure> failures;

    bool succeeded() const
    {
        // Restoring a rename's backup, a key still under its old name is one the rename never reached: in place,
        // which is what the restore was for.
        return failed == 0 && unknown == 0 && (existed == 0 || action == "rename") && !stoppedBy && !damage &&
               !cancelled;
    }
    QString text() const;
};

// Puts every key of a backup back with RESTORE, with the PTTL it had when it was backed up (a key that had none gets
// none), in pipelined batches at the given speed. The whole file is read first: a damaged one, and one that stops
// before its end record (unless options.incomplete), is refused whole, nothing written, and the summary names the
// damage (refusedWhole). With options.incomplete a backup cut short restores what it holds, and the summary says it
// was incomplete. On a
// read-only connection nothing is sent: the whole backup is read and counted, so the summary says what a restore
// would put back.
RestoreSummary restoreBackup(redis::Connection& connection, BackupReader& backup, const RestoreOptions& options,
                             const std::atomic<bool>* cancel = nullptr, const BulkProgressCallback& progress = {});

} // namespace keylens::edit
