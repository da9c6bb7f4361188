#include "edit/BulkAction.h"

#include "edit/BackupFile.h"
#include "edit/BulkPacing.h"
#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "redis/ClusterRoutes.h"
#include "redis/ClusterSlot.h"

#include <QDateTime>
#include <QFileInfo>
#include <QStringList>

#include <algorithm>
#include <numeric>
#include <random>

namespace keylens::edit {

using redis::Error;
using redis::ErrorKind;

namespace {

QString pastTense(BulkKind kind)
{
    switch (kind) {
    case BulkKind::Delete:
        return QStringLiteral("Deleted");
    case BulkKind::Expire:
        return QStringLiteral("Set a TTL on");
    case BulkKind::Persist:
        return QStringLiteral("Removed the TTL of");
    case BulkKind::Rename:
        return QStringLiteral("Renamed");
    }
    return {};
}

QString keysText(std::uint64_t count)
{
    return QString::fromUtf8(keyspace::formatCounted(count, "key"));
}

// "1 key was", "2 keys were".
QString keysWere(std::uint64_t count)
{
    return keysText(count) + (count == 1 ? QStringLiteral(" was") : QStringLiteral(" were"));
}

// Counts every key of the request once, and keeps the first failures' reasons.
class Tally
{
public:
    explicit Tally(BulkSummary& summary)
        : m_summary(summary)
    {}
    void fail(const QByteArray& key, QString reason)
    {
        ++m_summary.failed;
        if (m_summary.failures.size() < MostFailuresKept)
            m_summary.failures.push_back({key, std::move(reason)});
    }

private:
    BulkSummary& m_summary;
};

QString replyText(redis::ReplyView reply)
{
    return QString::fromUtf8(reply.bytes());
}

// The command that does the action to key `index`.
std::vector<QByteArray> actionCommand(const BulkRequest& request, std::size_t index, std::mt19937_64& random,
                                      BulkSummary& summary)
{
    const QByteArray& key = request.keys[index];
    switch (request.kind) {
    case BulkKind::Delete:
        return {"UNLINK", key};
    case BulkKind::Expire: {
        std::int64_t ttl = request.ttlMs;
        if (request.jitterMs > 0)
            ttl += std::uniform_int_distribution<std::int64_t>(0, request.jitterMs)(random);
        summary.ttlsSetMs[index] = ttl;
        return {"PEXPIRE", key, QByteArray::number(qlonglong(ttl))};
    }
    case BulkKind::Persist:
        return {"PERSIST", key};
    case BulkKind::Rename:
        return {"RENAMENX", key, request.newKeys[index]};
    }
    return {};
}

enum class Outcome { Done, Unchanged, Failed };

Outcome classify(const BulkRequest& request, std::size_t index, redis::ReplyView reply, QString* reason)
{
    if (reply.isError()) {
        // RENAMENX of a key that is gone by now: nothing to do, as UNLINK's 0.
        if (request.kind == BulkKind::Rename && reply.bytes().contains("no such key"))
            return Outcome::Unchanged;
        *reason = replyText(reply);
        return Outcome::Failed;
    }
    if (reply.isInteger() && reply.integer() >= 1)
        return Outcome::Done;
    if (request.kind == BulkKind::Rename) {
        *reason = QStringLiteral("%1 exists already; it was left as it was")
                      .arg(keyspace::displayString(request.newKeys[index]));
        return Outcome::Failed;
    }
    return Outcome::Unchanged;
}

} // namespace

QString bulkVerb(BulkKind kind)
{
    switch (kind) {
    case BulkKind::Delete:
        return QStringLiteral("delete");
    case BulkKind::Expire:
        return QStringLiteral("expire");
    case BulkKind::Persist:
        return QStringLiteral("persist");
    case BulkKind::Rename:
        return QStringLiteral("rename");
    }
    return {};
}

QString defaultBackupName(BulkKind kind, const QString& folder)
{
    // Two actions in one second (a persist, then an expire) must not meet an existing file: a backup is never
    // overwritten, so the second one would stop before it started.
    const QString stem =
        QStringLiteral("keylens-backup-%1-%2")
            .arg(bulkVerb(kind), QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    const QString prefix = folder.isEmpty() ? QString() : folder + u'/';
    QString name = stem + QStringLiteral(".klb");
    for (int n = 2; QFileInfo::exists(prefix + name); ++n)
        name = stem + QStringLiteral("-%1.klb").arg(n);
    return prefix + name;
}

bool needsBackup(BulkKind)
{
    return true; // an expire or persist destroys the TTLs the keys had: they are in the backup's records
}

QString BulkSummary::text() const
{
    QStringList parts;
    parts << QStringLiteral("%1 %L2 of %3.").arg(pastTense(kind)).arg(done).arg(keysText(total));
    if (unchanged > 0)
        parts << (kind == BulkKind::Persist
                      ? QStringLiteral("%1 had no TTL or %2 gone.")
                            .arg(keysText(unchanged), unchanged == 1 ? QStringLiteral("was") : QStringLiteral("were"))
                      : QStringLiteral("%1 gone already.").arg(keysWere(unchanged)));
    if (failed > 0)
        parts << QStringLiteral("%1 failed%2.")
                     .arg(keysText(failed), failures.empty() ? QString()
                                                             : QStringLiteral(" (%1: %2)")
                                                                   .arg(keyspace::displayString(failures.front().key),
                                                                        failures.front().reason));
    if (unknown > 0)
        parts << QStringLiteral("%1 sent, but the connection was lost before the server answered: they may or "
                                "may not have changed.")
                     .arg(keysWere(unknown));
    if (notAttempted > 0)
        parts << QStringLiteral("%1 not attempted%2.")
                     .arg(keysWere(notAttempted), cancelled ? QStringLiteral(": cancelled") : QString());
    if (stoppedBy)
        parts << QStringLiteral("Stopped: %1").arg(stoppedBy->message);
    if (!backupPath.isEmpty() && backedUp > 0)
        parts << QStringLiteral("Backup of %1: %2%3.")
                     .arg(keysText(backedUp), backupPath,
                          backupComplete ? QString() : QStringLiteral(" (not closed properly; it still restores)"));
    return parts.join(QLatin1Char(' '));
}

BulkSummary runBulkAction(redis::Connection& connection, const BulkRequest& request, const std::atomic<bool>* cancel,
                          const BulkProgressCallback& progress)
{
    BulkSummary summary;
    summary.kind = request.kind;
    summary.total = request.keys.size();
    summary.outcomes.assign(request.keys.size(), KeyOutcome::NotAttempted);
    if (request.kind == BulkKind::Expire)
        summary.ttlsSetMs.assign(request.keys.size(), 0);
    Tally tally(summary);
    const std::size_t total = request.keys.size();
    if (connection.options().readOnly) {
        summary.stoppedBy = Error{ErrorKind::ReadOnly,
                                  QStringLiteral("The connection is read-only, so nothing was sent. Connect without "
                                                 "read-only to %1 keys.")
                                      .arg(bulkVerb(request.kind))};
        summary.notAttempted = total;
        return summary;
    }
    if (request.kind == BulkKind::Rename && request.newKeys.size() != total) {
        summary.stoppedBy = Error{ErrorKind::Usage, QStringLiteral("A rename needs a new name for every key")};
        summary.notAttempted = total;
        return summary;
    }
    // Before the backup opens: a connection that fails here leaves no file behind.
    const redis::Result<bool> cluster = total ? redis::spansNodes(connection) : redis::Result<bool>(false);
    if (!cluster) {
        summary.stoppedBy = cluster.error();
        summary.notAttempted = total;
        return summary;
    }
    const bool backingUp = needsBackup(request.kind) && !request.backupPath.isEmpty();
    BackupWriter backup;
    if (backingUp) {
        if (redis::Status opened = backup.open(request.backupPath, connection.options().description().toUtf8(),
                                               {bulkVerb(request.kind).toUtf8(), total});
            !opened) {
            summary.stoppedBy = opened.error();
            summary.notAttempted = total;
            return summary;
        }
        summary.backupPath = request.backupPath;
    }

    BulkPacing pacing(request.speed);
    std::mt19937_64 random{std::random_device{}()};
    // On a cluster the keys go in slot order, and a batch never spans two nodes: it is sent where its keys live.
    const std::vector<std::size_t> order =
        redis::inSlotOrder(total, *cluster, [&](std::size_t i) { return QByteArrayView(request.keys[i]); });
    std::size_t next = 0; // the first position in `order` not sent yet
    // Ends the action early; every key not counted by then was not attempted.
    const auto stop = [&](Error error, std::size_t unknownKeys) {
        summary.stoppedBy = std::move(error);
        summary.unknown += unknownKeys;
    };
    // Counts the answer to key i's action.
    const auto record = [&](std::size_t i, redis::ReplyView reply) {
        QString reason;
        switch (classify(request, i, reply, &reason)) {
        case Outcome::Done:
            ++summary.done;
            summary.outcomes[i] = KeyOutcome::Done;
            break;
        case Outcome::Unchanged:
            ++summary.unchanged;
            summary.outcomes[i] = KeyOutcome::Unchanged;
            break;
        case Outcome::Failed:
            tally.fail(request.keys[i], reason);
            summary.outcomes[i] = KeyOutcome::Failed;
            break;
        }
    };
    while (next < total) {
        if (cancel && cancel->load()) {
            summary.cancelled = true;
            break;
        }
        if (redis::Status routed = connection.routeTo(request.keys[order[next]]); !routed) {
            stop(routed.error(), 0);
            break;
        }
        const std::size_t end =
            redis::sameNodeUntil(connection.options(), next, std::min(total, next + pacing.batchSize()),
                                 [&](std::size_t p) { return QByteArrayView(request.keys[order[p]]); });
        pacing.roundStarted();
        std::size_t commands = 0;
        std::vector<std::size_t> acting; // the keys of this batch that get the action
        acting.reserve(end - next);
        if (backingUp) {
            for (std::size_t p = next; p < end; ++p) {
                connection.append({"DUMP", request.keys[order[p]]});
                connection.append({"PTTL", request.keys[order[p]]});
            }
            commands += 2 * (end - next);
            bool stopped = false;
            for (std::size_t p = next; p < end; ++p) {
                const std::size_t i = order[p];
                redis::Result<redis::Reply> dump = connection.read();
                if (!dump) {
                    stop(dump.error(), 0); // nothing of this batch was changed yet
                    stopped = true;
                    break;
                }
                redis::Result<redis::Reply> pttl = connection.read();
                if (!pttl) {
                    stop(pttl.error(), 0);
                    stopped = true;
                    break;
                }
                if (stopped) {
                    continue; // the backup failed: read the rest of the answers, so the connection stays usable
                } else if (dump->isNil()) {
                    ++summary.unchanged;
                    summary.outcomes[i] = KeyOutcome::Unchanged;
                } else if (dump->isError()) {
                    summary.outcomes[i] = KeyOutcome::Failed;
                    tally.fail(request.keys[i],
                               QStringLiteral("not backed up, so left alone: %1").arg(replyText(*dump)));
                } else {
                    const std::int64_t ttl = pttl->isInteger() && pttl->integer() >= 0 ? pttl->integer() : -1;
                    if (redis::Status written = backup.write({request.keys[i], ttl, dump->bytes().toByteArray()});
                        !written) {
                        stop(written.error(), 0);
                        stopped = true;
                    } else {
                        acting.push_back(i);
                    }
                }
            }
            if (stopped)
                break;
            if (redis::Status synced = backup.sync(); !synced) {
                stop(synced.error(), 0);
                break;
            }
        } else {
            for (std::size_t p = next; p < end; ++p)
                acting.push_back(order[p]);
        }

        for (const std::size_t i : acting) {
            connection.append(actionCommand(request, i, random, summary));
        }
        commands += acting.size();
        std::vector<std::size_t> redirected;
        for (std::size_t k = 0; k < acting.size(); ++k) {
            redis::Result<redis::Reply> reply = connection.read();
            if (!reply) {
                stop(reply.error(), acting.size() - k);
                for (std::size_t lost = k; lost < acting.size(); ++lost)
                    summary.outcomes[acting[lost]] = KeyOutcome::Unknown;
                break;
            }
            if (redis::parseRedirect(reply->isError() ? reply->bytes() : QByteArrayView())) {
                redirected.push_back(acting[k]); // its slot moved mid-action: sent again where it went, below
                continue;
            }
            record(acting[k], *reply);
        }
        // Keys whose slot moved to another node since the batch was routed: each is sent again where it lives now.
        for (const std::size_t i : redirected) {
            if (summary.stoppedBy)
                break;
            const std::vector<QByteArray> command = actionCommand(request, i, random, summary);
            redis::Result<redis::Reply> reply = redis::forKey(connection, request.keys[i], [&] {
                connection.append(command);
                return connection.read();
            });
            if (!reply) {
                stop(reply.error(), 1);
                summary.outcomes[i] = KeyOutcome::Unknown;
                break;
            }
            record(i, *reply);
        }
        if (summary.stoppedBy)
            break;
        next = end;
        if (progress)
            progress({next, total, pacing.backingOff()});
        if (next < total && !pacing.restAfterRound(commands, cancel)) {
            summary.cancelled = true;
            break;
        }
    }
    if (backingUp) {
        const redis::Status finished = backup.finish();
        // What a restore will read: after a failed write, only what the last sync made durable.
        summary.backedUp = backup.durableRecords();
        summary.backupComplete = finished.ok();
        if (!finished && !summary.stoppedBy)
            summary.stoppedBy = finished.error();
    }
    summary.notAttempted = total - summary.done - summary.unchanged - summary.failed - summary.unknown;
    return summary;
}

redis::Result<SelectionCheck> checkSinceScan(redis::Connection& connection, const KeySelection& selection,
                                             scan::ScanSpeed speed, const std::atomic<bool>* cancel)
{
    SelectionCheck check;
    BulkPacing pacing(speed);
    const std::size_t total = selection.keys.size();
    const redis::Result<bool> cluster = total ? redis::spansNodes(connection) : redis::Result<bool>(false);
    if (!cluster)
        return cluster.error();
    const std::vector<std::size_t> order =
        redis::inSlotOrder(total, *cluster, [&](std::size_t i) { return QByteArrayView(selection.keys[i]); });
    for (std::size_t next = 0; next < total;) {
        if (redis::Status routed = connection.routeTo(selection.keys[order[next]]); !routed)
            return routed.error();
        // TYPE is O(1): bigger rounds.
        const std::size_t end =
            redis::sameNodeUntil(connection.options(), next, std::min(total, next + pacing.batchSize() * 4),
                                 [&](std::size_t p) { return QByteArrayView(selection.keys[order[p]]); });
        pacing.roundStarted();
        for (std::size_t p = next; p < end; ++p)
            connection.append({"TYPE", selection.keys[order[p]]});
        for (std::size_t p = next; p < end; ++p) {
            const std::size_t i = order[p];
            redis::Result<redis::Reply> type = connection.read();
            if (!type)
                return type.error();
            ++check.checked;
            if (type->isError())
                continue; // denied: not known to have changed
            const keyspace::KeyType now = keyspace::keyTypeFromName(type->bytes());
            if (type->bytes() == "none")
                ++check.gone;
            else if (now != selection.types[i] && selection.types[i] != keyspace::KeyType::Unknown)
                ++check.typeChanged;
        }
        const std::size_t sent = end - next;
        next = end;
        if (next < total && !pacing.restAfterRound(sent, cancel))
            return Error{ErrorKind::Cancelled, QStringLiteral("The check was cancelled")};
    }
    return check;
}

} // namespace keylens::edit
