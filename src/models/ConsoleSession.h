#pragma once

#include "base/JobRunner.h"
#include "keyspace/NamespaceStats.h"
#include "redis/ConnectionOptions.h"
#include "redis/Reply.h"

#include <QByteArray>
#include <QObject>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace keylens::models {

class ConnectionLink;

// A reply as a tree of values, copied out of hiredis's reply so it can cross threads: what the console shows.
struct ReplyNode
{
    enum class Kind { String, Status, Error, Integer, Nil, Array };
    Kind kind = Kind::Nil;
    QByteArray bytes; // String, Status, Error
    long long integer = 0;
    std::vector<ReplyNode> children; // Array
};
// Nesting beyond `maxDepth` is cut (a String saying so): a reply is data from the server.
ReplyNode replyTree(redis::ReplyView reply, int maxDepth = 64);

// The console's own connection to the current server and database (a SELECT typed there moves only the console), read
// with redis::DeepReplyReader so that any reply shows, however deeply it nests;
// behind the write gate like every connection: a read-only one refuses writes before they are sent. Commands run in
// order on a thread of their own.
class ConsoleSession : public QObject
{
    Q_OBJECT
public:
    explicit ConsoleSession(QObject* parent = nullptr);
    ~ConsoleSession() override;

    void setConnection(const redis::ConnectionOptions& options);
    const redis::ConnectionOptions& connection() const { return m_options; }

    struct Result
    {
        std::uint64_t request = 0;
        std::vector<QByteArray> command;
        ReplyNode reply;
        QString error; // the connection failed, or the write gate refused the command
        qint64 elapsedUs = 0;
        QStringList redirects; // on a cluster, the MOVED and ASK replies followed ("moved to slot 3999 on host:port")
        // A write's keys (COMMAND GETKEYS) as they are after it (nothing: gone), so the tree can follow; empty for a
        // read, a failed write, or a command without key arguments.
        std::vector<std::pair<QByteArray, std::optional<keyspace::KeyInfo>>> keysAfter;
        bool wroteWithoutKeys = false; // a write with no key arguments (FLUSHDB, SWAPDB…): only a rescan can tell
    };
    std::uint64_t run(const std::vector<QByteArray>& command);
    // The server's command names (COMMAND DOCS, or COMMAND on servers before 7), for completion.
    void requestCommandNames();

Q_SIGNALS:
    void replied(const keylens::models::ConsoleSession::Result& result);
    void commandNamesReady(const QStringList& names);

private:
    redis::ConnectionOptions m_options;
    std::shared_ptr<ConnectionLink> m_link;
    base::JobRunner m_jobs;
};

} // namespace keylens::models
