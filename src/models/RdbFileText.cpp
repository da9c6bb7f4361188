#include "models/RdbFileText.h"

#include "keyspace/Units.h"
#include "models/DisplayText.h"
#include "models/EstimatedMemory.h"
#include "rdb/RdbReader.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>

#include <algorithm>

namespace keylens::models {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("RdbFileText", text);
}

QString bytesText(std::uint64_t bytes)
{
    return displayText(keyspace::formatBytes(bytes));
}

QString countText(std::uint64_t count)
{
    return displayText(keyspace::formatCount(count));
}

StatusLine auxLine(const QString& label, QByteArrayView name, const QString& value)
{
    return {label, value, tr("AUX field %1 of the file").arg(displayText(name.toByteArray()))};
}

StatusGroup fileGroup(const scan::ScanSummary& summary, const scan::RdbFileFacts& facts)
{
    StatusGroup group{tr("RDB file"), {}};
    const bool stdinFile = summary.rdbFile == QLatin1String("-");
    group.lines.push_back(
        {tr("File"), stdinFile ? tr("standard input") : QFileInfo(summary.rdbFile).absoluteFilePath(), {}});
    group.lines.push_back({tr("Size"),
                           facts.fileBytes >= 0 ? bytesText(std::uint64_t(facts.fileBytes))
                                                : tr("%1 read").arg(bytesText(facts.bytesRead)),
                           {}});
    group.lines.push_back({tr("Format"),
                           (facts.valkey ? tr("Valkey RDB %1") : tr("RDB version %1")).arg(facts.version) +
                               QStringLiteral(" · ") + rdbVersionWriters(facts.version, facts.valkey),
                           tr("The version in the file's header (REDIS0010, VALKEY080)")});
    QString checksum;
    if (summary.error)
        checksum = tr("not reached: the reading stopped before the end");
    else if (facts.checksumChecked)
        checksum = tr("matched (CRC-64 over the whole file)");
    else if (facts.version >= 5)
        checksum = tr("none: saved with rdbchecksum no, so damage would go unnoticed");
    else
        checksum = tr("none: RDB versions before 5 have no checksum");
    group.lines.push_back({tr("Checksum"), checksum, {}});
    StatusLine read{tr("Read"), {}, {}};
    if (summary.error) {
        read.value = summary.error->message + tr(" (the keys before it are shown)");
        read.available = false;
    } else if (summary.cancelled) {
        read.value = tr("cancelled after %1").arg(bytesText(facts.bytesRead));
    } else {
        read.value = tr("to the end, in %1").arg(displayText(keyspace::formatDuration(summary.durationMs)));
    }
    group.lines.push_back(read);
    return group;
}

StatusGroup savedGroup(const scan::RdbFileFacts& facts, const redis::ServerInfo& saved, std::int64_t nowSeconds)
{
    StatusGroup group{tr("Saved by"), {}};
    const QByteArray versionField = facts.valkey ? "valkey-ver" : "redis-ver";
    StatusLine server =
        auxLine(tr("Server version"), versionField,
                saved.redisVersion.isEmpty() ? tr("not recorded (files before Redis 3.2)") : saved.redisVersion);
    server.available = !saved.redisVersion.isEmpty();
    group.lines.push_back(server);
    if (saved.savedAtSeconds) {
        const std::int64_t seconds = *saved.savedAtSeconds;
        const QString when = QDateTime::fromSecsSinceEpoch(seconds).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        const std::int64_t ago = nowSeconds - seconds;
        group.lines.push_back(
            auxLine(tr("Saved at"), "ctime",
                    ago >= 0 ? tr("%1 (%2 ago)").arg(when, displayText(keyspace::formatDuration(ago * 1000))) : when));
    } else {
        StatusLine line = auxLine(tr("Saved at"), "ctime", tr("not recorded"));
        line.available = false;
        group.lines.push_back(line);
    }
    // The rest as saved, by name: replication ids and offsets, aof-base, lua scripts…
    for (const auto& [name, value] : facts.aux) {
        if (rdb::isSummarisedAux(name)) // shown above, from the summary's ServerInfo
            continue;
        group.lines.push_back(auxLine(displayText(name), name, displayText(value)));
    }
    return group;
}

StatusGroup memoryGroup(const redis::ServerInfo& saved, const ScannedTotals& scanned)
{
    StatusGroup group{tr("Memory"), {}};
    const std::uint64_t used = std::uint64_t(std::max<qint64>(0, saved.usedMemory.value_or(0)));
    StatusLine usedLine = auxLine(tr("Used when saved"), "used-mem",
                                  saved.usedMemory ? bytesText(used) : tr("not recorded (files before Redis 3.2)"));
    usedLine.available = saved.usedMemory.has_value();
    group.lines.push_back(usedLine);
    StatusLine keys{tr("In the keys"), estimatedFigure(bytesText(scanned.memoryBytes), true), estimatedMemoryNote()};
    if (used > 0 && scanned.complete)
        keys.value += tr(" (%1 of the used memory; the rest is the server's own and the allocator's)")
                          .arg(displayText(keyspace::formatPercent(double(scanned.memoryBytes) / double(used))));
    group.lines.push_back(keys);
    return group;
}

StatusGroup keysGroup(const scan::ScanSummary& summary, const scan::RdbFileFacts& facts, const ScannedTotals& scanned)
{
    StatusGroup group{tr("Keys"), {}};
    group.lines.push_back(
        {tr("Shown (db%1)").arg(summary.server.db),
         summary.keysExpired > 0
             ? tr("%1, and %2 already expired (not shown)").arg(countText(scanned.keys), countText(summary.keysExpired))
             : countText(scanned.keys),
         tr("Keys whose expiry had passed at the time the TTLs are read as of (the save, or now) are not shown")});
    for (const auto& [db, keys] : facts.keysByDatabase)
        group.lines.push_back({tr("db%1").arg(db), tr("%1 keys").arg(countText(keys)),
                               tr("The count the file gives before the database's keys (RESIZEDB)")});
    if (facts.functions > 0)
        group.lines.push_back({tr("Functions"), tr("%1 libraries").arg(countText(facts.functions)), {}});
    return group;
}

} // namespace

QString rdbVersionWriters(int version, bool valkey)
{
    if (valkey)
        return tr("Valkey 9");
    switch (version) {
    case 7:
        return tr("Redis 3.2");
    case 8:
        return tr("Redis 4.0");
    case 9:
        return tr("Redis 5.0 – 6.2");
    case 10:
        return tr("Redis 7.0");
    case 11:
        return tr("Redis 7.2, Valkey 7.2 – 8.x");
    case 12:
        return tr("Redis 7.4 – 8.4");
    default:
        return version < 7 ? tr("Redis 2.x – 3.0") : tr("a server newer than this Keylens knows");
    }
}

std::vector<StatusGroup> describeRdbFile(const scan::ScanSummary& summary, const ScannedTotals& scanned,
                                         std::int64_t nowSeconds)
{
    if (!summary.rdbFacts)
        return {};
    const scan::RdbFileFacts& facts = *summary.rdbFacts;
    return {fileGroup(summary, facts), savedGroup(facts, summary.server, nowSeconds),
            memoryGroup(summary.server, scanned), keysGroup(summary, facts, scanned)};
}

} // namespace keylens::models
