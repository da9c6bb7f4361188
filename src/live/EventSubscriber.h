#pragma once

#include "base/ServiceThread.h"
#include "live/ChangedKeys.h"
#include "live/EventCounts.h"
#include "redis/ConnectionOptions.h"
#include "redis/Error.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <variant>
#include <vector>

namespace keylens::redis {
class Connection;
}

namespace keylens::live {

// Subscribes to the key events of the connection's database (PSUBSCRIBE __keyevent@<db>__:*) on a connection of
// its own, and on a thread of its own (a base::ServiceThread, until stop()) either counts them per pattern
// (keylens-cli watch) or collects the keys they name (the live tree); another thread takes what was gathered each
// interval.
// A subscriber that reads slower than the server writes is disconnected by the server (client-output-buffer-limit
// pubsub): the counts from then on would be silently short, so failure() says so and the caller stops.
class EventSubscriber
{
public:
    // Counts per pattern (takeCounts).
    EventSubscriber(const redis::ConnectionOptions& options, keyspace::Delimiters delimiters);
    // Collects the keys changed, at most `maxKeys` between two takes (takeChangedKeys).
    EventSubscriber(const redis::ConnectionOptions& options, std::size_t maxKeys);
    ~EventSubscriber();

    // Connects and subscribes; the reading starts once it returns without an error.
    redis::Status start();
    // The counts since the last call.
    std::vector<PatternEvents> takeCounts();
    // The keys changed since the last call; `overflowed` once more keys changed between two calls than were kept.
    std::vector<KeyChange> takeChangedKeys(bool* overflowed);
    // Key events read since the start: two equal answers mean none arrived in between.
    std::uint64_t eventsRead() const { return m_eventsRead.load(); }
    // Why the subscription ended before stop(), if it did.
    std::optional<redis::Error> failure() const;
    void stop();

private:
    redis::Status subscribe();
    void readEvents();

    redis::ConnectionOptions m_options;
    std::unique_ptr<redis::Connection> m_connection; // the reader's: opened, read and closed there
    std::atomic<std::uint64_t> m_eventsRead{0};
    base::ServiceThread m_reader{QStringLiteral("keylens key events")};
    mutable std::mutex m_mutex;
    std::variant<EventCounts, ChangedKeys> m_gathered; // under m_mutex
    std::optional<redis::Error> m_error;               // under m_mutex
};

} // namespace keylens::live
