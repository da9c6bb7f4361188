#include "edit/Restore.h"

#include "edit/BulkPacing.h"
#include "keyspace/KeyEscape.h"

#include <QStringList>

namespace keylens::edit {

using redis::Error;
using redis::ErrorKind;

QString RestoreSummary::text() const
{
    QStringList parts;
    parts << QStringLiteral("Restored %L1 of %L2 keys.").arg(restored).arg(read);
    if (existed > 0)
        parts << QStringLiteral("%L1 exist already and were left as they are (restore with --replace to overwrite "
                                "them).")
                     .arg(existed);
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
    if (stoppedBy)
        parts << QStringLiteral("Stopped: %1").arg(stoppedBy->message);
    if (!backupComplete && !stoppedBy && !cancelled)
        parts << QStringLiteral("The backup stops early (its writer did not finish): every key it holds was read.");
    return parts.join(QLatin1Char(' '));
}

RestoreSummary restoreBackup(redis::Connection& connection, BackupReader& backup, const RestoreOptions& options,
                             const std::atomic<bool>* cancel, const BulkProgressCallback& progress)
{
    RestoreSummary summary;
    if (connection.options().readOnly) {
        summary.stoppedBy =
            Error{ErrorKind::ReadOnly, QStringLiteral("The connection is read-only, so nothing was restored.")};
        return summary;
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
                summary.stoppedBy = record.error();
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
        for (const BackupRecord& record : batch) {
            const QByteArray ttl = QByteArray::number(qlonglong(record.pttlMs > 0 ? record.pttlMs : 0));
            if (options.replace)
                connection.append({"RESTORE", record.key, ttl, record.payload, "REPLACE"});
            else
                connection.append({"RESTORE", record.key, ttl, record.payload});
        }
        for (std::size_t k = 0; k < batch.size(); ++k) {
            redis::Result<redis::Reply> reply = connection.read();
            if (!reply) {
                summary.stoppedBy = reply.error();
                summary.unknown += batch.size() - k;
                atEnd = true;
                break;
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
        if (progress)
            progress({summary.read, 0, pacing.backingOff()});
        if (!atEnd && !pacing.restAfterRound(batch.size(), cancel)) {
            summary.cancelled = true;
            break;
        }
    }
    summary.backupComplete = backup.complete();
    return summary;
}

} // namespace keylens::edit
