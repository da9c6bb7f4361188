#pragma once

#include "redis/Error.h"

#include <QString>

#include <atomic>

namespace keylens::redis {

// Why a connect failed, in the one wording TCP and Unix sockets share.
enum class ConnectFailure { TimedOut, Refused, NotFound, Other };
Error connectError(ConnectFailure failure, const QString& address, int timeoutMs, const QString& detail = {});

// Connects a TCP socket to host:port (each address the name resolves to, in turn) within timeoutMs, waiting in
// slices of Transport::CancelSliceMs so that a set `cancel` flag ends the wait at once (ErrorKind::Cancelled): a host
// that drops our packets would otherwise hold Cancel, or a closing window, for the whole connect timeout. Returns the
// connected socket's descriptor, which the caller owns. `address` names the server in messages. The name lookup
// itself (DNS) is not cancellable.
Result<int> connectTcp(const QString& host, quint16 port, int timeoutMs, const std::atomic<bool>* cancel,
                       const QString& address);

} // namespace keylens::redis
