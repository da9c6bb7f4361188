#include "redis/Error.h"

namespace keylens::redis {

bool Error::isConnectionError() const
{
    switch (kind) {
    case ErrorKind::HostNotFound:
    case ErrorKind::Refused:
    case ErrorKind::Timeout:
    case ErrorKind::ConnectionLost:
    case ErrorKind::AuthFailed:
    case ErrorKind::AuthRequired:
    case ErrorKind::Loading:
    case ErrorKind::Protocol:
    case ErrorKind::Unsupported:
    case ErrorKind::Tls:
    case ErrorKind::Tunnel:
        return true;
    default:
        return false;
    }
}

bool Error::isTransient() const
{
    switch (kind) {
    case ErrorKind::ConnectionLost:
    case ErrorKind::Timeout:
    case ErrorKind::Refused: // a server restarting is not listening for a moment
    case ErrorKind::Loading:
    case ErrorKind::Busy:
        return true;
    default:
        return false;
    }
}

ErrorKind classifyErrorReply(QByteArrayView reply)
{
    if (reply.startsWith("WRONGPASS") || reply.startsWith("ERR invalid password") ||
        reply.startsWith("ERR invalid username-password pair") ||
        (reply.startsWith("ERR AUTH") && reply.contains("without any password configured")))
        return ErrorKind::AuthFailed;
    if (reply.startsWith("NOAUTH"))
        return ErrorKind::AuthRequired;
    if (reply.startsWith("NOPERM"))
        return ErrorKind::NoPermission;
    if (reply.startsWith("LOADING"))
        return ErrorKind::Loading;
    if (reply.startsWith("BUSY ") || reply.startsWith("MASTERDOWN") || reply.startsWith("TRYAGAIN") ||
        reply.startsWith("CLUSTERDOWN"))
        return ErrorKind::Busy;
    if (reply.startsWith("ERR unknown command") || reply.startsWith("ERR unknown subcommand"))
        return ErrorKind::UnknownCommand;
    return ErrorKind::Server;
}

Denial denialOf(QByteArrayView reply, QByteArrayView command)
{
    switch (classifyErrorReply(reply)) {
    case ErrorKind::UnknownCommand:
        return Denial::Command;
    case ErrorKind::NoPermission:
        break;
    default:
        return Denial::None;
    }
    // The command's first word, lower case, in quotes: 'pttl', or 'memory|usage' for a subcommand.
    QByteArray name = command.toByteArray().toLower();
    if (const qsizetype space = name.indexOf(' '); space >= 0)
        name.truncate(space);
    const QByteArray quoted = '\'' + name;
    for (qsizetype at = reply.indexOf(quoted); at >= 0; at = reply.indexOf(quoted, at + 1)) {
        const qsizetype after = at + quoted.size();
        if (after < reply.size() && (reply[after] == '\'' || reply[after] == '|'))
            return Denial::Command;
    }
    return Denial::Key;
}

Error errorFromReply(QByteArrayView reply, QByteArrayView command)
{
    const QString text = QString::fromUtf8(reply);
    const QString name = QString::fromUtf8(command);
    const ErrorKind kind = classifyErrorReply(reply);
    switch (kind) {
    case ErrorKind::AuthFailed:
        return {kind, QStringLiteral("authentication failed: wrong user or password (%1)").arg(text)};
    case ErrorKind::AuthRequired:
        return {kind, QStringLiteral("the server requires a password (%1); give -a PASSWORD, --user NAME, "
                                     "or credentials in the URI")
                          .arg(text)};
    case ErrorKind::NoPermission:
        return {kind, QStringLiteral("%1 is denied for this user (%2)").arg(name, text)};
    case ErrorKind::UnknownCommand:
        return {kind, QStringLiteral("the server does not offer %1: it is renamed, disabled, or too new for "
                                     "this server (%2)")
                          .arg(name, text)};
    case ErrorKind::Loading:
        return {kind,
                QStringLiteral("the server is still loading its dataset; try again when it is done (%1)").arg(text)};
    default:
        return {kind, QStringLiteral("%1 failed: %2").arg(name, text)};
    }
}

} // namespace keylens::redis
