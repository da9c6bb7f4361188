#pragma once

#include "redis/Error.h"

#include <QByteArray>
#include <QString>

namespace keylens::redis {

// Where and how to connect. Credentials are bytes: a password may hold any byte a URI can percent-encode.
struct ConnectionOptions
{
    enum class Transport { Tcp, Unix };

    Transport transport = Transport::Tcp;
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 6379;
    QString socketPath;
    QByteArray user;     // empty: the default user
    QByteArray password; // meaningful only when hasPassword
    bool hasPassword = false;
    int db = 0;
    int connectTimeoutMs = 5000;
    int commandTimeoutMs = 30000;

    // "127.0.0.1:6379", "[::1]:6380" or "/run/redis.sock": for messages and reports, never with a password.
    QString address() const;
    // A URI that reconnects to the same place, without the password.
    QString uriWithoutPassword() const;
};

// Parses redis://[user[:password]@]host[:port][/db] and unix://[user[:password]@]/path[?db=N].
// As in redis-cli, a userinfo without ':' is a password for the default user. rediss:// is refused
// until TLS lands.
Result<ConnectionOptions> parseRedisUri(QByteArrayView uri);

// The URI with whatever may be a password replaced by "***": everything between the scheme and the
// last '@', however malformed the URI is. Every message that quotes a URI quotes this.
QString redactUri(QByteArrayView uri);

} // namespace keylens::redis
