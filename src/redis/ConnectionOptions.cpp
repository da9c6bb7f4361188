#include "redis/ConnectionOptions.h"

#include <QList>

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

// Reads `db=N` out of a query string; other parameters are ignored as other clients do.
bool parseQuery(QByteArrayView query, ConnectionOptions* options, QString* problem)
{
    for (const QByteArrayView pair : QByteArrayView(query).toByteArray().split('&')) {
        if (pair.startsWith("db=") && !parseDb(pair.sliced(3), &options->db)) {
            *problem = QStringLiteral("the database in the URI must be a number, not '%1'")
                           .arg(QString::fromUtf8(pair.sliced(3)));
            return false;
        }
    }
    return true;
}

void parseUserInfo(QByteArrayView userInfo, ConnectionOptions* options)
{
    const qsizetype colon = userInfo.indexOf(':');
    if (colon < 0) {
        options->password = QByteArray::fromPercentEncoding(userInfo.toByteArray());
    } else {
        options->user = QByteArray::fromPercentEncoding(userInfo.first(colon).toByteArray());
        options->password = QByteArray::fromPercentEncoding(userInfo.sliced(colon + 1).toByteArray());
    }
    options->hasPassword = true;
}

} // namespace

QString ConnectionOptions::address() const
{
    if (transport == Transport::Unix)
        return socketPath;
    const QString shownHost = host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    return shownHost + QLatin1Char(':') + QString::number(port);
}

QString ConnectionOptions::uriWithoutPassword() const
{
    const QString userPart =
        user.isEmpty() ? QString() : QString::fromUtf8(QByteArray(user).toPercentEncoding()) + QLatin1Char('@');
    if (transport == Transport::Unix) {
        return QStringLiteral("unix://") + userPart + socketPath +
               (db != 0 ? QStringLiteral("?db=") + QString::number(db) : QString());
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
    if (uri.startsWith("redis://")) {
        rest = uri.sliced(8);
    } else if (uri.startsWith("unix://")) {
        rest = uri.sliced(7);
        options.transport = ConnectionOptions::Transport::Unix;
    } else if (uri.startsWith("rediss://")) {
        rest = uri.sliced(9);
        options.tls.enabled = true;
    } else {
        return usage(
            QStringLiteral(
                "'%1' is not a Redis URI: use redis://host:port/db, rediss:// for TLS, or unix:///path/redis.sock")
                .arg(redactUri(uri)));
    }

    // The user-info ends at the last '@', so a password may hold '@', '/', '?' or ':' unencoded; the
    // messages below quote only what comes after it.
    QString problem;
    if (options.transport == ConnectionOptions::Transport::Tcp) {
        if (const qsizetype at = rest.lastIndexOf('@'); at >= 0) {
            parseUserInfo(rest.first(at), &options);
            rest = rest.sliced(at + 1);
        }
    }
    const qsizetype queryStart = rest.indexOf('?');
    if (queryStart >= 0) {
        if (!parseQuery(rest.sliced(queryStart + 1), &options, &problem))
            return usage(problem);
        rest = rest.first(queryStart);
    }

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
            parseUserInfo(before.chopped(1), &options);
        }
        options.socketPath = QString::fromLocal8Bit(QByteArray::fromPercentEncoding(rest.sliced(slash).toByteArray()));
        return options;
    }

    // redis://[userinfo@]host[:port][/db]
    const qsizetype pathStart = rest.indexOf('/');
    const QByteArrayView authority = pathStart >= 0 ? rest.first(pathStart) : rest;
    const QByteArrayView path = pathStart >= 0 ? rest.sliced(pathStart + 1) : QByteArrayView();

    QByteArrayView host = authority;
    QByteArrayView port;
    if (authority.startsWith('[')) {
        const qsizetype close = authority.indexOf(']');
        if (close < 0)
            return usage(QStringLiteral("unbalanced '[' in the host of '%1'").arg(redactUri(uri)));
        host = authority.sliced(1, close - 1);
        const QByteArrayView after = authority.sliced(close + 1);
        if (!after.isEmpty()) {
            if (!after.startsWith(':'))
                return usage(QStringLiteral("unexpected text after the host in '%1'").arg(redactUri(uri)));
            port = after.sliced(1);
        }
    } else if (const qsizetype colon = authority.lastIndexOf(':'); colon >= 0) {
        host = authority.first(colon);
        port = authority.sliced(colon + 1);
    }
    if (!host.isEmpty())
        options.host = QString::fromUtf8(host);
    else if (options.hasPassword || !options.user.isEmpty())
        return usage(
            QStringLiteral("'%1' names no host: use redis://[user:password@]host[:port][/db]").arg(redactUri(uri)));
    if (!port.isEmpty()) {
        bool ok = false;
        const uint value = port.toByteArray().toUInt(&ok);
        if (!ok || value == 0 || value > 65535)
            return usage(QStringLiteral("'%1' is not a port number").arg(QString::fromUtf8(port)));
        options.port = static_cast<quint16>(value);
    }
    if (!path.isEmpty() && !parseDb(path, &options.db))
        return usage(QStringLiteral("the database in the URI must be a number, not '%1'").arg(QString::fromUtf8(path)));
    return options;
}

} // namespace keylens::redis
