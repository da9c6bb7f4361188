#pragma once

#include <QByteArrayView>
#include <QString>

#include <optional>
#include <utility>
#include <variant>

namespace keylens::redis {

enum class ErrorKind {
    Usage,       // a URI or flag that does not parse
    Unsupported, // something we do not do (TLS over a Unix socket, a Qt without a TLS backend)
    Tls,         // the TLS handshake failed or the server's certificate was refused
    Tunnel,      // the SSH tunnel could not be opened (host key, login, the SSH server unreachable)
    HostNotFound,
    Refused,        // nothing listens there
    Timeout,        // connect or command took longer than allowed
    ConnectionLost, // the socket failed or closed while we used it
    AuthFailed,     // WRONGPASS, invalid password
    AuthRequired,   // NOAUTH: the server wants a password we did not give
    NoPermission,   // NOPERM: an ACL denies the command or the key
    UnknownCommand, // renamed, disabled, or too new for this server
    Loading,        // the server is still loading its dataset
    Busy,           // for now: a script runs too long (BUSY), a replica lost its master (MASTERDOWN), TRYAGAIN,
                    // a cluster that lost a shard (CLUSTERDOWN)
    Protocol,       // bytes that are not RESP
    Server,         // any other error reply
    Cancelled,      // the user stopped it
    ReadOnly,       // a write refused before it was sent, on a connection marked read-only
    Damaged,        // a file whose bytes break its own format (a backup with a bad length or a compression error)
};

// Errors are values: every failure carries its kind and a sentence a user can act on.
struct Error
{
    ErrorKind kind = ErrorKind::Server;
    QString message;

    // Failures of reaching or logging in to the server (keylens-cli exits 3 on these).
    bool isConnectionError() const;
    // Failures that may pass if asked again later, on a new connection: a lost connection, a timeout, a server that
    // is loading, busy or cut off from its master.
    bool isTransient() const;
    // A command this user may not run here: denied by an ACL, or renamed or disabled on the server.
    bool isDenied() const { return kind == ErrorKind::NoPermission || kind == ErrorKind::UnknownCommand; }
};

// Sorts an error reply ("NOPERM ...", "ERR unknown command ...") into a kind.
ErrorKind classifyErrorReply(QByteArrayView reply);

// What an error reply to a command about one key denies. Told apart by the error code and the message's
// shape, not its English: a command denial (ACL command rules) names the command in quotes, as every
// Redis since 6.0 does ('pttl', 'memory|usage'); a key denial (ACL key patterns) names none, whatever its
// wording ("...access one of the keys used as arguments" in 7.0, "No permissions to access a key" later).
// A renamed or disabled command is denied for the whole connection too.
enum class Denial { None, Key, Command };
Denial denialOf(QByteArrayView reply, QByteArrayView command);

// An Error for an error reply to `command`, with a message that names the command.
Error errorFromReply(QByteArrayView reply, QByteArrayView command);

// A value or an Error.
template<typename T> class Result
{
public:
    Result(T value)
        : m_value(std::move(value))
    {}
    Result(Error error)
        : m_value(std::move(error))
    {}

    bool ok() const { return m_value.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<0>(m_value); }
    const T& value() const { return std::get<0>(m_value); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    const Error& error() const { return std::get<1>(m_value); }

private:
    std::variant<T, Error> m_value;
};

// Success or an Error, for operations with no value.
class Status
{
public:
    Status() = default;
    Status(Error error)
        : m_error(std::move(error))
    {}
    bool ok() const { return !m_error; }
    explicit operator bool() const { return ok(); }
    const Error& error() const { return *m_error; }

private:
    std::optional<Error> m_error;
};

} // namespace keylens::redis
