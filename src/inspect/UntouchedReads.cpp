#include "inspect/UntouchedReads.h"

#include "redis/ClusterRoutes.h"

namespace keylens::inspect {

redis::Result<bool> readWithoutTouching(redis::Connection& connection, QString* why)
{
    const redis::Result<bool> cluster = redis::spansNodes(connection);
    if (!cluster)
        return cluster.error();
    if (*cluster) {
        *why = QStringLiteral("a cluster's nodes are read without NO-TOUCH");
        return false;
    }
    const redis::Result<redis::Reply> reply = connection.command({"CLIENT", "NO-TOUCH", "ON"});
    if (!reply)
        return reply.error();
    if (reply->isError()) {
        // "unknown subcommand" before Redis 7.2; an ACL that denies it reads the same to us.
        *why = QStringLiteral("this server has no CLIENT NO-TOUCH (Redis 7.2+)");
        return false;
    }
    return true;
}

} // namespace keylens::inspect
