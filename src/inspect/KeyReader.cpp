#include "inspect/KeyReader.h"

#include "redis/ClusterRoutes.h"
#include "redis/ClusterSlot.h"

#include <algorithm>

namespace keylens::inspect {

using keyspace::KeyType;
using redis::Error;
using redis::ErrorKind;
using redis::Reply;
using redis::ReplyView;

namespace {

QString refusal(const ReplyView& reply, const char* command)
{
    return redis::errorFromReply(reply.bytes(), command).message;
}

// A stream id one step after `id` ("1-5" -> "1-6"), so XRANGE can continue without repeating it.
// XRANGE's exclusive "(" form needs Redis 6.2; this works on every version.
QByteArray nextStreamId(const QByteArray& id)
{
    const qsizetype dash = id.indexOf('-');
    if (dash < 0)
        return id;
    bool ok = false;
    const quint64 sequence = id.mid(dash + 1).toULongLong(&ok);
    if (!ok)
        return id;
    if (sequence == std::numeric_limits<quint64>::max())
        return QByteArray::number(id.left(dash).toULongLong() + 1) + "-0";
    return id.left(dash + 1) + QByteArray::number(sequence + 1);
}

QByteArray joinStreamFields(const ReplyView& fields)
{
    QByteArray out;
    for (std::size_t i = 0; i + 1 < fields.size(); i += 2) {
        if (!out.isEmpty())
            out += ", ";
        out += fields.at(i).bytes();
        out += '=';
        out += fields.at(i + 1).bytes();
    }
    return out;
}

} // namespace

QByteArrayView lengthCommand(KeyType type)
{
    switch (type) {
    case KeyType::String:
        return "STRLEN";
    case KeyType::Hash:
        return "HLEN";
    case KeyType::List:
        return "LLEN";
    case KeyType::Set:
        return "SCARD";
    case KeyType::ZSet:
        return "ZCARD";
    case KeyType::Stream:
        return "XLEN";
    case KeyType::Other:
    case KeyType::Unknown:
        break;
    }
    return {};
}

std::pair<QString, QString> valueColumnNames(KeyType type)
{
    switch (type) {
    case KeyType::Hash:
        return {QStringLiteral("Field"), QStringLiteral("Value")};
    case KeyType::List:
        return {QStringLiteral("Index"), QStringLiteral("Element")};
    case KeyType::Set:
        return {QStringLiteral("Member"), QString()};
    case KeyType::ZSet:
        return {QStringLiteral("Member"), QStringLiteral("Score")};
    case KeyType::Stream:
        return {QStringLiteral("Entry id"), QStringLiteral("Fields")};
    default:
        return {QStringLiteral("Value"), QString()};
    }
}

namespace {

Result<QHash<QByteArray, QByteArrayList>>
readSetMembersHere(redis::Connection& connection, const std::vector<QByteArray>& keys, std::size_t maxMembers);
Result<ValuePage> readValuePageHere(redis::Connection& connection, const QByteArray& key, KeyType type,
                                    const ValueQuery& query, const QByteArray& position, int pageSize);

Result<KeyOverview> readKeyOverviewHere(redis::Connection& connection, const QByteArray& key, qsizetype valueLimit)
{
    KeyOverview overview;
    overview.key = key;
    connection.append({"TYPE", key});
    connection.append({"OBJECT", "ENCODING", key});
    connection.append({"PTTL", key});
    connection.append({"MEMORY", "USAGE", key});
    std::vector<Reply> replies;
    for (int i = 0; i < 4; ++i) {
        Result<Reply> reply = connection.read();
        if (!reply)
            return reply.error();
        replies.push_back(std::move(*reply));
    }
    const Reply& type = replies[0];
    if (type.isError()) {
        overview.problems << refusal(type, "TYPE");
    } else if (type.bytes() == "none") {
        overview.exists = false;
        return overview;
    } else {
        overview.typeName = type.bytes().toByteArray();
        overview.type = keyspace::keyTypeFromName(type.bytes());
    }
    if (replies[1].isError())
        overview.problems << refusal(replies[1], "OBJECT ENCODING");
    else
        overview.encoding = replies[1].bytes().toByteArray();
    if (replies[2].isError())
        overview.problems << refusal(replies[2], "PTTL");
    else
        overview.pttlMs = replies[2].integer() >= 0 ? replies[2].integer() : -1;
    if (replies[3].isError())
        overview.problems << refusal(replies[3], "MEMORY USAGE");
    else if (replies[3].isInteger())
        overview.memoryBytes = std::uint64_t(replies[3].integer());

    const QByteArrayView length = lengthCommand(overview.type);
    if (length.isEmpty())
        return overview;
    connection.append({length, key});
    const bool isString = overview.type == KeyType::String;
    if (isString)
        connection.append({"GETRANGE", key, "0", QByteArray::number(valueLimit - 1)});
    Result<Reply> lengthReply = connection.read();
    if (!lengthReply)
        return lengthReply.error();
    if (lengthReply->isError())
        overview.problems << refusal(*lengthReply, length.toByteArray().constData());
    else if (lengthReply->isInteger())
        overview.length = std::uint64_t(lengthReply->integer());
    if (isString) {
        Result<Reply> value = connection.read();
        if (!value)
            return value.error();
        if (value->isError()) {
            overview.problems << refusal(*value, "GETRANGE");
        } else {
            overview.valuePrefix = value->bytes().toByteArray();
            overview.valueTruncated = overview.length && *overview.length > std::uint64_t(overview.valuePrefix.size());
        }
    }
    return overview;
}

} // namespace

Result<KeyOverview> readKeyOverview(redis::Connection& connection, const QByteArray& key, qsizetype valueLimit)
{
    return redis::forKey(connection, key, [&] { return readKeyOverviewHere(connection, key, valueLimit); });
}

Result<std::vector<std::optional<std::uint64_t>>> readLengths(redis::Connection& connection,
                                                              const std::vector<std::pair<QByteArray, KeyType>>& keys)
{
    const Result<bool> cluster = keys.empty() ? Result<bool>(false) : redis::spansNodes(connection);
    if (!cluster)
        return cluster.error();
    if (*cluster) {
        // Keys of a cluster live on several nodes: each is read where it lives.
        std::vector<std::optional<std::uint64_t>> lengths(keys.size());
        for (std::size_t i :
             redis::inSlotOrder(keys.size(), true, [&](std::size_t k) { return QByteArrayView(keys[k].first); })) {
            Result<Reply> reply = redis::forKey(connection, keys[i].first, [&] {
                return connection.command({lengthCommand(keys[i].second), keys[i].first});
            });
            if (!reply)
                return reply.error();
            if (reply->isInteger())
                lengths[i] = std::uint64_t(reply->integer());
        }
        return lengths;
    }
    std::vector<std::optional<std::uint64_t>> lengths;
    lengths.reserve(keys.size());
    // Pipelined in chunks, so a long list neither waits a round trip per key nor builds a huge buffer.
    constexpr std::size_t Chunk = 500;
    for (std::size_t begin = 0; begin < keys.size(); begin += Chunk) {
        const std::size_t end = std::min(keys.size(), begin + Chunk);
        for (std::size_t i = begin; i < end; ++i)
            connection.append({lengthCommand(keys[i].second), keys[i].first});
        for (std::size_t i = begin; i < end; ++i) {
            Result<Reply> reply = connection.read();
            if (!reply)
                return reply.error();
            lengths.push_back(reply->isInteger() ? std::optional<std::uint64_t>(std::uint64_t(reply->integer()))
                                                 : std::nullopt);
        }
    }
    return lengths;
}

Result<QHash<QByteArray, QByteArrayList>> readSetMembers(redis::Connection& connection,
                                                         const std::vector<QByteArray>& keys, std::size_t maxMembers)
{
    QHash<QByteArray, QByteArrayList> members;
    if (keys.empty())
        return members;
    const Result<bool> cluster = redis::spansNodes(connection);
    if (!cluster)
        return cluster.error();
    if (*cluster) {
        // Keys of a cluster live on several nodes: each is read where it lives.
        for (std::size_t i :
             redis::inSlotOrder(keys.size(), true, [&](std::size_t k) { return QByteArrayView(keys[k]); })) {
            Result<QHash<QByteArray, QByteArrayList>> one = redis::forKey(
                connection, keys[i], [&] { return readSetMembersHere(connection, {keys[i]}, maxMembers); });
            if (!one)
                return one.error();
            members.insert(*one);
        }
        return members;
    }
    return readSetMembersHere(connection, keys, maxMembers);
}

namespace {

Result<QHash<QByteArray, QByteArrayList>>
readSetMembersHere(redis::Connection& connection, const std::vector<QByteArray>& keys, std::size_t maxMembers)
{
    QHash<QByteArray, QByteArrayList> members;
    for (const QByteArray& key : keys)
        connection.append({"SCARD", key});
    std::vector<QByteArray> small, strings;
    for (const QByteArray& key : keys) {
        Result<Reply> reply = connection.read();
        if (!reply)
            return reply.error();
        if (reply->isInteger() && reply->integer() >= 0 && std::uint64_t(reply->integer()) <= maxMembers)
            small.push_back(key);
        else if (reply->isError() && reply->bytes().startsWith("WRONGTYPE"))
            strings.push_back(key); // its first bytes, if it is a string
    }
    for (const QByteArray& key : strings)
        connection.append({"GETRANGE", key, "0", "63"});
    for (const QByteArray& key : strings) {
        Result<Reply> reply = connection.read();
        if (!reply)
            return reply.error();
        if (reply->isString())
            members.insert(key, {reply->bytes().toByteArray()});
    }
    for (const QByteArray& key : small)
        connection.append({"SMEMBERS", key});
    for (const QByteArray& key : small) {
        Result<Reply> reply = connection.read();
        if (!reply)
            return reply.error();
        if (!reply->isArray())
            continue; // denied, or no longer a set
        QByteArrayList names;
        names.reserve(qsizetype(reply->size()));
        for (std::size_t i = 0; i < reply->size(); ++i)
            names << reply->at(i).bytes().toByteArray();
        members.insert(key, std::move(names));
    }
    return members;
}

} // namespace

QHash<QByteArray, QByteArrayList> readSetMembers(const redis::ConnectionOptions& server,
                                                 const std::vector<QByteArray>& keys, Touching touching)
{
    if (keys.empty())
        return {};
    Result<std::unique_ptr<redis::Connection>> connection = redis::Connection::open(server);
    if (!connection)
        return {};
    QString touchingWhy;
    const Result<bool> untouched = readWithoutTouching(**connection, &touchingWhy);
    if (!untouched || (!*untouched && touching == Touching::OnlyIfUntouched))
        return {};
    Result<QHash<QByteArray, QByteArrayList>> members = readSetMembers(**connection, keys);
    return members ? std::move(*members) : QHash<QByteArray, QByteArrayList>();
}

bool canSearch(KeyType type)
{
    return type == KeyType::Hash || type == KeyType::Set || type == KeyType::ZSet;
}

namespace {

// HSCAN, SSCAN or ZSCAN from `position`, with MATCH when the query has a pattern.
std::vector<QByteArray> scanCommand(KeyType type, const QByteArray& key, const ValueQuery& query,
                                    const QByteArray& position, const QByteArray& count)
{
    const char* name = type == KeyType::Hash ? "HSCAN" : type == KeyType::Set ? "SSCAN" : "ZSCAN";
    std::vector<QByteArray> command{name, key, position.isEmpty() ? QByteArray("0") : position, "COUNT", count};
    if (!query.match.isEmpty()) {
        command.push_back("MATCH");
        command.push_back(query.match);
    }
    return command;
}

bool pagedByScan(KeyType type, const ValueQuery& query)
{
    return type == KeyType::Hash || type == KeyType::Set || (type == KeyType::ZSet && !query.match.isEmpty());
}

} // namespace

Result<ValuePage> readValuePage(redis::Connection& connection, const QByteArray& key, KeyType type,
                                const ValueQuery& query, const QByteArray& position, int pageSize)
{
    return redis::forKey(connection, key,
                         [&] { return readValuePageHere(connection, key, type, query, position, pageSize); });
}

namespace {

Result<ValuePage> readValuePageHere(redis::Connection& connection, const QByteArray& key, KeyType type,
                                    const ValueQuery& query, const QByteArray& position, int pageSize)
{
    const QByteArray count = QByteArray::number(pageSize);
    const qint64 start = position.isEmpty() ? 0 : position.toLongLong();
    const QByteArray first = QByteArray::number(start);
    const QByteArray last = QByteArray::number(start + pageSize - 1);
    Result<Reply> reply = Error{ErrorKind::Protocol, QStringLiteral("this type has no pages")};
    if (pagedByScan(type, query)) {
        const std::vector<QByteArray> command = scanCommand(type, key, query, position, count);
        const std::vector<QByteArrayView> arguments(command.begin(), command.end());
        connection.append(arguments);
        reply = connection.read();
    } else if (type == KeyType::ZSet) {
        // ZREVRANGE rather than ZRANGE ... REV: the REV flag needs Redis 6.2.
        reply = connection.command({query.highestScoreFirst ? "ZREVRANGE" : "ZRANGE", key, first, last, "WITHSCORES"});
    } else if (type == KeyType::List) {
        reply = connection.command({"LRANGE", key, first, last});
    } else if (type == KeyType::Stream) {
        reply = connection.command({"XRANGE", key, position.isEmpty() ? "-" : position, "+", "COUNT", count});
    }
    if (!reply)
        return reply.error();
    if (reply->isError())
        return redis::errorFromReply(reply->bytes(), "reading the value");

    ValuePage page;
    if (pagedByScan(type, query)) {
        // [cursor, [elements...]]: hashes and sorted sets come in pairs.
        if (!reply->isArray() || reply->size() != 2)
            return Error{ErrorKind::Protocol, QStringLiteral("unexpected SCAN reply")};
        page.nextPosition = reply->at(0).bytes().toByteArray();
        page.done = page.nextPosition == "0";
        const ReplyView elements = reply->at(1);
        const std::size_t step = type == KeyType::Set ? 1 : 2;
        for (std::size_t i = 0; i + step - 1 < elements.size(); i += step) {
            ValueRow row{elements.at(i).bytes().toByteArray(), {}};
            if (step == 2)
                row.second = elements.at(i + 1).bytes().toByteArray();
            page.rows.push_back(std::move(row));
        }
    } else if (type == KeyType::ZSet) {
        // member, score, member, score...
        for (std::size_t i = 0; i + 1 < reply->size(); i += 2)
            page.rows.push_back({reply->at(i).bytes().toByteArray(), reply->at(i + 1).bytes().toByteArray()});
        page.nextPosition = QByteArray::number(start + qint64(page.rows.size()));
        page.done = page.rows.size() < std::size_t(pageSize);
    } else if (type == KeyType::List) {
        for (std::size_t i = 0; i < reply->size(); ++i)
            page.rows.push_back({QByteArray::number(start + qint64(i)), reply->at(i).bytes().toByteArray()});
        page.nextPosition = QByteArray::number(start + qint64(reply->size()));
        page.done = reply->size() < std::size_t(pageSize);
    } else {
        for (std::size_t i = 0; i < reply->size(); ++i) {
            const ReplyView entry = reply->at(i);
            page.rows.push_back({entry.at(0).bytes().toByteArray(), joinStreamFields(entry.at(1))});
        }
        page.done = reply->size() < std::size_t(pageSize);
        if (!page.rows.empty())
            page.nextPosition = nextStreamId(page.rows.back().first);
    }
    return page;
}

} // namespace

} // namespace keylens::inspect
