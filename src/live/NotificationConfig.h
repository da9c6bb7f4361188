#pragma once

#include <QByteArray>
#include <QByteArrayView>

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

} // namespace keylens::live
