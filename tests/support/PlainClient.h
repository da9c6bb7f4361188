#pragma once

#include <QByteArray>

#include <map>
#include <memory>
#include <vector>

struct redisContext;
struct redisReply;

namespace keylens::test {

// The independent source of truth for tests: hiredis's own blocking client, one plain command at a time
// (or a plain hiredis pipeline), sharing none of Keylens's connection, scan or store code.
class PlainClient
{
public:
    explicit PlainClient(quint16 port, const QByteArray& user = {}, const QByteArray& password = {});
    ~PlainClient();

    bool isConnected() const;
    QByteArray lastError() const { return m_lastError; }

    // Runs one command and returns its reply as text (bulk/status/error), or its integer as text.
    QByteArray command(const std::vector<QByteArray>& arguments);
    long long integer(const std::vector<QByteArray>& arguments);
    // Runs one command and returns the strings and integers of its reply, nested arrays flattened in order.
    std::vector<QByteArray> elements(const std::vector<QByteArray>& arguments);
    // What a key holds, whatever its type, in an order that does not depend on its encoding: a string's bytes,
    // a hash's or set's elements sorted, a list's and a stream's in order, a zset's members and scores by rank.
    std::vector<QByteArray> content(const QByteArray& key);

    // Sends all commands as one hiredis pipeline; returns how many answered with an error.
    std::size_t pipeline(const std::vector<std::vector<QByteArray>>& commands);

    // Sends all commands as one pipeline; each reply's integer (-1 for an error or another type).
    std::vector<long long> pipelineIntegers(const std::vector<std::vector<QByteArray>>& commands);

    // How many times the server ran `command` (lower case, "config|set" for a subcommand), from INFO
    // commandstats: the proof that a refused command never reached it.
    long long commandCalls(const QByteArray& command);

    // Every key, by a plain SCAN loop.
    std::vector<QByteArray> allKeys(const QByteArray& match = {});

    struct KeyFacts
    {
        QByteArray type;
        long long pttl = -1;
        long long memory = -1;
    };
    // TYPE, PTTL and MEMORY USAGE of every key, asked one key at a time.
    std::map<QByteArray, KeyFacts> inspectAll();

private:
    redisReply* run(const std::vector<QByteArray>& arguments);

    redisContext* m_context = nullptr;
    QByteArray m_lastError;
};

// Writes `keys` string keys `prefix`0, `prefix`1, …; the first `withTtl` of them expire in an hour.
// Returns how many writes failed.
std::size_t fillStringKeys(quint16 port, int keys, int withTtl = 0,
                           const QByteArray& prefix = "k:", const QByteArray& password = {});

} // namespace keylens::test
