#pragma once

#include "keyspace/Keyspace.h"

#include <QList>

#include <array>
#include <cstdint>
#include <unordered_map>

namespace keylens::models {

// Writes per namespace while the tree follows the server live: each key's writes (and deletes) count for it and
// every ancestor, in 10-second buckets over the last five minutes. The Writes/s column shows the last minute's rate
// and sorts by it; its sparkline draws the buckets.
//
// GUI thread only (a sort on a worker reads it while the live view waits: see LiveSession).
class WriteRates
{
public:
    static constexpr int BucketSeconds = 10;
    static constexpr int Buckets = 30;
    static constexpr int LastMinuteBuckets = 6; // the current one and five before it

    // Counting starts (a rate over less than a minute divides by the time since).
    void start(std::int64_t nowMs);
    void clear();
    bool isCounting() const { return m_sinceMs >= 0; }

    void add(const keyspace::Keyspace& store, keyspace::NodeId key, std::uint32_t writes, std::int64_t nowMs);
    // Writes in the last minute, the sort key of the column.
    std::uint64_t lastMinute(keyspace::NodeId node, std::int64_t nowMs) const;
    // The same per second, over the time it covers.
    double perSecond(keyspace::NodeId node, std::int64_t nowMs) const;
    // Writes per second in each bucket of the last five minutes, oldest first; empty for a node never written.
    QList<float> history(keyspace::NodeId node, std::int64_t nowMs) const;

private:
    struct History
    {
        std::array<std::uint32_t, Buckets> counts{}; // by bucket number modulo Buckets
        std::int64_t lastBucket = 0;                 // the bucket of the last write
    };
    std::uint32_t countIn(const History& history, std::int64_t bucket) const;

    std::unordered_map<keyspace::NodeId, History> m_nodes;
    std::int64_t m_sinceMs = -1;
};

} // namespace keylens::models
