#include "redis/ConnectionOptions.h"

#include <QList>

#include <algorithm>

namespace keylens::redis {

namespace {

Error usage(const QString& message)
{
    return {ErrorKind::Usage, message};
}

bool parseDb(QByteArrayView text, int* db)
{
    bool ok = false;
    const int value = text.toByteArray().toInt(&ok);
    if (!ok || value < 0)
        return false;
    *db = value;
    return true;
}

// Reads `db=N` out of a query string. Any other parameter is refused, by name (never its value, which may be a
// secret): a URI whose parameters were ignored would connect otherwise than it says. A db given twice must agree.
bool parseQuery(QByteArrayView query, std::optional<int>* db, QString* problem)
{
    QStringList unknown;
    for (const QByteArray& pair : query.toByteArray().split('&')) {
        if (pair.isEmpty())
            continue;
        if (!pair.startsWith("db=")) {
            const qsizetype equals = pair.indexOf('=');
            unknown << QStringLiteral("'%1'").arg(QString::fromUtf8(equals < 0 ? pair : pair.first(equals)));
            continue;
        }
        int value = 0;
        if (!parseDb(pair.sliced(3), &value)) {
            *problem = QStringLiteral("the database in the URI must be a number, not '%1'")
                           .arg(QString::fromUtf8(pair.sliced(3)));
            return false;
        }
        if (*db && **db != value) {
            *problem = QStringLiteral("the URI gives two databases, %1 and %2: give one").arg(**db).arg(value);
            return false;
        }
        *db = value;
    }
    if (!unknown.isEmpty()) {
        *problem = QStringLiteral("the URI has query parameters Keylens does not know: %1 (it reads db=N only)")
                       .arg(unknown.join(QStringLiteral(", ")));
        return false;
    }
    return true;
}

// A '%' not followed by two hex digits is no percent-encoding: refused, not sent as it is.
std::optional<QByteArray> percentDecoded(QByteArrayView text)
{
    const auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); };
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && (i + 2 >= text.size() || !hex(text[i + 1]) || !hex(text[i + 2])))
            return std::nullopt;
    }
    return QByteArray::fromPercentEncoding(text.toByteArray());
}

QString badPercentEncoding(const QString& what)
{
    return QStringLiteral("%1 in the URI has a '%' not followed by two hex digits (write '%' itself as %25)").arg(what);
}

// A problem to report, which never quotes the password.
std::optional<QString> parseUserInfo(QByteArrayView userInfo, ConnectionOptions* options)
{
    const qsizetype colon = userInfo.indexOf(':');
    const QByteArrayView password = colon < 0 ? userInfo : userInfo.sliced(colon + 1);
    if (colon >= 0) {
        const std::optional<QByteArray> user = percentDecoded(userInfo.first(colon));
        if (!user)
            return badPercentEncoding(QStringLiteral("the user name"));
        options->user = *user;
    }
    const std::optional<QByteArray> decoded = percentDecoded(password);
    if (!decoded)
        return badPercentEncoding(QStringLiteral("the password (not shown)"));
    options->password = *decoded;
    options->hasPassword = true;
    return std::nullopt;
}

// host[:port] or [v6]:port, into `host` and `port` (left alone when not given). A problem to report otherwise.
std::optional<QString> parseHostPort(QByteArrayView authority, QByteArrayView uri, QString* host, quint16* port)
{
    QByteArrayView hostText = authority;
    QByteArrayView portText;
    if (authority.startsWith('[')) {
        const qsizetype close = authority.indexOf(']');
        if (close < 0)
            return QStringLiteral("unbalanced '[' in the host of '%1'").arg(redactUri(uri));
        hostText = authority.sliced(1, close - 1);
        const QByteArrayView after = authority.sliced(close + 1);
        if (!after.isEmpty()) {
            if (!after.startsWith(':'))
                return QStringLiteral("unexpected text after the host in '%1'").arg(redactUri(uri));
            portText = after.sliced(1);
        }
    } else if (const qsizetype colon = authority.lastIndexOf(':'); colon >= 0) {
        hostText = authority.first(colon);
        portText = authority.sliced(colon + 1);
        // host:6379:6379, or an IPv6 address without its brackets: a typo to name, not a host to look up.
        if (hostText.contains(':'))
            return QStringLiteral("the address in '%1' has more than one ':' (an IPv6 address goes in brackets: "
                                  "[::1]:6379)")
                .arg(redactUri(uri));
    }
    if (!hostText.isEmpty())
        *host = QString::fromUtf8(hostText);
    if (!portText.isEmpty()) {
        bool ok = false;
        const uint value = portText.toByteArray().toUInt(&ok);
        // Digits are shown (70000 is a typo worth seeing); other text is not: `redis://user:secret` without its '@'
        // puts the password where the port goes, and an error message must not print it.
        const bool digits = std::all_of(portText.begin(), portText.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (digits && (!ok || value == 0 || value > 65535))
            return QStringLiteral("'%1' is not a port number (1 to 65535)").arg(QString::fromUtf8(portText));
        if (!ok)
            return QStringLiteral("what follows the last ':' of the address is not a port number (not shown: a "
                                  "password goes before an '@', as in redis://user:PASSWORD@host)");
        *port = static_cast<quint16>(value);
    }
    return std::nullopt;
}

} // namespace

