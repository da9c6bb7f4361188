#pragma once

#include "redis/ConnectionOptions.h"

#include <QByteArrayView>

#include <memory>

namespace keylens::redis {

// Moves bytes to and from a server, blocking with timeouts. Owned by the thread that created it.
// One interface for TCP and Unix sockets and Qt's SSL socket (TLS), so the RESP layer above is written once.
class Transport
{
public:
    virtual ~Transport() = default;

    // Connects to options.host:port or options.socketPath within options.connectTimeoutMs.
    static Result<std::unique_ptr<Transport>> connect(const ConnectionOptions& options);

    virtual Status writeAll(QByteArrayView bytes, int timeoutMs) = 0;
    // Reads what is available, waiting up to timeoutMs for at least one byte.
    virtual Result<qsizetype> readSome(char* buffer, qsizetype capacity, int timeoutMs) = 0;
};

} // namespace keylens::redis
