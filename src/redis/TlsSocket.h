#pragma once

#include "redis/ConnectionOptions.h"

#include <QSslSocket>

#include <memory>
#include <optional>

namespace keylens::redis {

// A QSslSocket connected and through its handshake, configured from TlsOptions: the CAs to trust (the system's
// unless --cacert/--cacertdir), a client certificate, the name to send and check, or no check at all (--insecure).
// A failure says why in a user's words: an unknown CA, a name mismatch, an expired certificate, a client
// certificate the server wants.
Result<std::unique_ptr<QSslSocket>> connectTls(const ConnectionOptions& options);

// The server's refusal of our client certificate, or of its absence, from the TLS alert it sent (kept on the socket
// by connectTls). With TLS 1.3 it comes after the handshake, at the first read, so the transport asks too.
std::optional<Error> clientCertificateRefusal(const QSslSocket& socket, const QString& address, bool certificateGiven);

} // namespace keylens::redis
