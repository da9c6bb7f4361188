#include "redis/Transport.h"

#include "redis/SshTunnel.h"
#include "redis/TcpConnect.h"
#include "redis/TlsSocket.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QLocalSocket>
#include <QTcpSocket>

#include <unistd.h>

namespace keylens::redis {

namespace {

// Both QTcpSocket and QLocalSocket are QIODevices with blocking waitFor* calls, which is what a worker
// thread without an event loop needs.
class SocketTransport final : public Transport
{
public:
    SocketTransport(std::unique_ptr<QIODevice> socket, QString address, bool clientCertificate = false,
                    std::shared_ptr<SshTunnel> tunnel = {}, qsizetype tunnelLogMark = 0)
        : m_socket(std::move(socket))
        , m_address(std::move(address))
        , m_clientCertificate(clientCertificate)
        , m_tunnel(std::move(tunnel))
        , m_tunnelLogMark(tunnelLogMark)
    {}

    Status writeAll(QByteArrayView bytes, int timeoutMs) override
    {
        if (m_socket->write(bytes.data(), bytes.size()) != bytes.size())
            return lost();
        QElapsedTimer clock;
        clock.start();
        while (m_socket->bytesToWrite() > 0) {
            if (std::optional<Error> stop =
                    waitInSlice(&QIODevice::waitForBytesWritten, clock, timeoutMs, QStringLiteral("sending to")))
                return *stop;
        }
        return {};
    }

    Result<qsizetype> readSome(char* buffer, qsizetype capacity, int timeoutMs) override
    {
        QElapsedTimer clock;
        clock.start();
        while (m_socket->bytesAvailable() == 0) {
            if (std::optional<Error> stop =
                    waitInSlice(&QIODevice::waitForReadyRead, clock, timeoutMs, QStringLiteral("waiting for")))
                return *stop;
        }
        const qsizetype read = m_socket->read(buffer, capacity);
        if (read < 0)
            return lost();
        return read;
    }

private:
    // One wait of at most CancelSliceMs. Nothing when the caller should look again (the wait succeeded, or only
    // the slice ran out); the error that ends the wait otherwise: cancelled, timed out, or lost.
    std::optional<Error> waitInSlice(bool (QIODevice::*wait)(int), const QElapsedTimer& clock, int timeoutMs,
                                     const QString& doing)
    {
        if (cancelled())
            return Error{ErrorKind::Cancelled, QStringLiteral("cancelled while %1 %2").arg(doing, m_address)};
        const qint64 left = timeoutMs - clock.elapsed();
        if (left <= 0)
            return timeout(doing, timeoutMs);
        if ((m_socket.get()->*wait)(int(std::min<qint64>(left, CancelSliceMs))))
            return std::nullopt;
        if (!timedOut())
            return lost();
        return std::nullopt;
    }

    bool timedOut() const
    {
        if (auto* tcp = qobject_cast<QAbstractSocket*>(m_socket.get()))
            return tcp->error() == QAbstractSocket::SocketTimeoutError &&
                   tcp->state() == QAbstractSocket::ConnectedState;
        if (auto* local = qobject_cast<QLocalSocket*>(m_socket.get()))
            return local->error() == QLocalSocket::SocketTimeoutError && local->state() == QLocalSocket::ConnectedState;
        return false;
    }

    Error timeout(const QString& doing, int timeoutMs) const
    {
        return {ErrorKind::Timeout, QStringLiteral("timed out after %1 s %2 %3 (a slow server may need a longer "
                                                   "--command-timeout)")
                                        .arg(timeoutMs / 1000.0)
                                        .arg(doing, m_address)};
    }

    Error lost() const
    {
        if (const auto* tls = qobject_cast<QSslSocket*>(m_socket.get())) {
            if (std::optional<Error> refusal = clientCertificateRefusal(*tls, m_address, m_clientCertificate))
                return *refusal;
        }
        // Through a tunnel, a closed socket is ssh's doing: its log says why.
        if (m_tunnel) {
            if (const QString why = m_tunnel->failureSince(m_tunnelLogMark); !why.isEmpty())
                return {ErrorKind::ConnectionLost, QStringLiteral("connection to %1 lost: %2").arg(m_address, why)};
        }
        return {ErrorKind::ConnectionLost,
                QStringLiteral("connection to %1 lost: %2").arg(m_address, m_socket->errorString())};
    }

