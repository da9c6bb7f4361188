#pragma once

#include "redis/Error.h"

#include <QByteArray>
#include <QByteArrayView>

namespace keylens::redis {
class Connection;
}

namespace keylens::live {

// The server's `notify-keyspace-events` flags, as the live view needs them: key events (E) of every class that
// writes, deletes, expires or evicts (A, or g$lshzt with x and e). Off by default on every server.
struct NotificationConfig
{
    QByteArray flags; // as CONFIG GET answered

    // Whether the server publishes what the live view counts.
    bool publishesKeyEvents() const;
    // The classes missing, in words ("key events (E)", "expired (x)"), for the message that offers to turn them on.
    QByteArray missing() const;
    // The flags with key events of every class added ("KA" becomes "KAE"); what CONFIG SET is given.
    QByteArray withKeyEvents() const;
};

// CONFIG GET notify-keyspace-events; the error says why it could not be read (a user denied CONFIG).
redis::Result<NotificationConfig> readNotificationConfig(redis::Connection& connection);
// CONFIG SET notify-keyspace-events, through the write gate: a read-only connection refuses it and nothing changes.
// Used both to turn key events on (withKeyEvents()) and to put the flags back as they were.
redis::Status setNotificationFlags(redis::Connection& connection, const QByteArray& flags);

} // namespace keylens::live
