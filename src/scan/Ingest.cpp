#include "scan/Ingest.h"

#include <QDateTime>

#include <algorithm>

namespace keylens::scan {

void Ingest::serverInfo(const redis::ServerInfo& info, const ScanOptions& options)
{
    // The keys are judged cold as of the scan's start: a scan of an hour does not make its last keys colder. A file's,
    // as of the moment its figures are read as of.
    m_store.setColdAfter(options.coldAfterSeconds, info.asOfSeconds.value_or(QDateTime::currentSecsSinceEpoch()));
    const bool wholeKeyspace = options.match.isEmpty() && options.type.isEmpty();
    if (wholeKeyspace && info.dbsize && *info.dbsize > 0)
        m_store.reserve(static_cast<std::size_t>(*info.dbsize));
}

void Ingest::add(const KeyBatch& batch, std::size_t from, std::size_t to)
{
    to = std::min(to, batch.size());
    if (batch.shard >= m_shards.size())
        m_shards.resize(batch.shard + 1u);
    if (from >= to)
        return;
    ShardTally& shard = m_shards[batch.shard];
    m_arrivals.clear();
    for (std::size_t i = from; i < to; ++i)
        m_arrivals.push_back({batch.key(i), &batch.entries[i].info});
    m_store.insert(m_arrivals);
    for (const keyspace::Keyspace::Arrival& arrival : m_arrivals) {
        if (arrival.result == keyspace::Keyspace::Insert::Duplicate) {
            // A key found again, also on another shard after a reshard or failover: counted once, where it was first.
            ++m_duplicates;
            continue;
        }
        ++shard.keys;
        if (arrival.info->memoryMeasured)
            shard.memoryBytes += arrival.info->memoryBytes;
        else
            ++shard.memoryNotMeasured;
        if (m_keyStored)
            m_keyStored(arrival.node, arrival.key, *arrival.info);
    }
    m_received += to - from;
}

} // namespace keylens::scan

namespace keylens::scan {

void Ingest::settle(ScanSummary& summary) const
{
    summary.settleInFlight(m_received);
    for (std::size_t i = 0; i < summary.shards.size() && i < m_shards.size(); ++i) {
        summary.shards[i].keys = m_shards[i].keys;
        summary.shards[i].memoryBytes = m_shards[i].memoryBytes;
        summary.shards[i].memoryNotMeasured = m_shards[i].memoryNotMeasured;
    }
}

} // namespace keylens::scan
