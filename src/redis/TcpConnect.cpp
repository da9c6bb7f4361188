#include "redis/TcpConnect.h"

#include "redis/Transport.h"

#include <QElapsedTimer>
#include <QHostAddress>
#include <QHostInfo>

#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace keylens::redis {

namespace {

// An address, as connect() takes it.
struct SocketAddress
{
    sockaddr_storage storage{};
    socklen_t length = 0;
};

SocketAddress socketAddress(const QHostAddress& host, quint16 port)
{
    SocketAddress address;
    if (host.protocol() == QAbstractSocket::IPv6Protocol) {
        auto* v6 = reinterpret_cast<sockaddr_in6*>(&address.storage);
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        const Q_IPV6ADDR bytes = host.toIPv6Address();
        std::memcpy(&v6->sin6_addr, &bytes, sizeof bytes);
        v6->sin6_scope_id = host.scopeId().toUInt();
        address.length = sizeof(sockaddr_in6);
    } else {
        auto* v4 = reinterpret_cast<sockaddr_in*>(&address.storage);
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        v4->sin_addr.s_addr = htonl(host.toIPv4Address());
        address.length = sizeof(sockaddr_in);
    }
    return address;
}

Error failure(int error, const QString& address)
{
    return connectError(error == ECONNREFUSED ? ConnectFailure::Refused : ConnectFailure::Other, address, 0,
                        QString::fromLocal8Bit(std::strerror(error)));
}

// One address: a non-blocking connect, then waits for it in slices. The descriptor, or the error that ended it.
Result<int> connectOne(const QHostAddress& host, quint16 port, const QElapsedTimer& clock, int timeoutMs,
                       const std::atomic<bool>* cancel, const QString& address)
{
    const SocketAddress target = socketAddress(host, port);
    const int fd = ::socket(target.storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return failure(errno, address);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&target.storage), target.length) == 0)
        return fd;
    if (errno != EINPROGRESS) {
        const int error = errno;
        ::close(fd);
        return failure(error, address);
    }
    for (;;) {
        if (cancel && cancel->load(std::memory_order_relaxed)) {
            ::close(fd);
            return Error{ErrorKind::Cancelled, QStringLiteral("cancelled while connecting to %1").arg(address)};
        }
        const qint64 left = timeoutMs - clock.elapsed();
        if (left <= 0) {
            ::close(fd);
            return connectError(ConnectFailure::TimedOut, address, timeoutMs);
        }
        pollfd waiting{fd, POLLOUT, 0};
        const int ready = ::poll(&waiting, 1, int(std::min<qint64>(left, Transport::CancelSliceMs)));
        if (ready < 0 && errno != EINTR) {
            const int error = errno;
            ::close(fd);
            return failure(error, address);
        }
        if (ready <= 0)
            continue;
        int error = 0;
        socklen_t length = sizeof error;
        if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0)
            error = errno;
        if (error == 0)
            return fd;
        ::close(fd);
        return failure(error, address);
    }
}

} // namespace

Error connectError(ConnectFailure failure, const QString& address, int timeoutMs, const QString& detail)
{
    switch (failure) {
    case ConnectFailure::TimedOut:
        return {ErrorKind::Timeout,
                QStringLiteral("could not connect to %1 within %2 s").arg(address).arg(timeoutMs / 1000.0)};
    case ConnectFailure::Refused:
        return {ErrorKind::Refused,
                QStringLiteral("could not connect to %1: connection refused (is redis-server running there?)")
                    .arg(address)};
    case ConnectFailure::NotFound:
        return {ErrorKind::HostNotFound, QStringLiteral("could not connect to %1: %2").arg(address, detail)};
    case ConnectFailure::Other:
        break;
    }
    return {ErrorKind::ConnectionLost, QStringLiteral("could not connect to %1: %2").arg(address, detail)};
}

Result<int> connectTcp(const QString& host, quint16 port, int timeoutMs, const std::atomic<bool>* cancel,
                       const QString& address)
{
    QElapsedTimer clock;
    clock.start();
    QList<QHostAddress> candidates;
    if (QHostAddress literal; literal.setAddress(host)) {
        candidates << literal;
    } else {
        const QHostInfo found = QHostInfo::fromName(host);
        if (found.error() != QHostInfo::NoError || found.addresses().isEmpty())
            return connectError(ConnectFailure::NotFound, address, timeoutMs, found.errorString());
        candidates = found.addresses();
    }
    std::optional<Error> first;
    for (const QHostAddress& candidate : candidates) {
        Result<int> connected = connectOne(candidate, port, clock, timeoutMs, cancel, address);
        if (connected)
            return connected;
        const ErrorKind kind = connected.error().kind;
        if (kind == ErrorKind::Cancelled || kind == ErrorKind::Timeout)
            return connected.error();
        if (!first)
            first = connected.error();
    }
    return *first;
}

} // namespace keylens::redis
