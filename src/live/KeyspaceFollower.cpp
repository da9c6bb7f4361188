#include "live/KeyspaceFollower.h"

#include "redis/Connection.h"
#include "scan/KeyAnswers.h"

#include <QDateTime>
#include <QElapsedTimer>

namespace keylens::live {

KeyspaceFollower::KeyspaceFollower(Options options)
    : m_options(std::move(options))
    , m_subscriber(m_options.connection, m_options.maxKeys)
{}

KeyspaceFollower::~KeyspaceFollower()
{
    stop();
}

redis::Status KeyspaceFollower::start()
{
    // The subscription first: a key written while the measuring connection opens is not missed.
    if (redis::Status subscribed = m_subscriber.start(); !subscribed)
        return subscribed;
    redis::Result<std::unique_ptr<redis::Connection>> opened =
        redis::Connection::open(m_options.connection, m_looks.stopFlag());
    if (!opened) {
        m_subscriber.stop();
        return opened.error();
    }
    m_connection = std::move(*opened);
    m_looks.start([this] { follow(); });
    return {};
}

void KeyspaceFollower::follow()
{
    int quietLooks = 0;
    QElapsedTimer sinceDbSize;
    sinceDbSize.start();
    while (m_looks.waitFor(m_options.lookIntervalMs)) { // false at once on stop()
        if (const std::optional<redis::Error> failure = m_subscriber.failure()) {
            fallBehind(QStringLiteral("the server ended the subscription to key events (%1): events were lost. A "
                                      "subscriber that reads slower than the server writes is disconnected "
                                      "(client-output-buffer-limit pubsub)")
                           .arg(failure->message));
            return;
        }
        if (m_held.load())
            continue;
        bool overflowed = false;
        const std::uint64_t eventsBefore = m_subscriber.eventsRead();
        const std::vector<KeyChange> changes = m_subscriber.takeChangedKeys(&overflowed);
        if (overflowed) {
            fallBehind(QStringLiteral("more than %L1 keys changed between two looks").arg(m_options.maxKeys));
            return;
        }
        quietLooks = changes.empty() ? quietLooks + 1 : 0;
        std::optional<std::uint64_t> dbSize;
        if (quietLooks >= 2 && sinceDbSize.elapsed() >= 1000) {
            sinceDbSize.restart();
            if (redis::Result<redis::Reply> size = m_connection->command({"DBSIZE"}); size && size->isInteger())
                dbSize = std::uint64_t(size->integer());
            // An event published before the DBSIZE ran may still be on its way to the subscriber: it would count a key
            // the store does not have yet. Loopback or not, it arrives within moments; if any did, this was no quiet
            // moment after all.
            if (!m_looks.waitFor(QuietCheckMs))
                return;
            if (m_subscriber.eventsRead() != eventsBefore)
                dbSize.reset();
        }
        if (changes.empty() && !dbSize)
            continue;
        std::vector<LiveKey> measured;
        if (!measure(changes, &measured))
            return;
        const std::lock_guard lock(m_mutex);
        if (m_waiting.behind)
            return;
        if (m_waiting.keys.size() + measured.size() > m_options.maxWaiting) {
            m_waiting.behind = QStringLiteral("the window did not take the changes as fast as they came");
            return;
        }
        m_waiting.keys.insert(m_waiting.keys.end(), std::make_move_iterator(measured.begin()),
                              std::make_move_iterator(measured.end()));
        if (dbSize) {
            m_waiting.dbSize = dbSize;
            m_waiting.keysBeforeDbSize = m_waiting.keys.size() - measured.size();
        }
    }
}

bool KeyspaceFollower::measure(const std::vector<KeyChange>& changes, std::vector<LiveKey>* out)
{
    const scan::AccessQuestion access = m_options.access;
    const bool asksAccess = access != scan::AccessQuestion::None;
    const int questions = asksAccess ? 4 : 3;
    std::vector<const KeyChange*> asked; // the keys written last: those deleted last are gone without asking
    out->reserve(changes.size());
    for (const KeyChange& change : changes) {
        if (!m_options.match.isEmpty() && !m_options.match.matches(change.key))
            continue;
        if (change.last == KeyEvent::Write)
            asked.push_back(&change);
        else
            out->push_back({change.key, std::nullopt, change.writes});
    }
    for (std::size_t from = 0; from < asked.size(); from += KeysPerPipeline) {
        const std::size_t to = std::min(asked.size(), from + KeysPerPipeline);
        for (std::size_t i = from; i < to; ++i) {
            const QByteArray& key = asked[i]->key;
            m_connection->append({"TYPE", key});
            m_connection->append({"PTTL", key});
            m_connection->append({"MEMORY", "USAGE", key});
            if (asksAccess)
                m_connection->append({"OBJECT", scan::accessSubcommand(access), key});
        }
        const std::int64_t nowMs = QDateTime::currentMSecsSinceEpoch();
        for (std::size_t i = from; i < to; ++i) {
            scan::KeyAnswers answers;
            answers.accessAsked = access;
            for (int q = 0; q < questions; ++q) {
                redis::Result<redis::Reply> reply = m_connection->read();
                if (!reply) {
                    fallBehind(QStringLiteral("the connection that measures changed keys failed (%1)")
                                   .arg(reply.error().message));
                    return false;
                }
                std::optional<redis::Reply>& slot = q == 0   ? answers.type
                                                    : q == 1 ? answers.pttl
                                                    : q == 2 ? answers.memory
                                                             : answers.access;
                slot = std::move(*reply);
            }
            keyspace::KeyInfo info;
            const bool present = scan::keyFromAnswers(answers, nowMs, &info);
            out->push_back({asked[i]->key, present ? std::optional(info) : std::nullopt, asked[i]->writes});
        }
    }
    return true;
}

void KeyspaceFollower::fallBehind(QString why)
{
    const std::lock_guard lock(m_mutex);
    if (!m_waiting.behind)
        m_waiting.behind = std::move(why);
}

LiveUpdate KeyspaceFollower::take()
{
    const std::lock_guard lock(m_mutex);
    LiveUpdate update;
    update.keys = std::exchange(m_waiting.keys, {});
    update.dbSize = std::exchange(m_waiting.dbSize, std::nullopt);
    update.keysBeforeDbSize = std::exchange(m_waiting.keysBeforeDbSize, 0);
    update.behind = m_waiting.behind; // stays: it is behind for good
    return update;
}

void KeyspaceFollower::stop()
{
    m_looks.requestStop(); // a look under way ends within the measuring connection's cancel slice
    m_subscriber.stop();
    m_looks.stop();
}

} // namespace keylens::live
