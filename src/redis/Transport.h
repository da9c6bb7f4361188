#pragma once

#include "redis/ConnectionOptions.h"

#include <QByteArrayView>

#include <atomic>
#include <memory>

namespace keylens::redis {

// Moves bytes to and from a server, blocking with timeouts. Owned by the thread that created it.
// One interface for TCP and Unix sockets and Qt's SSL socket (TLS), so the RESP layer above is written once.
class Transport
{
public:
    virtual ~Transport() = default;

    // Connects to options.host:port or options.socketPath within options.connectTimeoutMs; through an SSH tunnel
    // when options.ssh asks for one (the tunnel stays up while the transport lives). `cancel` stops the wait for the
    // tunnel.
    static Result<std::unique_ptr<Transport>> connect(const ConnectionOptions& options,
                                                      const std::atomic<bool>* cancel = nullptr);

    virtual Status writeAll(QByteArrayView bytes, int timeoutMs) = 0;
    // Reads what is available, waiting up to timeoutMs for at least one byte.
    virtual Result<qsizetype> readSome(char* buffer, qsizetype capacity, int timeoutMs) = 0;

    // A flag another thread may set to stop a blocked read or write: both wait in slices of CancelSliceMs
    // and give up with ErrorKind::Cancelled once it is set, however long the timeout.
    void setCancelFlag(const std::atomic<bool>* cancel) { m_cancel = cancel; }
    static constexpr int CancelSliceMs = 50;

protected:
    bool cancelled() const { return m_cancel && m_cancel->load(std::memory_order_relaxed); }

private:
    const std::atomic<bool>* m_cancel = nullptr;
};

} // namespace keylens::redis
