#include "models/ConsoleSession.h"

#include "edit/KeyEdit.h"
#include "models/ConnectionLink.h"
#include "redis/ClusterRoutes.h"

#include <QElapsedTimer>

#include <algorithm>

namespace keylens::models {

ReplyNode replyTree(redis::ReplyView reply, int maxDepth)
{
    ReplyNode node;
    if (reply.isNil() || reply.isNull()) {
        node.kind = ReplyNode::Kind::Nil;
    } else if (reply.isInteger()) {
        node.kind = ReplyNode::Kind::Integer;
        node.integer = reply.integer();
    } else if (reply.isError()) {
        node.kind = ReplyNode::Kind::Error;
        node.bytes = reply.bytes().toByteArray();
    } else if (reply.isStatus()) {
        node.kind = ReplyNode::Kind::Status;
        node.bytes = reply.bytes().toByteArray();
    } else if (reply.isArray()) {
        node.kind = ReplyNode::Kind::Array;
        if (maxDepth <= 0) {
            node.children.push_back({ReplyNode::Kind::String, "(nested too deep to show)", 0, {}});
        } else {
            node.children.reserve(reply.size());
            for (std::size_t i = 0; i < reply.size(); ++i)
                node.children.push_back(replyTree(reply.at(i), maxDepth - 1));
        }
    } else {
        node.kind = ReplyNode::Kind::String;
        node.bytes = reply.bytes().toByteArray();
    }
    return node;
}

namespace {

constexpr std::size_t MostKeysFollowed = 1000; // an MSET of more: the tree waits for a rescan

// The keys `command` names, as the server reads its arguments (COMMAND GETKEYS, from its own key specs).
redis::Result<redis::Reply> keysOf(redis::Connection& connection, const std::vector<QByteArray>& command)
{
    std::vector<QByteArray> getKeys{"COMMAND", "GETKEYS"};
    getKeys.insert(getKeys.end(), command.begin(), command.end());
    connection.append(getKeys);
    return connection.read();
}

// After a write: which keys it named and what they are now.
void learnKeysAfter(redis::Connection& connection, const std::vector<QByteArray>& command,
                    ConsoleSession::Result& result)
{
    const redis::Result<redis::Reply> keys = keysOf(connection, command);
    if (!keys || !keys->isArray() || keys->size() == 0) {
        result.wroteWithoutKeys = keys.ok(); // no key arguments (or none the server could name)
        return;
    }
    for (std::size_t i = 0; i < keys->size() && i < MostKeysFollowed; ++i) {
        const QByteArray key = keys->at(i).bytes().toByteArray();
        redis::Result<std::optional<keyspace::KeyInfo>> facts = edit::readKeyFacts(connection, key);
        if (!facts)
            return;
        result.keysAfter.emplace_back(key, *facts);
    }
}

// Sends `command`; on a cluster, where it names a key of another node (MOVED) or of a slot being migrated (ASK), again
// where the reply says, as redis-cli -c does: up to 5 hops, and the console stays on the node it ends on. The key
// to route by is the command's first (keysOf, asked at the first hop only); `redirects` gets one line per hop.
redis::Result<redis::Reply> runFollowingRedirects(redis::Connection& connection, const std::vector<QByteArray>& command,
                                                  QStringList* redirects)
{
    const std::vector<QByteArrayView> views(command.begin(), command.end());
    std::optional<QByteArray> firstKey;
    for (int hop = 0;; ++hop) {
        connection.append(views);
        redis::Result<redis::Reply> reply = connection.read();
        if (!reply || !connection.takeRedirect() || hop == 5)
            return reply;
        const std::optional<redis::Redirect> redirect = redis::parseRedirect(reply->bytes());
        if (!firstKey) {
            const redis::Result<redis::Reply> keys = keysOf(connection, command);
            firstKey = keys && keys->isArray() && keys->size() > 0 ? keys->at(0).bytes().toByteArray() : QByteArray();
        }
        if (!redirect || firstKey->isNull() || !connection.routeTo(*firstKey))
            return reply;
        *redirects << ConsoleSession::tr("%1 to slot %2 on %3:%4")
                          .arg(redirect->ask ? QStringLiteral("asked") : QStringLiteral("moved"))
                          .arg(redirect->slot)
                          .arg(redirect->target.first)
                          .arg(redirect->target.second);
    }
}

} // namespace

ConsoleSession::ConsoleSession(QObject* parent)
    : QObject(parent)
    , m_link(std::make_shared<ConnectionLink>())
    , m_jobs(tr("keylens console"))
{}

ConsoleSession::~ConsoleSession() = default;

void ConsoleSession::setConnection(const redis::ConnectionOptions& server)
{
    redis::ConnectionOptions options = server;
    options.deepReplies = true; // COMMAND DOCS and module replies nest deeper than hiredis 0.14 reads
    m_options = options;
    m_jobs.post([link = m_link, options](const base::JobContext&) {
        link->reset(options);
        return base::JobRunner::Delivery();
    });
}

std::uint64_t ConsoleSession::run(const std::vector<QByteArray>& command)
{
    return m_jobs.post([this, link = m_link, command](const base::JobContext& job) {
        Result result;
        result.request = job.id;
        result.command = command;
        QElapsedTimer timer;
        timer.start();
        if (redis::Connection* connection = link->connect(job, &result.error)) {
            const std::vector<QByteArrayView> views(command.begin(), command.end());
            redis::Result<redis::Reply> reply = runFollowingRedirects(*connection, command, &result.redirects);
            if (reply)
                result.reply = replyTree(*reply);
            else
                result.error = reply.error().message;
            if (reply && !reply->isError() && connection->isWriteCommand(views))
                learnKeysAfter(*connection, command, result);
        }
        result.elapsedUs = timer.nsecsElapsed() / 1000;
        return base::JobRunner::Delivery([this, result] { Q_EMIT replied(result); });
    });
}

void ConsoleSession::requestCommandNames()
{
    m_jobs.post([this, link = m_link](const base::JobContext& job) {
        QString error;
        QStringList names;
        if (redis::Connection* connection = link->connect(job, &error)) {
            // COMMAND DOCS answers name, docs, name, docs… (Redis 7; its replies nest deeper than hiredis 0.14
            // reads, hence the console's own reader). Before Redis 7: COMMAND, one entry per command, its name first.
            redis::Result<redis::Reply> docs = connection->command({"COMMAND", "DOCS"});
            if (docs && docs->isArray() && docs->size() > 0) {
                for (std::size_t i = 0; i + 1 < docs->size(); i += 2)
                    names << QString::fromUtf8(docs->at(i).bytes()).toUpper();
            } else if (redis::Result<redis::Reply> table = connection->command({"COMMAND"});
                       table && table->isArray()) {
                for (std::size_t i = 0; i < table->size(); ++i)
                    names << QString::fromUtf8(table->at(i).at(0).bytes()).toUpper();
            }
        }
        names.sort();
        names.removeDuplicates();
        return base::JobRunner::Delivery([this, names] { Q_EMIT commandNamesReady(names); });
    });
}

} // namespace keylens::models
