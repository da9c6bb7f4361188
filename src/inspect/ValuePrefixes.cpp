#include "inspect/ValuePrefixes.h"

#include "redis/ClusterRoutes.h"
#include "redis/Connection.h"

namespace keylens::inspect {

namespace {

using redis::Result;

// A key refused (GETRANGE denied by an ACL) is counted, with the server's reason; one of another type (WRONGTYPE)
// or gone is only left out.
struct Refusals
{
    std::size_t keys = 0;
    QString reason;
};

Result<QHash<QByteArray, QByteArray>> readHere(redis::Connection& connection, const std::vector<QByteArray>& keys,
                                               const QByteArray& last, Refusals& refusals)
{
    for (const QByteArray& key : keys)
        connection.append({"GETRANGE", key, "0", last});
    QHash<QByteArray, QByteArray> values;
    for (const QByteArray& key : keys) {
        Result<redis::Reply> reply = connection.read();
        if (!reply)
            return reply.error();
        if (reply->isString()) {
            values.insert(key, reply->bytes().toByteArray());
        } else if (reply->isError() && !reply->bytes().startsWith("WRONGTYPE")) {
            if (refusals.keys++ == 0)
                refusals.reason = QString::fromUtf8(reply->bytes());
        }
    }
    return values;
}

} // namespace

ValuePrefixes readValuePrefixes(const redis::ConnectionOptions& server, const std::vector<QByteArray>& keys,
                                Touching touching, int bytes)
{
    ValuePrefixes prefixes;
    if (keys.empty())
        return prefixes;
    Result<std::unique_ptr<redis::Connection>> connection = redis::Connection::open(server);
    if (!connection) {
        prefixes.unread = connection.error().message;
        return prefixes;
    }
    QString why;
    const Result<bool> untouched = readWithoutTouching(**connection, &why);
    if (!untouched) {
        prefixes.unread = untouched.error().message;
        return prefixes;
    }
    if (!*untouched && touching == Touching::OnlyIfUntouched) {
        prefixes.unread = QStringLiteral("reading values would reset the idle times this scan measured, and ") + why;
        return prefixes;
    }
    const QByteArray last = QByteArray::number(std::max(1, bytes) - 1);
    Refusals refusals;
    const auto sayRefusals = [&] {
        if (refusals.keys > 0 && prefixes.unread.isEmpty())
            prefixes.unread = QStringLiteral("the server refused GETRANGE for %1 of %2 keys asked (\"%3\")")
                                  .arg(refusals.keys)
                                  .arg(keys.size())
                                  .arg(refusals.reason);
    };
    const Result<bool> cluster = redis::spansNodes(**connection);
    if (!cluster) {
        prefixes.unread = cluster.error().message;
        return prefixes;
    }
    if (!*cluster) {
        Result<QHash<QByteArray, QByteArray>> values = readHere(**connection, keys, last, refusals);
        if (!values)
            prefixes.unread = values.error().message;
        else
            prefixes.values = std::move(*values);
        sayRefusals();
        return prefixes;
    }
    // A cluster's keys live on several nodes: each is read where it lives.
    for (const std::size_t i :
         redis::inSlotOrder(keys.size(), true, [&](std::size_t k) { return QByteArrayView(keys[k]); })) {
        Result<QHash<QByteArray, QByteArray>> one =
            redis::forKey(**connection, keys[i], [&] { return readHere(**connection, {keys[i]}, last, refusals); });
        if (!one) {
            prefixes.unread = one.error().message;
            return prefixes;
        }
        prefixes.values.insert(*one);
    }
    sayRefusals();
    return prefixes;
}

} // namespace keylens::inspect
