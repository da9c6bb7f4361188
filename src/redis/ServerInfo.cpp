#include "redis/ServerInfo.h"

#include "redis/Connection.h"

namespace keylens::redis {

void forEachInfoField(QByteArrayView info, const std::function<bool(QByteArrayView, QByteArrayView)>& visit)
{
    qsizetype from = 0;
    while (from < info.size()) {
        qsizetype end = info.indexOf('\n', from);
        if (end < 0)
            end = info.size();
        QByteArrayView line = info.sliced(from, end - from);
        from = end + 1;
        if (line.endsWith('\r'))
            line.chop(1);
        const qsizetype colon = line.indexOf(':');
        if (line.startsWith('#') || colon <= 0)
            continue;
        if (!visit(line.first(colon), line.sliced(colon + 1)))
            return;
    }
}

QByteArrayView infoField(QByteArrayView info, QByteArrayView field)
{
    QByteArrayView found;
    forEachInfoField(info, [&](QByteArrayView name, QByteArrayView value) {
        if (name != field)
            return true;
        found = value;
        return false;
    });
    return found;
}

ServerInfo queryServerInfo(Connection& connection)
{
    ServerInfo info;
    info.address = connection.options().address();
    info.db = connection.options().db;
    connection.append({"INFO", "server"});
    connection.append({"INFO", "memory"});
    connection.append({"DBSIZE"});
    connection.append({"INFO", "replication"});
    connection.append({"INFO", "keyspace"});
    const auto denied = [&](QByteArrayView command, const Result<Reply>& reply) {
        const QString why = reply ? QString::fromUtf8(reply->bytes()) : reply.error().message;
        info.notices << QStringLiteral("%1 failed (%2)").arg(QString::fromUtf8(command), why);
    };

    Result<Reply> server = connection.read();
    if (server && server->isString()) {
        info.redisVersion = QString::fromUtf8(infoField(server->bytes(), "redis_version"));
        info.runId = infoField(server->bytes(), "run_id").toByteArray();
        info.clusterMode = infoField(server->bytes(), "redis_mode") == "cluster";
    } else
        denied("INFO server", server);

    Result<Reply> memory = connection.read();
    if (memory && memory->isString()) {
        bool ok = false;
        const qint64 used = infoField(memory->bytes(), "used_memory").toByteArray().toLongLong(&ok);
        if (ok)
            info.usedMemory = used;
        info.maxmemoryPolicy = infoField(memory->bytes(), "maxmemory_policy").toByteArray();
    } else {
        denied("INFO memory", memory);
    }

    Result<Reply> dbsize = connection.read();
    if (dbsize && dbsize->isInteger())
        info.dbsize = dbsize->integer();
    else
        denied("DBSIZE", dbsize);

    // A replica that lost its master still serves what it had: say so, the figures may be old.
    Result<Reply> replication = connection.read();
    if (replication && replication->isString() && infoField(replication->bytes(), "role") == "slave" &&
        infoField(replication->bytes(), "master_link_status") == "down") {
        info.notices << QStringLiteral("this server is a replica whose link to its master (%1:%2) is down: its data "
                                       "may be stale")
                            .arg(QString::fromUtf8(infoField(replication->bytes(), "master_host")),
                                 QString::fromUtf8(infoField(replication->bytes(), "master_port")));
    }

    // "db3:keys=2,expires=0,avg_ttl=0": where the keys are when the one scanned holds none. Denied, it is not said.
    Result<Reply> keyspace = connection.read();
    if (keyspace && keyspace->isString()) {
        forEachInfoField(keyspace->bytes(), [&](QByteArrayView name, QByteArrayView value) {
            bool dbOk = false, keysOk = false;
            const int db = name.startsWith("db") ? name.sliced(2).toInt(&dbOk) : -1;
            const QByteArrayView keys = value.startsWith("keys=") ? value.sliced(5) : QByteArrayView();
            const qsizetype comma = keys.indexOf(',');
            const qint64 count = (comma < 0 ? keys : keys.first(comma)).toLongLong(&keysOk);
            if (dbOk && keysOk)
                info.keysByDatabase.emplace_back(db, count);
            return true;
        });
    }
    return info;
}

} // namespace keylens::redis