    std::unique_ptr<QIODevice> m_socket;
    QString m_address;
    bool m_clientCertificate = false; // a TLS socket that presented one
    std::shared_ptr<SshTunnel> m_tunnel;
    qsizetype m_tunnelLogMark = 0; // what ssh had logged before this connection
};

} // namespace

Result<std::unique_ptr<Transport>> Transport::connect(const ConnectionOptions& options, const std::atomic<bool>* cancel)
{
    if (options.transport == ConnectionOptions::Transport::Unix) {
        if (options.ssh.enabled())
            return Error{
                ErrorKind::Usage,
                QStringLiteral("an SSH tunnel leads to a TCP port, not to the socket %1").arg(options.socketPath)};
        // Qt names a missing socket "Invalid name"; say what is wrong with the path instead.
        const QFileInfo socketFile(options.socketPath);
        if (!socketFile.exists())
            return Error{ErrorKind::HostNotFound, QStringLiteral("no socket at %1").arg(options.socketPath)};
        if (socketFile.isDir() || socketFile.isFile()) // regular files only: a socket is neither
            return Error{ErrorKind::HostNotFound, QStringLiteral("%1 is not a socket").arg(options.socketPath)};
        auto socket = std::make_unique<QLocalSocket>();
        socket->connectToServer(options.socketPath);
        if (!socket->waitForConnected(options.connectTimeoutMs)) {
            const auto error = socket->error();
            const ConnectFailure failure = error == QLocalSocket::SocketTimeoutError       ? ConnectFailure::TimedOut
                                           : error == QLocalSocket::ConnectionRefusedError ? ConnectFailure::Refused
                                           : error == QLocalSocket::ServerNotFoundError    ? ConnectFailure::NotFound
                                                                                           : ConnectFailure::Other;
            return connectError(failure, options.address(), options.connectTimeoutMs, socket->errorString());
        }
        return std::unique_ptr<Transport>(std::make_unique<SocketTransport>(std::move(socket), options.address()));
    }

    // TLS is a QSslSocket that connects as a plain one does, then shakes hands; the same blocking reads and writes
    // above it serve the RESP layer.
    std::unique_ptr<QTcpSocket> socket;
    QSslSocket* tls = nullptr;
    if (options.tls.enabled) {
        auto tlsSocket = std::make_unique<QSslSocket>();
        tls = tlsSocket.get();
        if (Status configured = configureTls(*tls, options); !configured)
            return configured.error();
        socket = std::move(tlsSocket);
    } else {
        socket = std::make_unique<QTcpSocket>();
    }
    // Through a tunnel the socket connects to ssh's local port; TLS still checks the server's own name.
    std::shared_ptr<SshTunnel> tunnel;
    if (options.ssh.enabled()) {
        Result<std::shared_ptr<SshTunnel>> acquired =
            SshTunnel::acquire(options.ssh, options.host, options.port, options.connectTimeoutMs, cancel);
        if (!acquired)
            return acquired.error();
        tunnel = std::move(*acquired);
    }
    // What ssh logged before this connection: a channel that fails for it is logged after (or while we connect).
    const qsizetype tunnelLogMark = tunnel ? tunnel->logSize() : 0;
    QElapsedTimer clock;
    clock.start();
    const QString connectHost = tunnel ? QStringLiteral("127.0.0.1") : options.host;
    const quint16 connectPort = tunnel ? tunnel->localPort() : options.port;
    Result<int> descriptor = connectTcp(connectHost, connectPort, options.connectTimeoutMs, cancel, options.address());
    if (!descriptor)
        return descriptor.error();
    if (!socket->setSocketDescriptor(*descriptor)) {
        ::close(*descriptor);
        return connectError(ConnectFailure::Other, options.address(), options.connectTimeoutMs, socket->errorString());
    }
    if (tls) {
        const int left = std::max(1, options.connectTimeoutMs - int(clock.elapsed()));
        if (Status encrypted = handshakeTls(*tls, options, left, cancel); !encrypted)
            return encrypted.error();
    }
    // We pipeline and flush whole batches ourselves; Nagle would only add latency between them.
    socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    return std::unique_ptr<Transport>(std::make_unique<SocketTransport>(
        std::move(socket), options.address(), !options.tls.certFile.isEmpty(), std::move(tunnel), tunnelLogMark));
}

} // namespace keylens::redis
