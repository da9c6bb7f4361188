#pragma once

#include "redis/ConnectionOptions.h"
#include "redis/Reply.h"
#include "redis/WriteGate.h"

#include <QByteArray>
#include <QByteArrayView>

#include <atomic>
#include <deque>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <vector>

struct redisReader;

namespace keylens::redis {

class DeepReplyReader;
class Transport;

// Where a connection's warnings go: what is worth telling the user but no reason to fail (a password given to a server
// that has none set, which redis-cli warns of and carries on). Set once, before connections are opened; it may be
// called from any thread, once per connection. Unset, warnings are dropped.
void setConnectionWarningHandler(std::function<void(const QString&)> handler);

// One logged-in connection to a server, used by one thread at a time.
//
// Pipelining is the normal way to talk: append() any number of commands (they are encoded with
// hiredis into one output buffer), then read() their replies in order; read() sends what is buffered
// first. Error replies to a command are ordinary replies (check isError()); only failures of the
// connection itself come back as Error, and commands refused by the write gate (ErrorKind::ReadOnly).
//
// On a read-only connection every command passes the write gate as it is appended: a write is never
// encoded, and read() hands back its refusal in its place in the order.
//
// A connection that timed out, lost its socket or read bytes that are not RESP is broken, and says so to
// every later call instead of being reused: a late reply to the command that timed out would otherwise be
// read as the answer to the next one.
class Connection
{
public:
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    // Connects, authenticates (AUTH [user] password), names the client, selects the database and
    // checks the server answers (a NOAUTH or LOADING server fails here, with a clear message).
    // `cancel`, when given, stops a blocked read or write within Transport::CancelSliceMs once another thread sets
    // it (ErrorKind::Cancelled; the connection is broken then). It must outlive the connection.
    static Result<std::unique_ptr<Connection>> open(const ConnectionOptions& options,
                                                    const std::atomic<bool>* cancel = nullptr);

    void append(std::initializer_list<QByteArrayView> arguments);
    void append(std::span<const QByteArrayView> arguments);
    void append(const std::vector<QByteArray>& arguments);

    // Sends everything appended so far.
    Status flush();
    // Reads the next reply, sending what is buffered first.
    Result<Reply> read();
    // append() + read(), for single commands.
    Result<Reply> command(std::initializer_list<QByteArrayView> arguments);
    // Sends all commands in one write and returns their replies in order.
    Result<std::vector<Reply>> pipeline(const std::vector<std::vector<QByteArray>>& commands);

    // Whether the command may change data or the server, as the write gate judges it (whatever the read-only flag).
    bool isWriteCommand(std::span<const QByteArrayView> command) const { return m_gate.isWrite(command); }
    // Commands appended whose replies have not been read yet.
    std::size_t pendingReplies() const { return m_appended - m_delivered; }
    const ConnectionOptions& options() const { return m_options; }
    bool isBroken() const { return m_broken.has_value(); }
    // Another flag for the reads and writes from now on (see open()); nullptr for none.
    void setCancelFlag(const std::atomic<bool>* cancel);

    // Redis Cluster (options().cluster set; otherwise these do nothing). Before the commands about a key: moves this
    // connection to the node that serves the key's slot (the routes learn the slots on first use), or after an ASK
    // to the node the slot is migrating to, sending ASKING before each command. Call with no replies pending.
    Status routeTo(QByteArrayView key);
    // Learns the routes (one CLUSTER SHARDS, through this connection) unless they are learned already; moves nothing.
    // A server that is no cluster, or a user denied CLUSTER, is learned as standalone.
    Status learnRoutes();
    // After the commands about a key: whether a reply was a redirect (MOVED, ASK), which the routes then learned; the
    // caller asks again after routeTo. See forKey in ClusterRoutes.h, which does both.
    bool takeRedirect();

private:
    Connection(ConnectionOptions options, std::unique_ptr<Transport> transport);
    Status handshake();
    void encode(std::span<const QByteArrayView> arguments);
    Result<Reply> readReply();
    // Moves this object onto another node's connection (cluster routing): every member changes hands.
    Status moveTo(const QString& host, quint16 port);
    Status learnCommands();
    // Remembers the first failure of the connection itself; every later call returns it.
    Error breaks(Error error);

    ConnectionOptions m_options;
    std::unique_ptr<Transport> m_transport;
    redisReader* m_reader = nullptr;
    std::unique_ptr<DeepReplyReader> m_deepReader; // instead of m_reader, with ConnectionOptions::deepReplies
    QByteArray m_output;
    std::vector<char> m_input;
    WriteGate m_gate;
    struct Refusal
    {
        std::size_t position; // among the replies still to read, counted from the first ever appended
        QByteArray command;
    };
    std::deque<Refusal> m_refusals;
    std::size_t m_appended = 0;  // commands appended, refused ones included
    std::size_t m_delivered = 0; // replies and refusals handed out by read()
    std::optional<Error> m_broken;
    int m_firstByte = -1; // of the server's first reply: tells a TLS port from a Redis one
    const std::atomic<bool>* m_cancel = nullptr;
    // Cluster routing.
    QByteArray m_lastRedirect;                              // the last MOVED/ASK reply read, until takeRedirect()
    std::optional<std::pair<QString, quint16>> m_askTarget; // the next routeTo goes there, with ASKING
    bool m_asking = false;                                  // every command goes out behind an ASKING
    std::size_t m_askingUnread = 0;                         // their replies, to skip
};

} // namespace keylens::redis
