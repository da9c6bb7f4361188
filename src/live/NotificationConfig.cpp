#include "live/NotificationConfig.h"

#include "redis/Connection.h"

#include <array>

namespace keylens::live {

namespace {

// The classes a write of each type, a generic command (DEL, EXPIRE, RENAME), an expiry and an eviction raise.
constexpr std::array<char, 9> Classes = {'g', '$', 'l', 's', 'h', 'z', 't', 'x', 'e'};

bool hasClass(QByteArrayView flags, char c)
{
    return flags.contains(c) || flags.contains('A'); // A: g$lshzxetd (not m, n)
}

} // namespace

bool NotificationConfig::publishesKeyEvents() const
{
    if (!flags.contains('E'))
        return false;
    for (const char c : Classes) {
        if (!hasClass(flags, c))
            return false;
    }
    return true;
}

QByteArray NotificationConfig::missing() const
{
    QByteArray out;
    const auto add = [&](const char* text) {
        if (!out.isEmpty())
            out += ", ";
        out += text;
    };
    if (!flags.contains('E'))
        add("key events (E)");
    if (!hasClass(flags, 'x'))
        add("expiries (x)");
    if (!hasClass(flags, 'e'))
        add("evictions (e)");
    for (const char c : {'g', '$', 'l', 's', 'h', 'z', 't'}) {
        if (!hasClass(flags, c)) {
            add("writes of every type (A)");
            break;
        }
    }
    return out;
}

QByteArray NotificationConfig::withKeyEvents() const
{
    QByteArray out = flags;
    for (const char c : {'E', 'A'}) {
        if (!out.contains(c))
            out += c;
    }
    return out;
}

redis::Result<NotificationConfig> readNotificationConfig(redis::Connection& connection)
{
    redis::Result<redis::Reply> got = connection.command({"CONFIG", "GET", "notify-keyspace-events"});
    if (!got)
        return got.error();
    if (got->isError())
        return redis::errorFromReply(got->bytes(), "CONFIG GET");
    if (!got->isArray() || got->size() != 2)
        return redis::Error{redis::ErrorKind::Protocol,
                            QStringLiteral("CONFIG GET notify-keyspace-events gave no value")};
    return NotificationConfig{got->at(1).bytes().toByteArray()};
}

redis::Status setNotificationFlags(redis::Connection& connection, const QByteArray& flags)
{
    redis::Result<redis::Reply> set = connection.command({"CONFIG", "SET", "notify-keyspace-events", flags});
    if (!set)
        return set.error();
    if (set->isError())
        return redis::errorFromReply(set->bytes(), "CONFIG SET");
    return {};
}

} // namespace keylens::live
