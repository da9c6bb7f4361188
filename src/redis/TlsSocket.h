#pragma once

#include "redis/ConnectionOptions.h"

#include <QSslSocket>

#include <atomic>
#include <optional>

namespace keylens::redis {

// Readies a socket for TLS before it connects, from TlsOptions: the CAs to trust (the system's unless
// --cacert/--cacertdir), a client certificate, the name to send (SNI) and check, or no check at all (--insecure).
Status configureTls(QSslSocket& socket, const ConnectionOptions& options);

// The handshake on the connected socket, within timeoutMs; a set `cancel` flag ends it within
// Transport::CancelSliceMs. A failure says why in a user's words: an unknown CA, a name mismatch, an expired
// certificate, a client certificate the server wants.
Status handshakeTls(QSslSocket& socket, const ConnectionOptions& options, int timeoutMs,
                    const std::atomic<bool>* cancel = nullptr);

// The server's refusal of our client certificate, or of its absence, from the TLS alert it sent (kept on the socket
// by configureTls). With TLS 1.3 it comes after the handshake, at the first read, so the transport asks too.
std::optional<Error> clientCertificateRefusal(const QSslSocket& socket, const QString& address, bool certificateGiven);

} // namespace keylens::redis
