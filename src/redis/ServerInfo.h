#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace keylens::redis {

class Connection;

// What a report says about the server. Fields stay empty when the server denied the command.
struct ServerInfo
{
    QString address;
    int db = 0;
    QString redisVersion;
    QByteArray runId; // INFO server's run_id: changes when the server restarts
    std::optional<qint64> dbsize;
    std::optional<qint64> usedMemory;
    QByteArray maxmemoryPolicy; // INFO memory's: "noeviction", "allkeys-lru", …; empty when not known
    bool clusterMode = false;   // INFO server's redis_mode is "cluster"
    // INFO keyspace: the keys of each database that holds any (empty when INFO was denied).
    std::vector<std::pair<int, qint64>> keysByDatabase;
    // A cluster scan's shards as they are scanned, by first slot: the node's address and the slots it serves.
    std::vector<std::pair<QString, QString>> shards;
    QStringList notices; // why a field is missing
    // Of an RDB file (ScanOptions::rdbFile): when it was saved (its AUX ctime), and the moment its TTLs and idle times
    // are read as of (the save, or now). Unset for a server: now.
    std::optional<qint64> savedAtSeconds;
    std::optional<qint64> asOfSeconds;
};

// Calls `visit(name, value)` for each "name:value" line of an INFO reply ("# Server\r\nredis_version:7.0.15\r\n..."),
// skipping headers and blank lines, until it returns false.
void forEachInfoField(QByteArrayView info, const std::function<bool(QByteArrayView, QByteArrayView)>& visit);

// The value of `field` in an INFO reply, or an empty view.
QByteArrayView infoField(QByteArrayView info, QByteArrayView field);

// Asks INFO server, INFO memory, DBSIZE and INFO replication in one pipeline (a replica cut off from its
// master gets a notice). Connection failures propagate as notices
// too: the caller's next command will report them properly.
ServerInfo queryServerInfo(Connection& connection);

} // namespace keylens::redis
