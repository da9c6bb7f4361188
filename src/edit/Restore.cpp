#include "edit/Restore.h"

#include "edit/BulkPacing.h"
#include "keyspace/KeyEscape.h"
#include "redis/ClusterRoutes.h"

#include <QStringList>

#include <algorithm>

namespace keylens::edit {

using redis::Error;
using redis::ErrorKind;

QString RestoreSummary::text() const
{
    QStringList parts;
    if (stoppedBy && stoppedBy->kind == ErrorKind::ReadOnly)
        parts << QStringLiteral("Restored nothing: %1 A restore would put back the %L2 keys read from the backup.")
                     .arg(stoppedBy->message)
                     .arg(read);
    else
        parts << QStringLiteral("Restored %L1 of %L2 keys.").arg(restored).arg(read);
    if (existed > 0 && action == "rename")
        // A rename moves a key: one still under its old name was never renamed (the action stopped before it).
        parts << QStringLiteral("%L1 were never renamed (the rename stopped before them) and are still under their "
                                "names, left as they are.")
                     .arg(existed);
    else if (existed > 0)
        parts << QStringLiteral("%L1 exist already and were left as they are (restore with --replace to overwrite "
                                "them).")
                     .arg(existed);
    if (restored > 0 && action == "rename")
        parts << QStringLiteral("The %L1 keys put back had been renamed: their copies under the new names are still "
                                "there.")
                     .arg(restored);
    if (failed > 0)
        parts << QStringLiteral("%L1 failed%2.")
                     .arg(failed)
                     .arg(failures.empty()
                              ? QString()
                              : QStringLiteral(" (%1: %2)")
                                    .arg(keyspace::displayString(failures.front().key), failures.front().reason));
    if (unknown > 0)
        parts << QStringLiteral("%L1 were sent, but the connection was lost before the server answered.").arg(unknown);
    if (cancelled)
        parts << QStringLiteral("Cancelled before the end of the backup.");
    if (stoppedBy && stoppedBy->kind != ErrorKind::ReadOnly)
        parts << QStringLiteral("Stopped: %1").arg(stoppedBy->message);
    const QString planned = plannedKeys > 0 ? QStringLiteral("; it was to hold %L1").arg(plannedKeys) : QString();
    if (damage && refusedWhole)
        parts << QStringLiteral("The backup is DAMAGED: %1. Nothing was restored: a damaged backup is refused whole, "
                                "since its checksum is only known at its end (%L2 keys came before the damage%3).")
                     .arg(damage->message)
                     .arg(read)
                     .arg(planned);
    else if (damage)
        parts << QStringLiteral("The backup is DAMAGED: %1. Only the %L2 keys before the damage could be read%3.")
                     .arg(damage->message)
                     .arg(read)
                     .arg(planned);
    else if (backupStoppedEarly && !cancelled && (!stoppedBy || stoppedBy->kind == ErrorKind::ReadOnly))
        parts << QStringLiteral("The backup stops early (its writer did not finish): every key it holds was "
                                "read%1.")
                     .arg(planned);
    if (existed > 0 && action != "delete" && action != "rename" && !action.isEmpty())
        parts << QStringLiteral("This backup was written before %1: its keys still exist, and restore --replace "
                                "puts back the values and TTLs they had.")
                     .arg(QString::fromUtf8(BackupPlan{action, 0}.actionPhrase()));
    return parts.join(QLatin1Char(' '));
}

namespace {
// Reads the RESTORE replies of batch[first, end) into the summary; false when the connection failed.
bool readRestoreReplies(redis::Connection& connection, const std::vector<BackupRecord>& batch, std::size_t first,
                        std::size_t end, RestoreSummary& summary);

// Reads `backup` to its end, counting its records: false where it is damaged (summary.damage says where) or the
// reading was cancelled.
bool readToTheEnd(BackupReader& backup, const std::atomic<bool>* cancel, RestoreSummary& summary)
{
    while (true) {
        if (cancel && cancel->load()) {
            summary.cancelled = true;
            return false;
        }
        redis::Result<std::optional<BackupRecord>> record = backup.next();
        if (!record) {
            summary.damage = record.error();
            return false;
        }
        if (!record->has_value())
            return true;
        ++summary.read;
    }
}
} // namespace

RestoreSummary restoreBackup(redis::Connection& connection, BackupReader& backup, const RestoreOptions& options,
                             const std::atomic<bool>* cancel, const BulkProgressCallback& progress)
{
    RestoreSummary summary;
    summary.plannedKeys = backup.plan().plannedKeys;
    summary.action = backup.plan().action;
    const auto finishWith = [&](RestoreSummary& done) -> RestoreSummary& {
        done.backupComplete = backup.complete();
        done.backupStoppedEarly = backup.stoppedEarly();
        return done;
    };
    if (connection.options().readOnly) {
        summary.stoppedBy =
            Error{ErrorKind::ReadOnly, QStringLiteral("the connection is read-only, so nothing was sent.")};
        // Read to the end all the same: the count, and whether the file is whole, are worth knowing before a real
        // restore.
        readToTheEnd(backup, cancel, summary);
        return finishWith(summary);
    }
    {
        // The whole file is checked before the first write: gzip's CRC is only known at its end, and a flipped bit
        // before it decompresses into keys that never existed (seen: 2,500 keys named like `tags817927`).
        BackupReader check;
        RestoreSummary checked;
        if (redis::Status opened = check.open(backup.path()); !opened)
            checked.damage = opened.error();
        else if (readToTheEnd(check, cancel, checked) && check.stoppedEarly() && !options.incomplete)
            // No end record, no gzip trailer: nothing vouches for what it holds, and it restored as a success ("7,892
            // of 7,892 keys", exit 0) what was half a backup.
            checked.damage = Error{ErrorKind::Damaged,
                                   QStringLiteral("it ends after %L1 keys without its end record or its gzip trailer "
                                                  "(cut short, or its writer was killed or ran out of disk); restore "
                                                  "--incomplete puts back the keys it holds")
                                       .arg(checked.read)};
        if (checked.damage || checked.cancelled) {
            checked.plannedKeys = summary.plannedKeys;
            checked.action = summary.action;
            checked.refusedWhole = bool(checked.damage);
            checked.backupComplete = false;
            return checked;
        }
    }
    BulkPacing pacing(options.speed);
    std::vector<BackupRecord> batch;
    bool atEnd = false;
    while (!atEnd) {
        if (cancel && cancel->load()) {
            summary.cancelled = true;
            break;
        }
        batch.clear();
        while (batch.size() < pacing.batchSize()) {
            redis::Result<std::optional<BackupRecord>> record = backup.next();
            if (!record) {
                summary.damage = record.error(); // the records before it are restored: they are whole
                atEnd = true;
                break;
            }
            if (!record->has_value()) {
                atEnd = true;
                break;
            }
            batch.push_back(std::move(**record));
        }
        summary.read += batch.size();
        pacing.roundStarted();
        // On a cluster each run of keys one node serves goes there: in slot order, a batch makes a few runs.
        const redis::Result<bool> cluster = batch.empty() ? redis::Result<bool>(false) : redis::spansNodes(connection);
        if (!cluster) {
            summary.stoppedBy = cluster.error();
            summary.unknown += batch.size();
            break;
        }
        if (*cluster)
            std::stable_sort(batch.begin(), batch.end(), [](const BackupRecord& a, const BackupRecord& b) {
                return redis::clusterSlot(a.key) < redis::clusterSlot(b.key);
            });
        bool failed = false; // the connection: the rest of the batch is unknown, and the restore ends
        for (std::size_t first = 0; first < batch.size() && !failed;) {
            if (redis::Status routed = connection.routeTo(batch[first].key); !routed) {
                summary.stoppedBy = routed.error();
                summary.unknown += batch.size() - first;
                failed = true;
                break;
            }
            const std::size_t end = redis::sameNodeUntil(connection.options(), first, batch.size(),
                                                         [&](std::size_t k) { return QByteArrayView(batch[k].key); });
            for (std::size_t k = first; k < end; ++k) {
                const BackupRecord& record = batch[k];
                const QByteArray ttl = QByteArray::number(qlonglong(record.pttlMs > 0 ? record.pttlMs : 0));
                if (options.replace)
                    connection.append({"RESTORE", record.key, ttl, record.payload, "REPLACE"});
                else
                    connection.append({"RESTORE", record.key, ttl, record.payload});
            }
            failed = !readRestoreReplies(connection, batch, first, end, summary);
            first = end;
        }
        atEnd = atEnd || failed;
        if (progress)
            progress({summary.read, 0, pacing.backingOff()});
        if (!atEnd && !pacing.restAfterRound(batch.size(), cancel)) {
            summary.cancelled = true;
            break;
        }
    }
    return finishWith(summary);
}

namespace {

bool readRestoreReplies(redis::Connection& connection, const std::vector<BackupRecord>& batch, std::size_t first,
                        std::size_t end, RestoreSummary& summary)
{
    for (std::size_t k = first; k < end; ++k) {
        redis::Result<redis::Reply> reply = connection.read();
        if (!reply) {
            summary.stoppedBy = reply.error();
            summary.unknown += end - k;
            return false;
        }
        if (!reply->isError()) {
            ++summary.restored;
        } else if (reply->bytes().startsWith("BUSYKEY")) {
            ++summary.existed;
        } else {
            ++summary.failed;
            if (summary.failures.size() < MostFailuresKept)
                summary.failures.push_back({batch[k].key, QString::fromUtf8(reply->bytes())});
        }
    }
    return true;
}

} // namespace

} // namespace keylens::edit
