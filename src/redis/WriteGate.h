#pragma once

#include "redis/Reply.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>

#include <span>

namespace keylens::redis {

// Tells a command that only reads from one that changes the data or the server, for the one gate every
// command of a read-only connection passes (Connection::append). The server's own COMMAND table decides
// where it can be read (the flags write, may_replicate and admin, per subcommand on Redis 7); a fixed list
// of read commands decides where COMMAND is renamed or denied. A command it does not know is a write:
// refusing a harmless command costs a message, sending a harmful one cannot be undone.
class WriteGate
{
public:
    // Learns the server's commands from a reply to COMMAND. Without this, only the fixed list is known.
    void learn(ReplyView commandTable);
    bool learned() const { return !m_writes.isEmpty(); }

    bool isWrite(std::span<const QByteArrayView> command) const;
    // "SET", or "CONFIG SET" for a subcommand: what a refusal names.
    QByteArray commandName(std::span<const QByteArrayView> command) const;

private:
    // Lower-case "name" or "name|subcommand" → whether it writes.
    QHash<QByteArray, bool> m_writes;
};

// Commands that wipe data, stop the server, block it on a big keyspace or change its configuration: FLUSHALL,
// FLUSHDB, KEYS, DEBUG, SHUTDOWN and CONFIG SET. The console asks before it sends one to a production-tagged server.
bool isDangerousCommand(std::span<const QByteArrayView> command);

} // namespace keylens::redis