QString hostPortText(const QString& host, quint16 port)
{
    const QString shownHost = host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    return shownHost + QLatin1Char(':') + QString::number(port);
}

QString SentinelOptions::placesText(QStringView separator) const
{
    QStringList places;
    for (const auto& [host, port] : sentinels)
        places << hostPortText(host, port);
    return places.join(separator);
}

QString SshOptions::destination() const
{
    return (user.isEmpty() ? QString() : user + QLatin1Char('@')) + hostPortText(host, port);
}

Status parseSshDestination(QByteArrayView text, SshOptions* ssh)
{
    QByteArrayView place = text;
    if (const qsizetype at = text.lastIndexOf('@'); at >= 0) {
        if (at == 0)
            return usage(QStringLiteral("'%1' has an '@' but no user before it").arg(QString::fromUtf8(text)));
        ssh->user = QString::fromUtf8(text.first(at));
        place = text.sliced(at + 1);
    }
    QString host;
    if (std::optional<QString> problem = parseHostPort(place, text, &host, &ssh->port))
        return usage(QStringLiteral("SSH server: %1").arg(*problem));
    if (host.isEmpty())
        return usage(QStringLiteral("'%1' names no SSH server").arg(QString::fromUtf8(text)));
    // ssh would read a leading '-' as an option.
    if (host.startsWith(QLatin1Char('-')) || ssh->user.startsWith(QLatin1Char('-')))
        return usage(QStringLiteral("'%1' is not an SSH server").arg(QString::fromUtf8(text)));
    ssh->host = host;
    return {};
}

QString ConnectionOptions::sentinelAddress() const
{
    return QStringLiteral("master '%1' via sentinel %2")
        .arg(QString::fromUtf8(sentinel.masterName), sentinel.placesText(u","));
}

QString ConnectionOptions::address() const
{
    if (transport == Transport::Unix)
        return socketPath;
    return hostPortText(host, port);
}

QString ConnectionOptions::description() const
{
    const QString place = sentinel.masterName.isEmpty() ? address() : sentinelAddress();
    return ssh.enabled() ? QStringLiteral("%1 via SSH %2").arg(place, ssh.destination()) : place;
}

QString ConnectionOptions::uriWithoutPassword() const
{
    const QString userPart =
        user.isEmpty() ? QString() : QString::fromUtf8(QByteArray(user).toPercentEncoding()) + QLatin1Char('@');
    if (transport == Transport::Unix) {
        return QStringLiteral("unix://") + userPart + socketPath +
               (db != 0 ? QStringLiteral("?db=") + QString::number(db) : QString());
    }
    if (!sentinel.masterName.isEmpty()) {
        return QStringLiteral("redis+sentinel://") + userPart + sentinel.placesText(u",") + QLatin1Char('/') +
               QString::fromUtf8(sentinel.masterName.toPercentEncoding()) +
               (db != 0 ? QStringLiteral("/%1").arg(db) : QString());
    }
    return (tls.enabled ? QStringLiteral("rediss://") : QStringLiteral("redis://")) + userPart + address() +
           (db != 0 ? QStringLiteral("/%1").arg(db) : QString());
}

std::optional<std::pair<qsizetype, qsizetype>> userInfoRange(QByteArrayView uri)
{
    const qsizetype at = uri.lastIndexOf('@');
    if (at < 0)
        return std::nullopt;
    qsizetype begin = 0;
    if (const qsizetype scheme = uri.indexOf("://"); scheme >= 0 && scheme < at)
        begin = scheme + 3;
    else if (const qsizetype colonSlash = uri.indexOf(":/"); colonSlash >= 0 && colonSlash < at)
        begin = colonSlash + 2;
    else if (const qsizetype slashes = uri.indexOf("//"); slashes >= 0 && slashes < at)
        begin = slashes + 2;
    return std::pair{begin, at};
}

QString redactUri(QByteArrayView uri)
{
    const auto range = userInfoRange(uri);
    if (!range)
        return QString::fromUtf8(uri);
    return QString::fromUtf8(uri.first(range->first)) + QStringLiteral("***") +
           QString::fromUtf8(uri.sliced(range->second));
}

QString uriWithoutUserInfo(QByteArrayView uri)
{
    const auto range = userInfoRange(uri);
    if (!range)
        return QString::fromUtf8(uri);
    return QString::fromUtf8(uri.first(range->first)) + QString::fromUtf8(uri.sliced(range->second + 1));
}

