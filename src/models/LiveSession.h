#pragma once

#include "base/SlicedJob.h"
#include "base/WorkerJob.h"
#include "live/KeyspaceFollower.h"
#include "live/NotificationConfig.h"
#include "models/WriteRates.h"
#include "redis/ConnectionOptions.h"

#include <QObject>
#include <QTimer>

#include <deque>
#include <memory>
#include <optional>

namespace keylens::scan {
struct ScanSummary;
}

namespace keylens::models {

class ScanSession;

// The tree after a scan, kept following the server (issue: a live keyspace). Once enabled, each scan of the session
// is followed from its start: the server's key events (live::KeyspaceFollower) name the keys written, deleted,
// expired or evicted; once the scan is in, they are measured and go through the session's one ingest path
// (StoreChanges::followKeys), in slices of the GUI thread's turns, so that every ancestor's totals follow. Writes per
// namespace are counted for the Writes/s column (WriteRates).
//
// A server that does not publish key events (notify-keyspace-events) is not changed behind the user's back: the
// session says so (NeedsNotifications) and turnOnNotifications() does it through the write gate, and puts the flags
// back as they were when the window leaves the server, unless told to keep them.
//
// It never shows totals it knows to be wrong: when the follower falls behind (the server dropped its subscription,
// too many keys at once), or the store's key count and DBSIZE disagree once the keyspace is quiet (FLUSHDB sends no
// key event), the state becomes Behind, the reason is said, and only a rescan puts it right.
//
// GUI thread only.
class LiveSession : public QObject
{
    Q_OBJECT
public:
    enum class State {
        Off,                // not enabled, or no scan to follow
        Starting,           // asking the server, subscribing
        NeedsNotifications, // the server does not publish key events: notifications() says what it has
        Unavailable,        // this scan cannot be followed (why())
        Following,
        Behind, // stopped following: the tree is behind the server (why())
    };

    explicit LiveSession(ScanSession* session, QObject* parent = nullptr);
    ~LiveSession() override; // puts the notification flags back, unless kept

    // Follow the scans from now on (the one shown too, from now). Off stops following; the flags stay as they are
    // until the window leaves the server.
    void setEnabled(bool enabled);
    bool isEnabled() const { return m_enabled; }
    State state() const { return m_state; }
    // Why it is not following, or, while following, what to know (the flags could not be read).
    QString why() const { return m_why; }
    // Following began after the scan was in (enabled, or key events turned on, then): what changed between the scan
    // and then is not in the tree.
    bool followsFromNow() const { return m_followsFromNow; }
    // The server's flags, in NeedsNotifications.
    const std::optional<live::NotificationConfig>& notifications() const { return m_config; }
    // Turns key events on (CONFIG SET notify-keyspace-events, through the write gate: refused on a read-only
    // connection) and follows from now on. `keep`: leave them on when the window leaves the server.
    void turnOnNotifications(bool keep);
    // Puts back what turnOnNotifications() changed, on the server it changed (a new connection, or the window
    // closing); nothing when it changed nothing or was told to keep it.
    void putNotificationsBack();
    // The flags that putNotificationsBack() would restore; nothing when none are owed.
    std::optional<QByteArray> flagsOwed() const { return m_owed ? std::optional(m_owed->flags) : std::nullopt; }

    const WriteRates& rates() const { return m_rates; }
    // Writes per second to the whole database over the last minute.
    double totalWritesPerSecond() const;
    // Keys measured and not yet in the store.
    std::size_t keysWaiting() const { return m_waiting.size(); }

    static constexpr int LookIntervalMs = 250;
    static constexpr int AnnounceIntervalMs = 1000;

Q_SIGNALS:
    void stateChanged();
    // The Writes/s figures moved (once a second while following).
    void ratesChanged();

private:
    void scanStarting();
    void scanFinished(const scan::ScanSummary& summary);
    void begin(); // subscribes on a worker, held until the scan is in
    void look();  // takes what the follower measured
    bool applyStep(std::size_t keys);
    // The store's key count against a quiet DBSIZE: why the tree is behind, when it is.
    std::optional<QString> countMismatch(std::uint64_t dbSize);
    std::optional<QString> checkCountWhenDue(); // once the keys measured before the quiet DBSIZE are in
    void fallBehind(const QString& why);
    void setState(State state, const QString& why = {});
    void stopFollowing();

    ScanSession* m_session;
    bool m_enabled = false;
    State m_state = State::Off;
    QString m_why;
    std::optional<live::NotificationConfig> m_config;
    // What turnOnNotifications() changed, and where: put back unless kept.
    struct Owed
    {
        redis::ConnectionOptions server;
        QByteArray flags;
    };
    std::optional<Owed> m_owed;
    redis::ConnectionOptions m_server; // of the scan followed
    bool m_scanIn = false;             // the scan followed is in the store
    bool m_followsFromNow = false;     // see followsFromNow()
    std::unique_ptr<live::KeyspaceFollower> m_follower;
    base::WorkerJob m_starting{QStringLiteral("keylens live start"), this, base::Priority::Normal};
    QTimer m_lookTimer;
    QTimer m_announceTimer;
    std::deque<live::LiveKey> m_waiting;
    // DBSIZE of a quiet moment, compared with the store once the keys measured before it are in (and no later one).
    std::optional<std::uint64_t> m_quietDbSize;
    std::size_t m_keysBeforeCheck = 0;  // of m_waiting, the ones to apply before that comparison
    std::optional<QString> m_behindWhy; // found during a slice: the tree falls behind once the slice job ends
    int m_countMismatches = 0;
    // Keys per look at the clock: a changed key costs 5-25 us (the store, the linter, the rows), so the first slice of
    // a burst stays short before the slicer has learnt it.
    base::SlicedJob m_applySlices{256, QStringLiteral("live keys"), this};
    WriteRates m_rates;
};

} // namespace keylens::models
