#include "redis/Connection.h"

#include "redis/DeepReplyReader.h"
#include "redis/ProcessArguments.h"
#include "redis/Sentinel.h"
#include "redis/Transport.h"

#include <hiredis/hiredis.h>

#include <array>

namespace keylens::redis {

namespace {
constexpr qsizetype ReadChunk = 256 * 1024;

std::function<void(const QString&)>& warningHandler()
{
    static std::function<void(const QString&)> handler;
    return handler;
}

// AUTH to a server that has no password set (Redis 6+ and older words): no login failed, the password was not needed.
bool noPasswordIsSet(QByteArrayView reply)
{
    return (reply.startsWith("ERR AUTH") && reply.contains("without any password configured")) ||
           reply.startsWith("ERR Client sent AUTH, but no password is set");
}
} // namespace

void setConnectionWarningHandler(std::function<void(const QString&)> handler)
{
    warningHandler() = std::move(handler);
}

Connection::Connection(ConnectionOptions options, std::unique_ptr<Transport> transport)
    : m_options(std::move(options))
    , m_transport(std::move(transport))
    , m_reader(redisReaderCreate())
    , m_input(ReadChunk)
{
    // Keep the reader's buffer between replies instead of freeing it after every batch.
    m_reader->maxbuf = 0;
    if (m_options.deepReplies)
        m_deepReader = std::make_unique<DeepReplyReader>();
}

Connection::~Connection()
{
    redisReaderFree(m_reader);
}

Result<std::unique_ptr<Connection>> Connection::open(const ConnectionOptions& requested,
                                                     const std::atomic<bool>* cancel)
{
    ConnectionOptions options = requested;
    if (!requested.sentinel.masterName.isEmpty()) {
        Result<ConnectionOptions> resolved = resolveThroughSentinel(requested, cancel);
        if (!resolved)
            return resolved.error();
        options = *resolved;
    }
    Result<std::unique_ptr<Transport>> transport = Transport::connect(options, cancel);
    if (!transport)
        return transport.error();
    (*transport)->setCancelFlag(cancel);
    std::unique_ptr<Connection> connection(new Connection(options, std::move(*transport)));
    connection->m_cancel = cancel;
    if (Status status = connection->handshake(); !status)
        return status.error();
    if (!options.sentinel.masterName.isEmpty()) {
        // Mid-failover a sentinel may still name the old master, which is a replica by now: not what was asked for,
        // and a transient state, so a scan connects again a moment later.
        Result<Reply> role = connection->command({"ROLE"});
        if (role && role->isArray() && role->size() > 0 && role->at(0).bytes() != "master")
            return Error{ErrorKind::Busy, QStringLiteral("the sentinels name %1 as master '%2', but it is a %3 (a "
                                                         "failover in progress?)")
                                              .arg(options.address(), QString::fromUtf8(options.sentinel.masterName),
                                                   QString::fromUtf8(role->at(0).bytes()))};
    }
    if (options.readOnly) {
        if (Status status = connection->learnCommands(); !status)
            return status.error();
    }
    return connection;
}

Status Connection::learnCommands()
{
    // One COMMAND (about 100 KB on Redis 7) per read-only connection. A server that renamed or denies it leaves
    // the gate with its fixed list of reads.
    Result<Reply> table = command({"COMMAND"});
    if (!table)
        return table.error();
    if (table->isArray())
        m_gate.learn(*table);
    return {};
}

void Connection::setCancelFlag(const std::atomic<bool>* cancel)
{
    m_cancel = cancel;
    m_transport->setCancelFlag(cancel);
}

Error Connection::breaks(Error error)
{
    if (!m_broken && error.kind != ErrorKind::ReadOnly)
        m_broken = error;
    return error;
}

Status Connection::handshake()
{
    // An empty password for the default user is no password: AUTH "" would only earn an error.
    const bool authenticate = m_options.hasPassword && !(m_options.password.isEmpty() && m_options.user.isEmpty());
    if (authenticate) {
        keepSecretsOutOfCoreDumps(); // this process holds a password from now on, however it came
        if (m_options.user.isEmpty())
            append({"AUTH", m_options.password});
        else
            append({"AUTH", m_options.user, m_options.password});
    }
    // Past the write gate: naming itself in CLIENT LIST is Keylens's own doing, and a read-only connection may; the
    // gate refuses CLIENT SETNAME from the user.
    ++m_appended;
    encode(std::array<QByteArrayView, 3>{"CLIENT", "SETNAME", "keylens"});
    const QByteArray db = QByteArray::number(m_options.db);
    if (m_options.db != 0)
        append({"SELECT", db});
    append({"PING"});

    // Read every reply even after a failure, so the first failure is the one reported.
    std::optional<Error> failure;
    const auto note = [&](Error error) {
        if (!failure)
            failure = std::move(error);
    };
    // A server that refuses a client answers with its reason and hangs up (protected mode, maxclients,
    // an over-long argument): the reason is the news, not the closed socket after it.
    QByteArray firstErrorReply;
    const auto refused = [&](ErrorKind kind) {
        return Error{kind, QStringLiteral("%1 refused the connection: %2")
                               .arg(m_options.address(), QString::fromUtf8(firstErrorReply.left(300)))};
    };
    const auto readHandshakeReply = [&]() -> Result<Reply> {
        Result<Reply> reply = read();
        if (!reply) {
            if (!firstErrorReply.isEmpty() && reply.error().kind == ErrorKind::ConnectionLost)
                return refused(ErrorKind::ConnectionLost);
            return reply;
        }
        if (reply->isError() && firstErrorReply.isEmpty())
            firstErrorReply = reply->bytes().toByteArray();
        return reply;
    };
    if (authenticate) {
        Result<Reply> reply = readHandshakeReply();
        if (!reply)
            return reply.error();
        if (reply->isError() && noPasswordIsSet(reply->bytes())) {
            // As redis-cli: a warning, and on without it (the commands after AUTH were sent all the same).
            if (const auto& warn = warningHandler())
                warn(QStringLiteral("%1 has no password set: the password given was not needed, and is not used")
                         .arg(m_options.address()));
        } else if (reply->isError()) {
            note(errorFromReply(reply->bytes(), "AUTH"));
        }
    }
    // CLIENT SETNAME only helps people reading CLIENT LIST; a denial is no reason to fail.
    if (Result<Reply> reply = readHandshakeReply(); !reply)
        return reply.error();
    if (m_options.db != 0) {
        Result<Reply> reply = readHandshakeReply();
        if (!reply)
            return reply.error();
        if (reply->isError()) {
            Error error = errorFromReply(reply->bytes(), "SELECT");
            if (error.kind == ErrorKind::Server)
                error.message = QStringLiteral("cannot use database %1: %2")
                                    .arg(m_options.db)
                                    .arg(QString::fromUtf8(reply->bytes()));
            note(std::move(error));
        }
    }
    Result<Reply> ping = readHandshakeReply();
    if (!ping)
        return ping.error();
    if (ping->isError()) {
        const ErrorKind kind = classifyErrorReply(ping->bytes());
        if (kind == ErrorKind::AuthRequired || kind == ErrorKind::Loading)
            note(errorFromReply(ping->bytes(), "PING"));
        else if (firstErrorReply.startsWith("DENIED") || firstErrorReply.startsWith("ERR max number of clients"))
            note(refused(ErrorKind::Refused));
    }
    if (failure)
        return *failure;
    if (m_options.readFromReplica) {
        Result<Reply> reply = command({"READONLY"});
        if (!reply)
            return reply.error();
        if (reply->isError())
            return errorFromReply(reply->bytes(), "READONLY");
    }
    return {};
}

void Connection::append(std::initializer_list<QByteArrayView> arguments)
{
    append(std::span<const QByteArrayView>(arguments.begin(), arguments.size()));
}

void Connection::append(const std::vector<QByteArray>& arguments)
{
    const std::vector<QByteArrayView> views(arguments.begin(), arguments.end());
    append(std::span<const QByteArrayView>(views));
}

void Connection::append(std::span<const QByteArrayView> arguments)
{
    ++m_appended;
    if (m_options.readOnly && m_gate.isWrite(arguments)) {
        m_refusals.push_back({m_appended - 1, m_gate.commandName(arguments)});
        return;
    }
    if (m_asking) {
        encode(std::array<QByteArrayView, 1>{"ASKING"});
        ++m_askingUnread;
    }
    encode(arguments);
}

void Connection::encode(std::span<const QByteArrayView> arguments)
{
    constexpr std::size_t Inline = 8;
    const char* pointers[Inline];
    std::size_t lengths[Inline];
    std::vector<const char*> morePointers;
    std::vector<std::size_t> moreLengths;
    const char** argv = pointers;
    std::size_t* argvlen = lengths;
    if (arguments.size() > Inline) {
        morePointers.resize(arguments.size());
        moreLengths.resize(arguments.size());
        argv = morePointers.data();
        argvlen = moreLengths.data();
    }
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        // hiredis reads argvlen bytes; an empty view may have a null pointer, which it must not see.
        argv[i] = arguments[i].data() ? arguments[i].data() : "";
        argvlen[i] = static_cast<std::size_t>(arguments[i].size());
    }
    char* encoded = nullptr;
    const int length = redisFormatCommandArgv(&encoded, static_cast<int>(arguments.size()), argv, argvlen);
    if (length > 0)
        m_output.append(encoded, length);
    redisFreeCommand(encoded);
}

