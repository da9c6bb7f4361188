#include "models/WriteRates.h"

#include <algorithm>

namespace keylens::models {

namespace {

std::int64_t bucketOf(std::int64_t ms)
{
    return ms / (WriteRates::BucketSeconds * 1000);
}

} // namespace

void WriteRates::start(std::int64_t nowMs)
{
    m_nodes.clear();
    m_sinceMs = nowMs;
}

void WriteRates::clear()
{
    m_nodes.clear();
    m_sinceMs = -1;
}

void WriteRates::add(const keyspace::Keyspace& store, keyspace::NodeId key, std::uint32_t writes, std::int64_t nowMs)
{
    if (writes == 0 || key == keyspace::InvalidNode || key >= store.nodeCount())
        return;
    const std::int64_t bucket = bucketOf(nowMs);
    for (keyspace::NodeId node = key; node != keyspace::InvalidNode; node = store.parent(node)) {
        History& history = m_nodes[node];
        // The buckets passed since the last write start from zero.
        for (std::int64_t b = std::max(history.lastBucket + 1, bucket - Buckets + 1); b <= bucket; ++b)
            history.counts[std::size_t(b % Buckets)] = 0;
        history.lastBucket = std::max(history.lastBucket, bucket);
        history.counts[std::size_t(bucket % Buckets)] += writes;
    }
}

std::uint32_t WriteRates::countIn(const History& history, std::int64_t bucket) const
{
    if (bucket > history.lastBucket || bucket <= history.lastBucket - Buckets)
        return 0;
    return history.counts[std::size_t(bucket % Buckets)];
}

std::uint64_t WriteRates::lastMinute(keyspace::NodeId node, std::int64_t nowMs) const
{
    const auto it = m_nodes.find(node);
    if (it == m_nodes.end())
        return 0;
    const std::int64_t now = bucketOf(nowMs);
    std::uint64_t sum = 0;
    for (std::int64_t b = now - LastMinuteBuckets + 1; b <= now; ++b)
        sum += countIn(it->second, b);
    return sum;
}

double WriteRates::perSecond(keyspace::NodeId node, std::int64_t nowMs) const
{
    if (!isCounting())
        return 0.0;
    const std::int64_t windowStartMs = (bucketOf(nowMs) - LastMinuteBuckets + 1) * BucketSeconds * 1000;
    const double seconds = double(nowMs - std::max(windowStartMs, m_sinceMs)) / 1000.0;
    return double(lastMinute(node, nowMs)) / std::max(seconds, 1.0);
}

QList<float> WriteRates::history(keyspace::NodeId node, std::int64_t nowMs) const
{
    const auto it = m_nodes.find(node);
    if (it == m_nodes.end())
        return {};
    QList<float> out;
    out.reserve(Buckets);
    const std::int64_t now = bucketOf(nowMs);
    for (std::int64_t b = now - Buckets + 1; b <= now; ++b)
        out << float(countIn(it->second, b)) / float(BucketSeconds);
    return out;
}

} // namespace keylens::models
