#include "live/MonitorProfile.h"

#include "live/KeyPattern.h"

#include <QSet>

#include <algorithm>

namespace keylens::live {

namespace {

// Commands whose every argument is a key.
bool allKeys(const QByteArray& command)
{
    static const QSet<QByteArray> commands = {"del",    "unlink", "exists", "mget",    "touch",     "watch",
                                              "sinter", "sunion", "sdiff",  "pfcount", "sintercard"};
    return commands.contains(command);
}

// Commands that name no key (or whose first argument is not one: AUTH's is a user or a password).
bool noKeys(const QByteArray& command)
{
    static const QSet<QByteArray> commands = {
        "ping",         "echo",     "auth",      "hello",   "select",  "info",      "config",     "client",
        "command",      "multi",    "exec",      "discard", "quit",    "time",      "dbsize",     "scan",
        "flushdb",      "flushall", "save",      "bgsave",  "publish", "subscribe", "psubscribe", "unsubscribe",
        "punsubscribe", "monitor",  "slowlog",   "latency", "memory",  "cluster",   "readonly",   "readwrite",
        "script",       "function", "eval",      "evalsha", "fcall",   "acl",       "lastsave",   "role",
        "wait",         "swapdb",   "randomkey", "keys",    "object",  "debug",     "reset"};
    return commands.contains(command);
}

template<typename Map> auto mostFirst(const Map& map)
{
    std::vector<std::pair<QByteArray, std::uint64_t>> out;
    for (auto it = map.cbegin(); it != map.cend(); ++it)
        out.emplace_back(it.key(), it.value());
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    return out;
}

} // namespace

MonitorProfile::MonitorProfile(keyspace::Delimiters delimiters, IsWrite isWrite)
    : m_delimiters(std::move(delimiters))
    , m_isWrite(std::move(isWrite))
{}

std::vector<QByteArrayView> MonitorProfile::keysOf(const std::vector<QByteArray>& arguments, const QByteArray& command)
{
    std::vector<QByteArrayView> keys;
    if (arguments.size() < 2 || noKeys(command))
        return keys;
    if (command == "mset" || command == "msetnx") {
        for (std::size_t i = 1; i < arguments.size(); i += 2)
            keys.push_back(arguments[i]);
    } else if (allKeys(command)) {
        for (std::size_t i = 1; i < arguments.size(); ++i)
            keys.push_back(arguments[i]);
    } else {
        keys.push_back(arguments[1]);
    }
    return keys;
}

void MonitorProfile::add(const MonitorLine& line)
{
    ++m_calls;
    const QByteArray command = line.arguments.front().toLower();
    const bool write = m_isWrite(line.arguments);
    const std::vector<QByteArrayView> keys = keysOf(line.arguments, command);
    // A command on several keys counts once per pattern it touches, each key once.
    QSet<QByteArray> counted;
    const auto tally = [&](const QByteArray& pattern) -> Tally* {
        if (counted.contains(pattern))
            return nullptr;
        counted.insert(pattern);
        auto it = m_patterns.find(pattern);
        if (it == m_patterns.end()) {
            if (m_patterns.size() >= PatternsTracked)
                it = m_patterns.find("(other patterns)");
            if (it == m_patterns.end())
                it = m_patterns.insert(m_patterns.size() >= PatternsTracked ? QByteArray("(other patterns)") : pattern,
                                       {});
        }
        Tally& t = *it;
        ++t.calls;
        ++(write ? t.writes : t.reads);
        ++t.commands[command];
        return &t;
    };
    if (keys.empty()) {
        tally(noKey());
        return;
    }
    for (const QByteArrayView key : keys) {
        const QByteArray pattern = patternOfKey(key, m_delimiters);
        Tally* t = tally(pattern);
        if (!t)
            t = &m_patterns[pattern];
        const QByteArray keyBytes = key.toByteArray();
        if (auto k = t->keys.find(keyBytes); k != t->keys.end())
            ++*k;
        else if (t->keys.size() < KeysTracked)
            t->keys.insert(keyBytes, 1);
    }
}

std::vector<MonitorProfile::Pattern> MonitorProfile::patterns() const
{
    std::vector<Pattern> out;
    for (auto it = m_patterns.cbegin(); it != m_patterns.cend(); ++it) {
        Pattern pattern;
        pattern.pattern = it.key();
        pattern.calls = it->calls;
        pattern.reads = it->reads;
        pattern.writes = it->writes;
        for (const auto& [command, calls] : mostFirst(it->commands))
            pattern.commands.push_back({command, calls});
        for (const auto& [key, calls] : mostFirst(it->keys)) {
            if (pattern.topKeys.size() == TopKeys)
                break;
            pattern.topKeys.push_back({key, calls});
        }
        out.push_back(std::move(pattern));
    }
    std::sort(out.begin(), out.end(), [](const Pattern& a, const Pattern& b) {
        return a.calls != b.calls ? a.calls > b.calls : a.pattern < b.pattern;
    });
    return out;
}

} // namespace keylens::live
