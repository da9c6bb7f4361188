#pragma once

#include "redis/Error.h"

#include <QByteArray>
#include <QString>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace keylens::redis {

class ClusterRoutes;

// TLS as redis-cli's flags name it (--tls --cacert --cacertdir --cert --key --sni --insecure).
struct TlsOptions
{
    bool enabled = false;
    QString caCertFile; // trust these CAs (with caCertDir) instead of the system's
    QString caCertDir;
    QString certFile; // a client certificate, for a server with tls-auth-clients yes
    QString keyFile;
    QString serverName;    // sent (SNI) and checked against the certificate; empty: the host
    bool insecure = false; // the server's certificate is not checked at all

    bool operator==(const TlsOptions&) const = default;
};

// A master found through Redis Sentinel: the sentinels to ask, and the name they monitor it under.
struct SentinelOptions
{
    std::vector<std::pair<QString, quint16>> sentinels; // host, port (26379 by default)
    QByteArray masterName;                              // empty: no sentinel, host and port are the server

    // "host:port" of each sentinel, in order, joined by `separator`.
    QString placesText(QStringView separator) const;

    bool operator==(const SentinelOptions&) const = default;
};

// A tunnel through the system's ssh (its config, agent and known_hosts): `ssh -N -L` from a free loopback port to
// the server, as the SSH server sees it.
struct SshOptions
{
    QString host; // the SSH server; empty: no tunnel
    quint16 port = 22;
    QString user;           // empty: as ssh decides (its config, else the local user name)
    QString identityFile;   // empty: the agent, and the keys ssh tries by default
    QString knownHostsFile; // empty: ssh's own (~/.ssh/known_hosts and the system's)

    bool enabled() const { return !host.isEmpty(); }
    // "deploy@bastion:22", for messages.
    QString destination() const;

    bool operator==(const SshOptions&) const = default;
};

// [user@]host[:port] as ssh takes it, into `ssh` (the user and port stay as they are when not given).
Status parseSshDestination(QByteArrayView text, SshOptions* ssh);

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
    TlsOptions tls;
    // When it names a master, Connection::open asks these sentinels where it is, every time: after a failover,
    // connecting again finds the new master. host and port are then what the sentinels answered.
    SentinelOptions sentinel;
    // When enabled, every TCP connection (to the server, to the sentinels) goes through an SSH tunnel; host and port
    // are then the server as the SSH server reaches it.
    SshOptions ssh;
    bool readOnly = false; // every command that could change something is refused before it is sent
    // Replies may nest deeper than hiredis 0.14 reads (COMMAND DOCS): read them with DeepReplyReader. For a console,
    // not for scans, which keep hiredis's reader.
    bool deepReplies = false;
    // A cluster replica answers reads of its slots instead of redirecting them (READONLY after logging in).
    bool readFromReplica = false;
    // A Redis Cluster: commands about a key go to the node serving its slot (Connection::routeTo), shared by every
    // copy of these options, so that what one connection learns (a MOVED) the others use. Null for a single server.
    std::shared_ptr<ClusterRoutes> cluster;
    int connectTimeoutMs = 5000;
    int commandTimeoutMs = 30000;

    // "127.0.0.1:6379", "[::1]:6380" or "/run/redis.sock": for messages and reports, never with a password.
    QString address() const;
    // "master 'mymaster' via sentinels 127.0.0.1:26379,…": what the user asked for, before the sentinels answer.
    QString sentinelAddress() const;
    // What the user chose, for the window's title and status: the address or the sentinels' master, and the SSH
    // server in between ("10.0.0.5:6379 via SSH deploy@bastion:22").
    QString description() const;
    // A URI that reconnects to the same place, without the password.
    QString uriWithoutPassword() const;
};

// "host:port", or "[v6]:port" for an IPv6 address.
QString hostPortText(const QString& host, quint16 port);

// Parses redis://[user[:password]@]host[:port][/db], rediss://… (the same over TLS),
// unix://[user[:password]@]/path[?db=N] and redis+sentinel://[user[:password]@]host[:port][,host[:port]…]/master[/db]
// (the credentials are the master's). As in redis-cli, a userinfo without ':' is a password for the default user.
Result<ConnectionOptions> parseRedisUri(QByteArrayView uri);

// Where the user-info of a URI-like text lies, [begin, end) with end at its last '@': everything between
// the scheme (`scheme://`, or a malformed `scheme:/` or `//`) and that '@', however malformed the rest is.
// Nothing when there is no '@'.
std::optional<std::pair<qsizetype, qsizetype>> userInfoRange(QByteArrayView uri);

// The URI with its user-info (which may hold a password) replaced by "***". Every message that quotes a
// URI quotes this.
QString redactUri(QByteArrayView uri);
// The URI without its user-info and the '@' after it, for saving a URI that could not be parsed.
QString uriWithoutUserInfo(QByteArrayView uri);

} // namespace keylens::redis
