#pragma once

#include "keyspace/Delimiters.h"
#include "live/MonitorLine.h"

#include <QByteArray>
#include <QHash>

#include <cstdint>
#include <functional>
#include <vector>

namespace keylens::live {

// What a MONITOR sample says about the application: per key pattern, the calls of each command, reads against
// writes, and the keys called most. The commands' arguments past their keys (values, passwords) are never kept:
// they are data, and an AUTH's is a secret.
class MonitorProfile
{
public:
    // `isWrite`: whether a command (its arguments) changes data, as the write gate judges it.
    using IsWrite = std::function<bool(const std::vector<QByteArray>& arguments)>;
    MonitorProfile(keyspace::Delimiters delimiters, IsWrite isWrite);

    void add(const MonitorLine& line);

    struct CommandCalls
    {
        QByteArray command; // lower case: "get", "hset"
        std::uint64_t calls = 0;
    };
    struct KeyCalls
    {
        QByteArray key;
        std::uint64_t calls = 0;
    };
    struct Pattern
    {
        QByteArray pattern; // "(no key)" for commands without one (PING, INFO, AUTH…)
        std::uint64_t calls = 0;
        std::uint64_t reads = 0;
        std::uint64_t writes = 0;
        std::vector<CommandCalls> commands; // most called first
        std::vector<KeyCalls> topKeys;      // most called first, at most TopKeys
    };
    static constexpr std::size_t TopKeys = 5;
    // Most called first.
    std::vector<Pattern> patterns() const;
    std::uint64_t calls() const { return m_calls; }
    static QByteArray noKey() { return "(no key)"; }

private:
    struct Tally
    {
        std::uint64_t calls = 0;
        std::uint64_t reads = 0;
        std::uint64_t writes = 0;
        QHash<QByteArray, std::uint64_t> commands;
        QHash<QByteArray, std::uint64_t> keys; // bounded: KeysTracked, then only the keys already in it count
    };
    static constexpr qsizetype KeysTracked = 1000;
    static constexpr qsizetype PatternsTracked = 10'000;
    // The keys a command names (its first, or all of them for DEL, MGET, MSET and the like); none for PING.
    static std::vector<QByteArrayView> keysOf(const std::vector<QByteArray>& arguments, const QByteArray& command);

    keyspace::Delimiters m_delimiters;
    IsWrite m_isWrite;
    QHash<QByteArray, Tally> m_patterns;
    std::uint64_t m_calls = 0;
};

} // namespace keylens::live
