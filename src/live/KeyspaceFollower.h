#pragma once

#include "base/ServiceThread.h"
#include "keyspace/KeyGlob.h"
#include "keyspace/NamespaceStats.h"
#include "live/EventSubscriber.h"
#include "redis/ConnectionOptions.h"
#include "scan/ScanTypes.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace keylens::live {

// A key as it is now, after key events named it: gone (nothing), or measured as the scan measures (TYPE, PTTL,
// MEMORY USAGE and the scan's access question), with the writes and deletes clients made to it meanwhile.
struct LiveKey
{
    QByteArray key;
    std::optional<keyspace::KeyInfo> now;
    std::uint32_t writes = 0;
};

// What the follower measured since the last take.
struct LiveUpdate
{
    std::vector<LiveKey> keys;
    // DBSIZE at a quiet moment (no key event for two looks), at most once a second: once the keys before it are in,
    // a store that follows every key has as many. Nothing when it was not asked (the keyspace was busy) or could
    // not be.
    std::optional<std::uint64_t> dbSize;
    // How many of `keys` were measured before that DBSIZE: the ones after it are newer than it.
    std::size_t keysBeforeDbSize = 0;
    // Why following stopped, once it did: from then on the store is behind the server.
    std::optional<QString> behind;
};

// Keeps a scanned store following the server after the scan: subscribes to the database's key events (an
// EventSubscriber of changed keys), and on a thread of its own (a base::ServiceThread, a look every lookIntervalMs
// until stop()) measures the keys they named, each once per look however often it was written, on a connection of
// its own, in pipelines. The GUI thread takes the result.
//
// While held (a scan is running) it only gathers the keys: they are measured once the scan is over, so that a key
// written during the scan is stored as it is after it. It never guesses: when the subscription is dropped (the
// server's client-output-buffer-limit pubsub), more keys changed between two looks than it keeps, or its connection
// is lost, it stops and says why (behind).
class KeyspaceFollower
{
public:
    struct Options
    {
        redis::ConnectionOptions connection;
        scan::AccessQuestion access = scan::AccessQuestion::None; // as the scan asked
        keyspace::KeyGlob match;                                  // the scan's MATCH: other keys are not followed
        std::size_t maxKeys = 500'000;                            // distinct keys between two looks before it is behind
        std::size_t maxWaiting = 2'000'000;                       // keys measured and not taken before it is behind
        int lookIntervalMs = 100;
    };
    explicit KeyspaceFollower(Options options);
    ~KeyspaceFollower();

    // Subscribes and opens the measuring connection; gathering starts once it returns without an error.
    redis::Status start();
    // Measuring waits while held (the follower starts held): release() starts it, asking what the scan asked.
    void release(scan::AccessQuestion access)
    {
        m_options.access = access; // before m_held: the worker reads it after seeing m_held false
        m_held = false;
    }
    LiveUpdate take();
    void stop();

    static constexpr std::size_t KeysPerPipeline = 512;
    static constexpr int QuietCheckMs = 50; // after a DBSIZE, how long events still on their way are waited for

private:
    void follow();
    // The keys as they are now; false (and `behind` set) when the connection failed.
    bool measure(const std::vector<KeyChange>& changes, std::vector<LiveKey>* out);
    void fallBehind(QString why);

    Options m_options;
    // Its stop flag is the measuring connection's cancel flag: declared before it, so that it outlives it.
    base::ServiceThread m_looks{QStringLiteral("keylens live follow")};
    EventSubscriber m_subscriber;
    std::unique_ptr<redis::Connection> m_connection; // the measuring one
    std::atomic<bool> m_held{true};
    std::mutex m_mutex;
    LiveUpdate m_waiting; // under m_mutex
};

} // namespace keylens::live
