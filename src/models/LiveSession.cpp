#include "models/LiveSession.h"

#include "models/KeyTreeModel.h"
#include "models/ScanSession.h"
#include "models/StoreChanges.h"
#include "redis/Connection.h"

#include <QDateTime>

namespace keylens::models {

namespace {

std::int64_t nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

bool sameServer(const redis::ConnectionOptions& a, const redis::ConnectionOptions& b)
{
    return a.address() == b.address() && a.db == b.db;
}

// What a worker found when it asked the server: the follower, subscribed and held, or why not.
struct Begun
{
    std::optional<live::NotificationConfig> config; // what the server publishes (nothing: could not be read)
    std::unique_ptr<live::KeyspaceFollower> follower;
    std::optional<QString> error;
    std::optional<QByteArray> turnedOnFrom; // the flags before turnOnNotifications() changed them
};

} // namespace

LiveSession::LiveSession(ScanSession* session, QObject* parent)
    : QObject(parent)
    , m_session(session)
{
    m_lookTimer.setInterval(LookIntervalMs);
    connect(&m_lookTimer, &QTimer::timeout, this, &LiveSession::look);
    m_announceTimer.setInterval(AnnounceIntervalMs);
    connect(&m_announceTimer, &QTimer::timeout, this, [this] {
        m_session->changes()->announceFollowedKeys();
        m_session->model()->refreshWriteRates();
        Q_EMIT ratesChanged();
    });
    connect(session, &ScanSession::aboutToReplaceStore, this, &LiveSession::scanStarting);
    connect(session, &ScanSession::serverInfoReady, this, [this] {
        if (m_enabled && m_state == State::Off)
            begin();
    });
    connect(session, &ScanSession::finished, this, &LiveSession::scanFinished);
}

LiveSession::~LiveSession()
{
    m_starting.cancel();
    stopFollowing();
    putNotificationsBack();
}

void LiveSession::setEnabled(bool enabled)
{
    if (enabled == m_enabled)
        return;
    m_enabled = enabled;
    if (!enabled) {
        m_starting.cancel();
        stopFollowing();
        m_rates.clear();
        setState(State::Off);
        return;
    }
    // The scan shown is followed from now: what changed between its end and now is not in it (the notice says so).
    if (m_session->serverInfo())
        begin();
}

void LiveSession::scanStarting()
{
    m_starting.cancel();
    stopFollowing();
    m_rates.clear(); // by node: the next store's nodes are others
    setState(State::Off);
    // Leaving the server whose flags were changed: they go back now (the window's only "disconnect").
    const redis::ConnectionOptions next = m_session->options().connection;
    if (m_owed && !sameServer(m_owed->server, next))
        putNotificationsBack();
}

void LiveSession::begin()
{
    m_starting.cancel();
    stopFollowing();
    const scan::ScanOptions& options = m_session->options();
    const std::optional<redis::ServerInfo>& server = m_session->serverInfo();
    if (!options.rdbFile.isEmpty()) {
        setState(State::Off); // a file does not change: nothing to follow, nothing to say
        return;
    }
    if (server && server->clusterMode) {
        setState(State::Unavailable, tr("a cluster's key events are per node: the live view follows a single "
                                        "server for now"));
        return;
    }
    if (!options.type.isEmpty() || options.sampleSize != 0) {
        setState(State::Unavailable, tr("this scan was narrowed to a type or sampled: follow a full scan"));
        return;
    }
    m_server = options.connection;
    m_scanIn = !m_session->isRunning();
    setState(State::Starting);
    auto begun = std::make_shared<Begun>();
    live::KeyspaceFollower::Options follow;
    follow.connection = m_server;
    follow.match = keyspace::KeyGlob(options.match);
    m_starting.start(
        [begun, follow] {
            redis::Result<std::unique_ptr<redis::Connection>> admin = redis::Connection::open(follow.connection);
            if (!admin) {
                begun->error = admin.error().message;
                return;
            }
            // A user denied CONFIG cannot be told what is missing: it subscribes, and DBSIZE tells the rest.
            if (redis::Result<live::NotificationConfig> config = live::readNotificationConfig(**admin)) {
                begun->config = *config;
                if (!config->publishesKeyEvents())
                    return;
            }
            begun->follower = std::make_unique<live::KeyspaceFollower>(follow);
            if (redis::Status started = begun->follower->start(); !started) {
                begun->error = started.error().message;
                begun->follower.reset();
            }
        },
        [this, begun] {
            m_config = begun->config;
            if (begun->error) {
                setState(State::Unavailable, tr("could not subscribe to key events: %1").arg(*begun->error));
                return;
            }
            if (!begun->follower) {
                setState(State::NeedsNotifications);
                return;
            }
            m_follower = std::move(begun->follower);
            m_rates.start(nowMs());
            m_followsFromNow = m_scanIn;
            // A user denied CONFIG: nothing says whether events will come. A count that drifts is caught (DBSIZE);
            // values that change without any event are not.
            setState(State::Following, begun->config ? QString()
                                                     : tr("notify-keyspace-events could not be read (CONFIG is "
                                                          "denied): if the server publishes no key events, the tree "
                                                          "will not move"));
            if (m_scanIn && m_session->summary())
                scanFinished(*m_session->summary());
        });
}

void LiveSession::turnOnNotifications(bool keep)
{
    if (m_state != State::NeedsNotifications || !m_config)
        return;
    const live::NotificationConfig was = *m_config;
    const redis::ConnectionOptions server = m_session->options().connection;
    auto error = std::make_shared<std::optional<QString>>();
    setState(State::Starting);
    m_starting.start(
        [error, was, server] {
            redis::Result<std::unique_ptr<redis::Connection>> admin = redis::Connection::open(server);
            if (!admin) {
                *error = admin.error().message;
                return;
            }
            // Through the write gate: a read-only connection refuses it, and nothing reaches the server.
            if (redis::Status set = live::setNotificationFlags(**admin, was.withKeyEvents()); !set)
                *error = set.error().message;
        },
        [this, error, was, server, keep] {
            if (*error) {
                setState(State::NeedsNotifications, tr("key events could not be turned on: %1").arg(**error));
                return;
            }
            if (!keep && !m_owed)
                m_owed = Owed{server, was.flags};
            begin();
        });
}

void LiveSession::putNotificationsBack()
{
    if (!m_owed)
        return;
    const Owed owed = *std::exchange(m_owed, std::nullopt);
    // On this thread: the window is leaving the server, and it must not go before the flags are back. A server that
    // is gone cannot be put back; the connection's own timeouts bound the wait.
    redis::Result<std::unique_ptr<redis::Connection>> admin = redis::Connection::open(owed.server);
    if (admin)
        (void)live::setNotificationFlags(**admin, owed.flags);
}

void LiveSession::scanFinished(const scan::ScanSummary& summary)
{
    m_scanIn = true;
    if (!m_follower || m_state != State::Following)
        return;
    if (!summary.complete) {
        // A cancelled or failed scan's store lacks keys that no event will bring: followed, its totals would look
        // right and be wrong.
        stopFollowing();
        setState(State::Unavailable, tr("the scan did not complete: rescan to follow the server"));
        return;
    }
    m_follower->release(summary.access);
    m_lookTimer.start();
    m_announceTimer.start();
}

void LiveSession::look()
{
    if (!m_follower)
        return;
    live::LiveUpdate update = m_follower->take();
    if (update.dbSize) {
        m_quietDbSize = update.dbSize;
        m_keysBeforeCheck = m_waiting.size() + update.keysBeforeDbSize;
    }
    for (live::LiveKey& key : update.keys)
        m_waiting.push_back(std::move(key));
    if (update.behind) {
        // Keys measured before it fell behind are dropped with the rest: the tree is behind either way.
        fallBehind(*update.behind);
        return;
    }
    if (const std::optional<QString> why = checkCountWhenDue()) {
        fallBehind(*why);
        return;
    }
    if (!m_waiting.empty() && !m_applySlices.isRunning())
        m_applySlices.start([this](std::size_t keys) { return applyStep(keys); },
                            [this] {
                                if (m_behindWhy) // found in a step, which must not stop its own job
                                    fallBehind(*std::exchange(m_behindWhy, std::nullopt));
                            });
}

std::optional<QString> LiveSession::checkCountWhenDue()
{
    if (!m_quietDbSize || m_keysBeforeCheck != 0)
        return std::nullopt;
    return countMismatch(*std::exchange(m_quietDbSize, std::nullopt));
}

void LiveSession::fallBehind(const QString& why)
{
    stopFollowing();
    setState(State::Behind, why);
    m_session->changes()->announceFollowedKeys(); // what was followed until now, with the state that says it stops here
}

bool LiveSession::applyStep(std::size_t keys)
{
    std::size_t count = std::min(keys, m_waiting.size());
    if (m_quietDbSize && m_keysBeforeCheck > 0)
        count = std::min(count, m_keysBeforeCheck);
    std::vector<std::pair<QByteArray, std::optional<keyspace::KeyInfo>>> now;
    now.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
        now.emplace_back(m_waiting[i].key, m_waiting[i].now);
    // The store is busy (the rules, a sort on a worker): the keys wait for the next look.
    if (!m_session->changes()->followKeys(now))
        return true;
    const keyspace::Keyspace& store = m_session->keyspace();
    const std::int64_t when = nowMs();
    for (std::size_t i = 0; i < count; ++i) {
        if (m_waiting[i].writes != 0)
            m_rates.add(store, store.find(m_waiting[i].key), m_waiting[i].writes, when);
    }
    m_waiting.erase(m_waiting.begin(), m_waiting.begin() + qsizetype(count));
    // The comparison is due between the keys measured before its DBSIZE and those after: a step ends there.
    m_keysBeforeCheck -= std::min(m_keysBeforeCheck, count);
    if ((m_behindWhy = checkCountWhenDue()))
        return true;
    return m_waiting.empty();
}

std::optional<QString> LiveSession::countMismatch(std::uint64_t dbSize)
{
    if (m_state != State::Following || !m_session->options().match.isEmpty())
        return std::nullopt; // a MATCH scan holds a part of the keys
    const std::uint64_t stored = m_session->keyspace().keyCount();
    // Twice in a row, a second apart: an event on its way at the first DBSIZE has arrived by the second.
    m_countMismatches = stored == dbSize ? 0 : m_countMismatches + 1;
    if (m_countMismatches < 2)
        return std::nullopt;
    return tr("the tree has %L1 keys and the server %L2 (DBSIZE): something changed keys without a key event "
              "(FLUSHDB, SWAPDB, a replica's full resync, keys changed before key events were on)")
        .arg(stored)
        .arg(dbSize);
}

double LiveSession::totalWritesPerSecond() const
{
    return m_rates.perSecond(keyspace::Keyspace::root(), nowMs());
}

void LiveSession::setState(State state, const QString& why)
{
    if (state == m_state && why == m_why)
        return;
    m_state = state;
    m_why = why;
    Q_EMIT stateChanged();
}

void LiveSession::stopFollowing()
{
    m_lookTimer.stop();
    m_announceTimer.stop();
    m_applySlices.cancel();
    m_follower.reset(); // waits for its threads
    m_quietDbSize.reset();
    m_keysBeforeCheck = 0;
    m_behindWhy.reset();
    m_countMismatches = 0;
    m_waiting.clear();
}

} // namespace keylens::models
