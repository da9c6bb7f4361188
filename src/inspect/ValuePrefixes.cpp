#include "inspect/ValuePrefixes.h"

#include "redis/ClusterRoutes.h"
#include "redis/Connection.h"

#include <map>

namespace keylens::inspect {

namespace {

using redis::Result;

// A key refused (a command denied by an ACL) is counted by command, with the server's first reason; one of another
// type (WRONGTYPE) or gone is only left out.
struct Refusals
{
    std::map<QByteArray, std::size_t> keys; // by command
    QString reason;

    void add(const QByteArray& command, QByteArrayView error)
    {
        if (keys.empty())
            reason = QString::fromUtf8(error);
        ++keys[command];
    }
};

// One key's read: its command and what it keeps of the answer.
struct Ask
{
    QByteArray key;
    keyspace::KeyType type = keyspace::KeyType::String;
};

QByteArray commandOf(keyspace::KeyType type)
{
    switch (type) {
    case keyspace::KeyType::Set:
        return "SRANDMEMBER";
    case keyspace::KeyType::ZSet:
        return "ZRANGE";
    case keyspace::KeyType::List:
        return "LRANGE";
    default:
        return "GETRANGE";
    }
}

Result<bool> readHere(redis::Connection& connection, const std::vector<Ask>& asks, const QByteArray& last,
                      ValuePrefixes& read, Refusals& refusals)
{
    const QByteArray lastMember = QByteArray::number(lint::SampledMembers - 1);
    for (const Ask& ask : asks) {
        const QByteArray command = commandOf(ask.type);
        if (ask.type == keyspace::KeyType::Set)
            connection.append({command, ask.key, QByteArray::number(lint::SampledMembers)});
        else if (ask.type == keyspace::KeyType::String)
            connection.append({command, ask.key, "0", last});
        else
            connection.append({command, ask.key, "0", lastMember});
    }
    for (const Ask& ask : asks) {
        Result<redis::Reply> reply = connection.read();
        if (!reply)
            return reply.error();
        if (reply->isError()) {
            // Another type now, or (a cluster's) a redirection the connection follows: no refusal.
            if (!reply->bytes().startsWith("WRONGTYPE") && !reply->bytes().startsWith("MOVED") &&
                !reply->bytes().startsWith("ASK"))
                refusals.add(commandOf(ask.type), reply->bytes());
        } else if (ask.type == keyspace::KeyType::String) {
            if (reply->isString())
                read.values.insert(ask.key, reply->bytes().toByteArray());
        } else if (reply->isArray() && reply->size() > 0) {
            QByteArrayList members;
            for (std::size_t i = 0; i < reply->size() && i < std::size_t(lint::SampledMembers); ++i) {
                const redis::ReplyView member = reply->at(i);
                if (member.isString())
                    members.push_back(member.bytes()
                                          .first(std::min<qsizetype>(member.bytes().size(), lint::MemberBytes))
                                          .toByteArray());
            }
            read.members.insert(ask.key, std::move(members));
        }
    }
    return true;
}

} // namespace

ValuePrefixes readValuePrefixes(const redis::ConnectionOptions& server, const lint::ValueQuestion& question,
                                Touching touching, int bytes)
{
    ValuePrefixes prefixes;
    if (question.isEmpty())
        return prefixes;
    std::vector<Ask> asks;
    asks.reserve(question.strings.size() + question.collections.size());
    for (const QByteArray& key : question.strings)
        asks.push_back({key, keyspace::KeyType::String});
    for (const auto& [key, type] : question.collections) {
        if (type == keyspace::KeyType::Set || type == keyspace::KeyType::ZSet || type == keyspace::KeyType::List)
            asks.push_back({key, type});
    }
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
        if (refusals.keys.empty() || !prefixes.unread.isEmpty())
            return;
        QStringList refused;
        for (const auto& [command, keys] : refusals.keys)
            refused << QStringLiteral("%1 for %2").arg(QString::fromLatin1(command)).arg(keys);
        prefixes.unread = QStringLiteral("the server refused %1 of %2 keys asked (\"%3\")")
                              .arg(refused.join(QStringLiteral(", ")))
                              .arg(asks.size())
                              .arg(refusals.reason);
    };
    const Result<bool> cluster = redis::spansNodes(**connection);
    if (!cluster) {
        prefixes.unread = cluster.error().message;
        return prefixes;
    }
    if (!*cluster) {
        if (const Result<bool> done = readHere(**connection, asks, last, prefixes, refusals); !done)
            prefixes.unread = done.error().message;
        sayRefusals();
        return prefixes;
    }
    // A cluster's keys live on several nodes: each is read where it lives.
    for (const std::size_t i :
         redis::inSlotOrder(asks.size(), true, [&](std::size_t k) { return QByteArrayView(asks[k].key); })) {
        const Result<bool> one = redis::forKey(
            **connection, asks[i].key, [&] { return readHere(**connection, {asks[i]}, last, prefixes, refusals); });
        if (!one) {
            prefixes.unread = one.error().message;
            return prefixes;
        }
    }
    sayRefusals();
    return prefixes;
}

} // namespace keylens::inspect