Status Connection::flush()
{
    if (m_broken)
        return *m_broken;
    if (m_output.isEmpty())
        return {};
    Status status = m_transport->writeAll(m_output, m_options.commandTimeoutMs);
    m_output.clear();
    if (!status)
        return breaks(status.error());
    return status;
}

Result<Reply> Connection::read()
{
    if (!m_refusals.empty() && m_refusals.front().position == m_delivered) {
        const QByteArray command = std::move(m_refusals.front().command);
        m_refusals.pop_front();
        ++m_delivered;
        return Error{ErrorKind::ReadOnly,
                     QStringLiteral("%1 is read-only: %2 was not sent, because it could change the data or the server")
                         .arg(m_options.address(), QString::fromUtf8(command))};
    }
    if (Status status = flush(); !status)
        return status.error();
    // After an ASK, every command went out behind an ASKING, whose +OK is not the caller's.
    if (m_askingUnread > 0) {
        Result<Reply> asking = readReply();
        if (!asking)
            return asking;
        --m_askingUnread;
    }
    Result<Reply> reply = readReply();
    if (reply) {
        ++m_delivered;
        if (m_options.cluster && reply->isError() &&
            (reply->bytes().startsWith("MOVED ") || reply->bytes().startsWith("ASK ")))
            m_lastRedirect = reply->bytes().toByteArray();
    }
    return reply;
}

