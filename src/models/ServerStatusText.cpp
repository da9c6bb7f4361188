#include "models/ServerStatusText.h"

#include "keyspace/Units.h"
#include "models/DisplayText.h"

#include <QCoreApplication>
#include <QDateTime>

#include <functional>

namespace keylens::models {

using redis::InfoSection;
using redis::ServerStatus;

namespace {

QString text(QByteArrayView bytes)
{
    return displayText(bytes.toByteArray());
}

QString bytesText(double bytes)
{
    return displayText(keyspace::formatBytes(std::uint64_t(std::max(0.0, bytes))));
}

QString countText(double count)
{
    return displayText(keyspace::formatCount(std::uint64_t(std::max(0.0, count))));
}

QString durationText(double seconds)
{
    return displayText(keyspace::formatDuration(std::int64_t(std::max(0.0, seconds) * 1000)));
}

QString notAvailable(const InfoSection& section)
{
    return section.available || section.problem.isEmpty()
               ? QCoreApplication::translate("ServerStatusText", "not available")
               : QCoreApplication::translate("ServerStatusText", "not available (%1)").arg(section.problem);
}

// A line from one field, or "not available" when the server did not give it (with its refusal, when it refused
// the whole section).
StatusLine field(const InfoSection& section, const QString& label, QByteArrayView name,
                 const std::function<QString(const InfoSection&)>& format)
{
    StatusLine line{label, {}, QCoreApplication::translate("ServerStatusText", "INFO field %1").arg(text(name))};
    line.available = section.has(name);
    line.value = line.available ? format(section) : notAvailable(section);
    return line;
}

StatusGroup serverGroup(const InfoSection& server)
{
    StatusGroup group{QCoreApplication::translate("ServerStatusText", "Server"), {}};
    group.lines.push_back(field(server, QCoreApplication::translate("ServerStatusText", "Version"), "redis_version",
                                [](const InfoSection& s) {
                                    QString version = text(s.value("redis_version"));
                                    if (s.has("redis_mode"))
                                        version += QStringLiteral(" · %1").arg(text(s.value("redis_mode")));
                                    return version;
                                }));
    group.lines.push_back(field(server, QCoreApplication::translate("ServerStatusText", "Uptime"), "uptime_in_seconds",
                                [](const InfoSection& s) { return durationText(s.number("uptime_in_seconds")); }));
    return group;
}

StatusGroup memoryGroup(const InfoSection& memory, const ScannedTotals& scanned)
{
    StatusGroup group{QCoreApplication::translate("ServerStatusText", "Memory"), {}};
    group.lines.push_back(field(memory, QCoreApplication::translate("ServerStatusText", "Used"), "used_memory",
                                [](const InfoSection& s) { return bytesText(s.number("used_memory")); }));
    group.lines.push_back(field(memory, QCoreApplication::translate("ServerStatusText", "Peak"), "used_memory_peak",
                                [](const InfoSection& s) { return bytesText(s.number("used_memory_peak")); }));
    group.lines.push_back(field(
        memory, QCoreApplication::translate("ServerStatusText", "Fragmentation"), "mem_fragmentation_ratio",
        [](const InfoSection& s) {
            const double ratio = s.number("mem_fragmentation_ratio");
            QString value = QString::number(ratio, 'f', 2) + QStringLiteral("×");
            // Above 1.5 the process holds much more than the data; below 1 the OS has swapped some of it out. Under
            // 5 MB of data the process's own baseline makes any ratio look high (MEMORY DOCTOR keeps quiet there too).
            constexpr double SmallServer = 5.0 * 1024 * 1024;
            if (ratio > 1.5 && s.number("used_memory") < SmallServer)
                value += QCoreApplication::translate("ServerStatusText", " (says little for a server this small)");
            else if (ratio > 1.5)
                value += QCoreApplication::translate("ServerStatusText",
                                                     " (high: the process holds much more than the data)");
            else if (ratio > 0 && ratio < 1)
                value += QCoreApplication::translate("ServerStatusText", " (below 1: some memory may be swapped out)");
            return value;
        }));
    group.lines.push_back(
        field(memory, QCoreApplication::translate("ServerStatusText", "Limit"), "maxmemory", [](const InfoSection& s) {
            const double limit = s.number("maxmemory");
            if (limit <= 0)
                return QCoreApplication::translate("ServerStatusText", "no limit (maxmemory 0)");
            const double used = s.number("used_memory");
            return QCoreApplication::translate("ServerStatusText", "%1 (%2 used)")
                .arg(bytesText(limit), displayText(keyspace::formatPercent(used / limit)));
        }));
    group.lines.push_back(field(memory, QCoreApplication::translate("ServerStatusText", "Eviction policy"),
                                "maxmemory_policy",
                                [](const InfoSection& s) { return text(s.value("maxmemory_policy")); }));

    // The keys' own memory beside used_memory: what is left is the server's (buffers, replication backlog,
    // allocator overhead, Lua, the dataset's own structures).
    StatusLine keys{QCoreApplication::translate("ServerStatusText", "Scanned keys"),
                    {},
                    QCoreApplication::translate("ServerStatusText",
                                                "MEMORY USAGE summed over the scanned keys, against INFO used_memory")};
    if (scanned.keys == 0) {
        keys.value = QCoreApplication::translate("ServerStatusText", "nothing scanned yet");
    } else if (!memory.has("used_memory")) {
        keys.value = QCoreApplication::translate("ServerStatusText", "%1 in %2 keys (used_memory not available)")
                         .arg(bytesText(double(scanned.memoryBytes)), countText(double(scanned.keys)));
    } else {
        const double used = memory.number("used_memory");
        const double overhead = used - double(scanned.memoryBytes);
        keys.value =
            QCoreApplication::translate("ServerStatusText",
                                        "%1 in %2 keys, %3 of used memory; %4 is the server's own%5")
                .arg(bytesText(double(scanned.memoryBytes)), countText(double(scanned.keys)),
                     displayText(keyspace::formatPercent(used > 0 ? double(scanned.memoryBytes) / used : 0)),
                     overhead >= 0 ? bytesText(overhead) : QStringLiteral("none"),
                     scanned.complete ? QString()
                                      : QCoreApplication::translate("ServerStatusText", " (the scan is not complete)"));
    }
    group.lines.push_back(keys);
    return group;
}

StatusGroup keyspaceGroup(const InfoSection& keyspaceSection, const InfoSection& stats)
{
    StatusGroup group{QCoreApplication::translate("ServerStatusText", "Keyspace"), {}};
    if (!keyspaceSection.available) {
        group.lines.push_back(
            {QCoreApplication::translate("ServerStatusText", "Keys"), notAvailable(keyspaceSection), {}, false});
    } else if (keyspaceSection.fields.empty()) {
        group.lines.push_back({QCoreApplication::translate("ServerStatusText", "Keys"),
                               QCoreApplication::translate("ServerStatusText", "no keys in any database"),
                               {}});
    }
    for (const auto& [db, value] : keyspaceSection.fields) {
        double keys = 0;
        double expires = 0;
        for (const auto& [name, number] : redis::parseInfoList(value)) {
            if (name == "keys")
                keys = number.toDouble();
            else if (name == "expires")
                expires = number.toDouble();
        }
        group.lines.push_back({text(db),
                               QCoreApplication::translate("ServerStatusText", "%1 keys, %2 with a TTL")
                                   .arg(countText(keys), countText(expires)),
                               QCoreApplication::translate("ServerStatusText", "INFO keyspace %1").arg(text(db))});
    }
    group.lines.push_back(field(
        stats, QCoreApplication::translate("ServerStatusText", "Hit rate"), "keyspace_hits", [](const InfoSection& s) {
            const double hits = s.number("keyspace_hits");
            const double misses = s.number("keyspace_misses");
            if (hits + misses <= 0)
                return QCoreApplication::translate("ServerStatusText", "no lookups yet");
            return QCoreApplication::translate("ServerStatusText", "%1 (%2 hits, %3 misses)")
                .arg(displayText(keyspace::formatPercent(hits / (hits + misses))), countText(hits), countText(misses));
        }));
    group.lines.back().toolTip = QCoreApplication::translate(
        "ServerStatusText", "INFO keyspace_hits and keyspace_misses since the server started (or "
                            "CONFIG RESETSTAT); a scan's own TYPE and PTTL count as lookups too");
    return group;
}

StatusGroup activityGroup(const InfoSection& clients, const InfoSection& stats)
{
    StatusGroup group{QCoreApplication::translate("ServerStatusText", "Activity"), {}};
    group.lines.push_back(field(clients, QCoreApplication::translate("ServerStatusText", "Clients"),
                                "connected_clients", [](const InfoSection& s) {
                                    QString value = countText(s.number("connected_clients"));
                                    if (s.number("blocked_clients") > 0)
                                        value += QCoreApplication::translate("ServerStatusText", " (%1 blocked)")
                                                     .arg(countText(s.number("blocked_clients")));
                                    return value;
                                }));
    group.lines.push_back(field(stats, QCoreApplication::translate("ServerStatusText", "Operations"),
                                "instantaneous_ops_per_sec", [](const InfoSection& s) {
                                    return QStringLiteral("%1/s").arg(countText(s.number("instantaneous_ops_per_sec")));
                                }));
    group.lines.push_back(field(stats, QCoreApplication::translate("ServerStatusText", "Evicted keys"), "evicted_keys",
                                [](const InfoSection& s) { return countText(s.number("evicted_keys")); }));
    group.lines.push_back(field(stats, QCoreApplication::translate("ServerStatusText", "Expired keys"), "expired_keys",
                                [](const InfoSection& s) { return countText(s.number("expired_keys")); }));
    return group;
}

StatusGroup persistenceGroup(const InfoSection& persistence, const InfoSection& server)
{
    StatusGroup group{QCoreApplication::translate("ServerStatusText", "Persistence"), {}};
    // The server's clock when it gives it (server_time_usec, Redis 7), else ours.
    const double now = server.has("server_time_usec") ? server.number("server_time_usec") / 1e6
                                                      : double(QDateTime::currentSecsSinceEpoch());
    group.lines.push_back(field(persistence, QStringLiteral("RDB"), "rdb_last_save_time", [now](const InfoSection& s) {
        return QCoreApplication::translate("ServerStatusText", "last saved %1 ago (%2), %3 changes since")
            .arg(durationText(now - s.number("rdb_last_save_time")), text(s.value("rdb_last_bgsave_status")),
                 countText(s.number("rdb_changes_since_last_save")));
    }));
    group.lines.push_back(field(persistence, QStringLiteral("AOF"), "aof_enabled", [](const InfoSection& s) {
        if (s.value("aof_enabled") != "1")
            return QStringLiteral("off");
        return QCoreApplication::translate("ServerStatusText", "on, last write %1")
            .arg(text(s.value("aof_last_write_status")));
    }));
    if (persistence.value("loading") == "1")
        group.lines.push_back({QCoreApplication::translate("ServerStatusText", "Loading"),
                               QCoreApplication::translate("ServerStatusText", "the dataset is still loading"),
                               {}});
    return group;
}

StatusGroup replicationGroup(const InfoSection& replication)
{
    StatusGroup group{QCoreApplication::translate("ServerStatusText", "Replication"), {}};
    group.lines.push_back(
        field(replication, QCoreApplication::translate("ServerStatusText", "Role"), "role", [](const InfoSection& s) {
            return s.value("role") == "slave" ? QStringLiteral("replica") : text(s.value("role"));
        }));
    if (!replication.available)
        return group;
    if (replication.value("role") == "slave") {
        group.lines.push_back(
            field(replication, QCoreApplication::translate("ServerStatusText", "Master"), "master_host",
                  [](const InfoSection& s) {
                      QString value = QCoreApplication::translate("ServerStatusText", "%1:%2, link %3")
                                          .arg(text(s.value("master_host")), text(s.value("master_port")),
                                               text(s.value("master_link_status")));
                      if (s.has("master_last_io_seconds_ago") && s.number("master_last_io_seconds_ago", -1) >= 0)
                          value += QCoreApplication::translate("ServerStatusText", ", last heard %1 ago")
                                       .arg(durationText(s.number("master_last_io_seconds_ago")));
                      return value;
                  }));
        return group;
    }
    const int replicas = int(replication.number("connected_slaves"));
    group.lines.push_back({QCoreApplication::translate("ServerStatusText", "Replicas"),
                           replicas == 0 ? QStringLiteral("none") : countText(replicas),
                           QCoreApplication::translate("ServerStatusText", "INFO field connected_slaves")});
    for (int i = 0; i < replicas; ++i) {
        const QByteArray name = "slave" + QByteArray::number(i);
        QString ip;
        QString port;
        QString state;
        QString lag;
        for (const auto& [key, value] : redis::parseInfoList(replication.value(name))) {
            if (key == "ip")
                ip = text(value);
            else if (key == "port")
                port = text(value);
            else if (key == "state")
                state = text(value);
            else if (key == "lag")
                lag = text(value);
        }
        group.lines.push_back(
            {QCoreApplication::translate("ServerStatusText", "Replica %1").arg(i + 1),
             QCoreApplication::translate("ServerStatusText", "%1:%2, %3, lag %4 s").arg(ip, port, state, lag),
             QCoreApplication::translate("ServerStatusText", "INFO field %1").arg(text(name))});
    }
    return group;
}

} // namespace

std::vector<StatusGroup> describeServerStatus(const redis::ServerStatus& status, const ScannedTotals& scanned)
{
    const InfoSection& server = status.section(ServerStatus::Server);
    const InfoSection& stats = status.section(ServerStatus::Stats);
    std::vector<StatusGroup> groups{
        serverGroup(server),
        memoryGroup(status.section(ServerStatus::Memory), scanned),
        keyspaceGroup(status.section(ServerStatus::Keyspace), stats),
        activityGroup(status.section(ServerStatus::Clients), stats),
        persistenceGroup(status.section(ServerStatus::Persistence), server),
        replicationGroup(status.section(ServerStatus::Replication)),
    };
    return groups;
}

} // namespace keylens::models
