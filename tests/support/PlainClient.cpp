#include "PlainClient.h"

#include <QList>

#include <hiredis/hiredis.h>

#include <algorithm>

namespace keylens::test {

namespace {
struct ReplyDeleter
{
    void operator()(redisReply* reply) const { freeReplyObject(reply); }
};
using ReplyPtr = std::unique_ptr<redisReply, ReplyDeleter>;

void appendArgv(redisContext* context, const std::vector<QByteArray>& arguments)
{
    std::vector<const char*> argv;
    std::vector<size_t> lengths;
    for (const QByteArray& argument : arguments) {
        argv.push_back(argument.constData());
        lengths.push_back(static_cast<size_t>(argument.size()));
    }
    redisAppendCommandArgv(context, static_cast<int>(argv.size()), argv.data(), lengths.data());
}
} // namespace

PlainClient::PlainClient(quint16 port, const QByteArray& user, const QByteArray& password)
{
    m_context = redisConnect("127.0.0.1", port);
    if (!m_context || m_context->err) {
        m_lastError = m_context ? QByteArray(m_context->errstr) : QByteArray("out of memory");
        return;
    }
    if (!password.isEmpty()) {
        const QByteArray reply = user.isEmpty() ? command({"AUTH", password}) : command({"AUTH", user, password});
        if (reply != "OK")
            m_lastError = reply;
    }
}

PlainClient::~PlainClient()
{
    if (m_context)
        redisFree(m_context);
}

bool PlainClient::isConnected() const
{
    return m_context && !m_context->err && m_lastError.isEmpty();
}

redisReply* PlainClient::run(const std::vector<QByteArray>& arguments)
{
    appendArgv(m_context, arguments);
    void* reply = nullptr;
    if (redisGetReply(m_context, &reply) != REDIS_OK) {
        m_lastError = m_context->errstr;
        return nullptr;
    }
    return static_cast<redisReply*>(reply);
}

QByteArray PlainClient::command(const std::vector<QByteArray>& arguments)
{
    ReplyPtr reply(run(arguments));
    if (!reply)
        return {};
    if (reply->type == REDIS_REPLY_INTEGER)
        return QByteArray::number(reply->integer);
    if (reply->str)
        return QByteArray(reply->str, static_cast<qsizetype>(reply->len));
    return {};
}

namespace {
void flatten(const redisReply* reply, std::vector<QByteArray>& out)
{
    if (reply->type == REDIS_REPLY_ARRAY) {
        for (std::size_t i = 0; i < reply->elements; ++i)
            flatten(reply->element[i], out);
    } else if (reply->type == REDIS_REPLY_INTEGER) {
        out.push_back(QByteArray::number(reply->integer));
    } else if (reply->str) {
        out.emplace_back(reply->str, static_cast<qsizetype>(reply->len));
    }
}
} // namespace

std::vector<QByteArray> PlainClient::elements(const std::vector<QByteArray>& arguments)
{
    ReplyPtr reply(run(arguments));
    std::vector<QByteArray> out;
    if (reply)
        flatten(reply.get(), out);
    return out;
}

std::vector<QByteArray> PlainClient::content(const QByteArray& key)
{
    const QByteArray type = command({"TYPE", key});
    std::vector<QByteArray> out{type};
    std::vector<QByteArray> values;
    if (type == "string") {
        values = {command({"GET", key})};
    } else if (type == "hash") {
        const std::vector<QByteArray> flat = elements({"HGETALL", key});
        for (std::size_t i = 0; i + 1 < flat.size(); i += 2)
            values.push_back(flat[i] + '=' + flat[i + 1]);
        std::sort(values.begin(), values.end());
    } else if (type == "list") {
        values = elements({"LRANGE", key, "0", "-1"});
    } else if (type == "set") {
        values = elements({"SMEMBERS", key});
        std::sort(values.begin(), values.end());
    } else if (type == "zset") {
        values = elements({"ZRANGE", key, "0", "-1", "WITHSCORES"});
    } else if (type == "stream") {
        values = elements({"XRANGE", key, "-", "+"});
    }
    out.insert(out.end(), values.begin(), values.end());
    return out;
}

long long PlainClient::integer(const std::vector<QByteArray>& arguments)
{
    ReplyPtr reply(run(arguments));
    return reply && reply->type == REDIS_REPLY_INTEGER ? reply->integer : -999;
}

std::size_t PlainClient::pipeline(const std::vector<std::vector<QByteArray>>& commands)
{
    for (const auto& command : commands)
        appendArgv(m_context, command);
    std::size_t errors = 0;
    for (std::size_t i = 0; i < commands.size(); ++i) {
        void* reply = nullptr;
        if (redisGetReply(m_context, &reply) != REDIS_OK)
            return commands.size();
        ReplyPtr owned(static_cast<redisReply*>(reply));
        if (owned->type == REDIS_REPLY_ERROR)
            ++errors;
    }
    return errors;
}

std::vector<long long> PlainClient::pipelineIntegers(const std::vector<std::vector<QByteArray>>& commands)
{
    for (const auto& command : commands)
        appendArgv(m_context, command);
    std::vector<long long> values;
    values.reserve(commands.size());
    for (std::size_t i = 0; i < commands.size(); ++i) {
        void* reply = nullptr;
        if (redisGetReply(m_context, &reply) != REDIS_OK)
            break;
        ReplyPtr owned(static_cast<redisReply*>(reply));
        values.push_back(owned->type == REDIS_REPLY_INTEGER ? owned->integer : -1);
    }
    values.resize(commands.size(), -1);
    return values;
}

std::vector<QByteArray> PlainClient::allKeys(const QByteArray& match)
{
    std::vector<QByteArray> keys;
    QByteArray cursor = "0";
    do {
        std::vector<QByteArray> arguments = {"SCAN", cursor, "COUNT", "1000"};
        if (!match.isEmpty()) {
            arguments.push_back("MATCH");
            arguments.push_back(match);
        }
        ReplyPtr reply(run(arguments));
        if (!reply || reply->type != REDIS_REPLY_ARRAY)
            return keys;
        cursor = QByteArray(reply->element[0]->str, static_cast<qsizetype>(reply->element[0]->len));
        for (size_t i = 0; i < reply->element[1]->elements; ++i) {
            const redisReply* key = reply->element[1]->element[i];
            keys.emplace_back(key->str, static_cast<qsizetype>(key->len));
        }
    } while (cursor != "0");
    return keys;
}

std::map<QByteArray, PlainClient::KeyFacts> PlainClient::inspectAll()
{
    std::vector<QByteArray> keys = allKeys();
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end()); // SCAN may repeat a key
    std::map<QByteArray, KeyFacts> facts;
    // A plain hiredis pipeline per 500 keys, so 100k keys do not take 300k round trips.
    for (std::size_t start = 0; start < keys.size(); start += 500) {
        const std::size_t end = std::min(keys.size(), start + 500);
        for (std::size_t i = start; i < end; ++i) {
            appendArgv(m_context, {"TYPE", keys[i]});
            appendArgv(m_context, {"PTTL", keys[i]});
            appendArgv(m_context, {"MEMORY", "USAGE", keys[i]});
        }
        for (std::size_t i = start; i < end; ++i) {
            void* replies[3] = {};
            for (void*& reply : replies) {
                if (redisGetReply(m_context, &reply) != REDIS_OK)
                    return facts;
            }
            ReplyPtr type(static_cast<redisReply*>(replies[0]));
            ReplyPtr pttl(static_cast<redisReply*>(replies[1]));
            ReplyPtr memory(static_cast<redisReply*>(replies[2]));
            KeyFacts fact;
            fact.type = QByteArray(type->str, static_cast<qsizetype>(type->len));
            fact.pttl = pttl->type == REDIS_REPLY_INTEGER ? pttl->integer : -999;
            fact.memory = memory->type == REDIS_REPLY_INTEGER ? memory->integer : -1;
            facts.emplace(keys[i], fact);
        }
    }
    return facts;
}

std::size_t fillStringKeys(quint16 port, int keys, int withTtl, const QByteArray& prefix, const QByteArray& password)
{
    PlainClient client(port, {}, password);
    std::vector<std::vector<QByteArray>> commands;
    commands.reserve(std::size_t(keys));
    for (int i = 0; i < keys; ++i) {
        const QByteArray key = QByteArray(prefix).append(QByteArray::number(i));
        if (i < withTtl)
            commands.push_back({"SET", key, "v", "EX", "3600"});
        else
            commands.push_back({"SET", key, "v"});
    }
    return client.pipeline(commands);
}

long long PlainClient::commandCalls(const QByteArray& command)
{
    // cmdstat_set:calls=3,usec=…  (a subcommand is cmdstat_config|set)
    const QByteArray stats = this->command({"INFO", "commandstats"});
    const QByteArray prefix = QByteArray("cmdstat_") + command + ":calls=";
    for (const QByteArray& line : stats.split('\n')) {
        if (!line.startsWith(prefix))
            continue;
        const QByteArray rest = line.mid(prefix.size());
        return rest.left(rest.indexOf(',')).toLongLong();
    }
    return 0;
}

} // namespace keylens::test