Result<ConnectionOptions> parseRedisUri(QByteArrayView uri)
{
    ConnectionOptions options;
    QByteArrayView rest;
    bool viaSentinel = false;
    if (uri.startsWith("redis://")) {
        rest = uri.sliced(8);
    } else if (uri.startsWith("redis+sentinel://")) {
        rest = uri.sliced(17);
        viaSentinel = true;
    } else if (uri.startsWith("unix://")) {
        rest = uri.sliced(7);
        options.transport = ConnectionOptions::Transport::Unix;
    } else if (uri.startsWith("rediss://")) {
        rest = uri.sliced(9);
        options.tls.enabled = true;
    } else {
        return usage(
            QStringLiteral(
                "'%1' is not a Redis URI: use redis://host:port/db, rediss:// for TLS, unix:///path/redis.sock, or "
                "redis+sentinel://host:port/master")
                .arg(redactUri(uri)));
    }

    // The user-info ends at the last '@', so a password may hold '@', '/', '?' or ':' unencoded; the
    // messages below quote only what comes after it.
    QString problem;
    if (options.transport == ConnectionOptions::Transport::Tcp) {
        if (const qsizetype at = rest.lastIndexOf('@'); at >= 0) {
            if (std::optional<QString> problem = parseUserInfo(rest.first(at), &options))
                return usage(*problem);
            rest = rest.sliced(at + 1);
        }
    }
    std::optional<int> queryDb;
    const qsizetype queryStart = rest.indexOf('?');
    if (queryStart >= 0) {
        if (!parseQuery(rest.sliced(queryStart + 1), &queryDb, &problem))
            return usage(problem);
        rest = rest.first(queryStart);
    }
    options.db = queryDb.value_or(options.db);
    // The database in the path, /N, and in the query, ?db=N: either, or both when they agree.
    const auto readPathDb = [&](QByteArrayView path) -> std::optional<Error> {
        if (path.isEmpty())
            return std::nullopt;
        int db = 0;
        if (!parseDb(path, &db))
            return usage(
                QStringLiteral("the database in the URI must be a number, not '%1'").arg(QString::fromUtf8(path)));
        if (queryDb && *queryDb != db)
            return usage(QStringLiteral("the URI gives two databases, /%1 and ?db=%2: give one").arg(db).arg(*queryDb));
        options.db = db;
        return std::nullopt;
    };

    if (options.transport == ConnectionOptions::Transport::Unix) {
        // unix://[userinfo@]/path: the path starts at the first '/', userinfo is whatever came before '@'.
        const qsizetype slash = rest.indexOf('/');
        if (slash < 0 || slash + 1 == rest.size())
            return usage(QStringLiteral("a unix:// URI needs an absolute socket path, as in unix:///run/redis.sock"));
        const QByteArrayView before = rest.first(slash);
        if (!before.isEmpty()) {
            if (!before.endsWith('@'))
                return usage(QStringLiteral("a unix:// URI needs an absolute socket path, as in "
                                            "unix:///run/redis.sock"));
            if (std::optional<QString> problem = parseUserInfo(before.chopped(1), &options))
                return usage(*problem);
        }
        const std::optional<QByteArray> socketPath = percentDecoded(rest.sliced(slash));
        if (!socketPath)
            return usage(badPercentEncoding(QStringLiteral("the socket path")));
        options.socketPath = QString::fromLocal8Bit(*socketPath);
        return options;
    }

    // redis://[userinfo@]host[:port][/db]
    const qsizetype pathStart = rest.indexOf('/');
    const QByteArrayView authority = pathStart >= 0 ? rest.first(pathStart) : rest;
    QByteArrayView path = pathStart >= 0 ? rest.sliced(pathStart + 1) : QByteArrayView();

    if (viaSentinel) {
        // redis+sentinel://[userinfo@]host[:port][,host[:port]…]/master[/db]
        for (const QByteArray& one : authority.toByteArray().split(',')) {
            QString sentinelHost;
            quint16 sentinelPort = 26379;
            if (std::optional<QString> problem = parseHostPort(one, uri, &sentinelHost, &sentinelPort))
                return usage(*problem);
            if (sentinelHost.isEmpty())
                return usage(QStringLiteral("'%1' names a sentinel without a host").arg(redactUri(uri)));
            options.sentinel.sentinels.emplace_back(sentinelHost, sentinelPort);
        }
        const qsizetype slash = path.indexOf('/');
        const std::optional<QByteArray> masterName = percentDecoded(slash >= 0 ? path.first(slash) : path);
        if (!masterName)
            return usage(badPercentEncoding(QStringLiteral("the master name")));
        options.sentinel.masterName = *masterName;
        if (options.sentinel.masterName.isEmpty())
            return usage(QStringLiteral("'%1' names no master: use redis+sentinel://host:port/master-name[/db]")
                             .arg(redactUri(uri)));
        path = slash >= 0 ? path.sliced(slash + 1) : QByteArrayView();
        if (std::optional<Error> bad = readPathDb(path))
            return *bad;
        return options;
    }

    QString host;
    if (std::optional<QString> problem = parseHostPort(authority, uri, &host, &options.port))
        return usage(*problem);
    if (!host.isEmpty())
        options.host = host;
    else if (options.hasPassword || !options.user.isEmpty())
        return usage(
            QStringLiteral("'%1' names no host: use redis://[user:password@]host[:port][/db]").arg(redactUri(uri)));
    if (std::optional<Error> bad = readPathDb(path))
        return *bad;
    return options;
}

} // namespace keylens::redis
