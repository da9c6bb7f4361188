#pragma once

#include "redis/ConnectionOptions.h"
#include "redis/Reply.h"

#include <QByteArray>
#include <QByteArrayView>

#include <initializer_list>
#include <memory>
#include <span>
#include <vector>

struct redisReader;

namespace keylens::redis {

class Transport;

// One logged-in connection to a server, used by one thread at a time.
//
// Pipelining is the normal way to talk: append() any number of commands (they are encoded with
// hiredis into one output buffer), then read() their replies in order; read() sends what is buffered
// first. Error replies to a command are ordinary replies (check isError()); only failures of the
// connection itself come back as Error.
class Connection
{
public:
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    // Connects, authenticates (AUTH [user] password), names the client, selects the database and
    // checks the server answers (a NOAUTH or LOADING server fails here, with a clear message).
    static Result<std::unique_ptr<Connection>> open(const ConnectionOptions& options);

    void append(std::initializer_list<QByteArrayView> arguments);
    void append(std::span<const QByteArrayView> arguments);

    // Sends everything appended so far.
    Status flush();
    // Reads the next reply, sending what is buffered first.
    Result<Reply> read();
    // append() + read(), for single commands.
    Result<Reply> command(std::initializer_list<QByteArrayView> arguments);
    // Sends all commands in one write and returns their replies in order.
    Result<std::vector<Reply>> pipeline(const std::vector<std::vector<QByteArray>>& commands);

    // Commands appended whose replies have not been read yet.
    std::size_t pendingReplies() const { return m_pending; }
    const ConnectionOptions& options() const { return m_options; }

private:
    Connection(ConnectionOptions options, std::unique_ptr<Transport> transport);
    Status handshake();

    ConnectionOptions m_options;
    std::unique_ptr<Transport> m_transport;
    redisReader* m_reader = nullptr;
    QByteArray m_output;
    std::vector<char> m_input;
    std::size_t m_pending = 0;
    int m_firstByte = -1; // of the server's first reply: tells a TLS port from a Redis one
};

} // namespace keylens::redis
