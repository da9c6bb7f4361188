#pragma once

#include "base/SlicedJob.h"
#include "keyspace/ExpiryTimeline.h"

#include <QObject>

#include <cstdint>
#include <optional>

namespace keylens::models {

class KeyspaceView;

// How many keys of the finished scan have expired since (keyspace::ExpiryTimeline), for the status bar: the timeline
// is built a slice per turn of the event loop (a walk over the whole store, 11-18 ms for a million keys at once, at
// the end of a scan that is busy enough). A new store drops it.
//
// GUI thread only.
class ExpiryCount : public QObject
{
    Q_OBJECT
public:
    explicit ExpiryCount(const KeyspaceView& keyspace, QObject* parent = nullptr);

    // Builds the timeline of the store as it is now; ready() once it is.
    void start();
    // Keys expired by `nowMs`; nothing until the timeline is built, or when no key of the store expires.
    std::optional<std::uint64_t> expiredBy(std::int64_t nowMs);

Q_SIGNALS:
    void ready();

private:
    void reset();

    const KeyspaceView& m_keyspace;
    keyspace::ExpiryTimeline m_timeline;
    // 20,000 nodes at most per look at the clock.
    base::SlicedJob m_walk{20'000, QStringLiteral("expiry timeline"), this};
};

} // namespace keylens::models
