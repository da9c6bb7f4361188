#include "redis/Sentinel.h"

#include "redis/Connection.h"

#include <QStringList>

namespace keylens::redis {

Result<ConnectionOptions> resolveThroughSentinel(const ConnectionOptions& options, const std::atomic<bool>* cancel)
{
    const QString master = QString::fromUtf8(options.sentinel.masterName);
    QStringList failures;
    std::optional<Error> lastFailure;
    bool someSentinelAnswered = false;
    for (const auto& [host, port] : options.sentinel.sentinels) {
        ConnectionOptions sentinel;
        sentinel.host = host;
        sentinel.port = port;
        sentinel.tls = options.tls;
        sentinel.ssh = options.ssh;
        sentinel.connectTimeoutMs = options.connectTimeoutMs;
        sentinel.commandTimeoutMs = options.commandTimeoutMs;
        Result<std::unique_ptr<Connection>> opened = Connection::open(sentinel, cancel);
        if (!opened) {
            if (opened.error().kind == ErrorKind::Cancelled)
                return opened.error();
            failures << opened.error().message;
            lastFailure = opened.error();
            continue;
        }
        Result<Reply> reply = (*opened)->command({"SENTINEL", "get-master-addr-by-name", options.sentinel.masterName});
        if (!reply) {
            failures << reply.error().message;
            lastFailure = reply.error();
            continue;
        }
        someSentinelAnswered = true;
        if (reply->isError()) {
            failures << QStringLiteral("%1: %2").arg(sentinel.address(), QString::fromUtf8(reply->bytes()));
            continue;
        }
        if (!reply->isArray() || reply->size() != 2) {
            failures << QStringLiteral("%1 knows no master named '%2'").arg(sentinel.address(), master);
            continue;
        }
        bool ok = false;
        const uint masterPort = reply->at(1).bytes().toByteArray().toUInt(&ok);
        if (!ok || masterPort == 0 || masterPort > 65535) {
            failures << QStringLiteral("%1 answered a port that is not one").arg(sentinel.address());
            continue;
        }
        ConnectionOptions resolved = options;
        resolved.transport = ConnectionOptions::Transport::Tcp;
        resolved.host = QString::fromUtf8(reply->at(0).bytes());
        resolved.port = quint16(masterPort);
        return resolved;
    }
    const QString message =
        QStringLiteral("could not find %1: %2").arg(options.sentinelAddress(), failures.join(QStringLiteral("; ")));
    // Every sentinel unreachable is a connection failure of its own kind; sentinels that answered but know no such
    // master make the name the problem.
    if (!someSentinelAnswered && lastFailure)
        return Error{lastFailure->kind, message};
    return Error{ErrorKind::HostNotFound, message};
}

} // namespace keylens::redis