Result<Reply> Connection::readReply()
{
    for (;;) {
        void* reply = nullptr;
        if (m_deepReader) {
            Result<redisReply*> next = m_deepReader->next();
            if (!next)
                return breaks(Error{ErrorKind::Protocol,
                                    QStringLiteral("%1 from %2").arg(next.error().message, m_options.address())});
            reply = *next;
        } else if (redisReaderGetReply(m_reader, &reply) != REDIS_OK) {
            // 0x15 and 0x16 open a TLS alert or handshake record: a TLS port answering plain text.
            if (m_firstByte == 0x15 || m_firstByte == 0x16)
                return breaks(Error{ErrorKind::Protocol,
                                    QStringLiteral("%1 answered with TLS: it looks like a TLS port (use rediss:// or "
                                                   "--tls, or the server's plain port)")
                                        .arg(m_options.address())});
            return breaks(
                Error{ErrorKind::Protocol, QStringLiteral("protocol error from %1: %2")
                                               .arg(m_options.address(), QString::fromUtf8(m_reader->errstr))});
        }
        if (reply)
            return Reply(static_cast<redisReply*>(reply));
        Result<qsizetype> received = m_transport->readSome(m_input.data(), ReadChunk, m_options.commandTimeoutMs);
        if (!received) {
            // Through an SSH tunnel, ssh closes the socket when its side failed, and the transport says why.
            if (m_firstByte < 0 && received.error().kind == ErrorKind::ConnectionLost && !m_options.ssh.enabled())
                return breaks(Error{ErrorKind::ConnectionLost,
                                    QStringLiteral("%1 closed the connection without answering (is it a TLS port, "
                                                   "which needs rediss:// or --tls, or a proxy that refused us?)")
                                        .arg(m_options.address())});
            return breaks(received.error());
        }
        if (m_firstByte < 0 && *received > 0)
            m_firstByte = static_cast<unsigned char>(m_input[0]);
        if (m_deepReader)
            m_deepReader->feed(m_input.data(), *received);
        else
            redisReaderFeed(m_reader, m_input.data(), static_cast<std::size_t>(*received));
    }
}

Result<Reply> Connection::command(std::initializer_list<QByteArrayView> arguments)
{
    append(arguments);
    return read();
}

Result<std::vector<Reply>> Connection::pipeline(const std::vector<std::vector<QByteArray>>& commands)
{
    std::vector<QByteArrayView> views;
    for (const auto& command : commands) {
        views.assign(command.begin(), command.end());
        append(views);
    }
    std::vector<Reply> replies;
    replies.reserve(commands.size());
    // A refused write does not end the pipeline early: the replies after it are read, so that none is left for
    // the next caller.
    std::optional<Error> refused;
    for (std::size_t i = 0; i < commands.size(); ++i) {
        Result<Reply> reply = read();
        if (!reply && reply.error().kind != ErrorKind::ReadOnly)
            return reply.error();
        if (!reply) {
            if (!refused)
                refused = reply.error();
            continue;
        }
        replies.push_back(std::move(*reply));
    }
    if (refused)
        return *refused;
    return replies;
}

} // namespace keylens::redis
