#pragma once

#include "keyspace/Keyspace.h"
#include "redis/ServerInfo.h"
#include "scan/KeyBatch.h"
#include "scan/ScanTypes.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

namespace keylens::scan {

// The one way a scan's results enter a store: the GUI's session, keylens-cli and the tests all ingest
// through it, so they agree on duplicates, on sizing the store and on the accounting of every key SCAN
// returned. (Three copies of this loop once differed on exactly those.)
//
// Used on the thread that owns the store.
class Ingest
{
public:
    explicit Ingest(keyspace::Keyspace& store)
        : m_store(store)
    {}

    // Called for every key as it is stored (not for duplicates): the linter's key-level rules run here,
    // so every way into a store lints alike.
    using KeyStored = std::function<void(keyspace::NodeId node, QByteArrayView key, const keyspace::KeyInfo& info)>;
    void setKeyStored(KeyStored keyStored) { m_keyStored = std::move(keyStored); }

    // Sets the store's cold threshold (ScanOptions::coldAfterSeconds before now), and sizes it from DBSIZE, unless a
    // MATCH or TYPE filter makes DBSIZE a gross overestimate.
    void serverInfo(const redis::ServerInfo& info, const ScanOptions& options);

    // Inserts entries [from, to) of `batch` (all of them by default), so a caller can slice a batch over
    // several event-loop turns. A key already in the store (SCAN may return a key twice) is a duplicate.
    void add(const KeyBatch& batch, std::size_t from = 0, std::size_t to = std::numeric_limits<std::size_t>::max());

    // Completes a finished scan's summary with what only the ingesting side knows: the keys still in
    // flight when it stopped (ScanSummary::settleInFlight). Call once every batch is in.
    // A cluster scan's shards get the keys and memory that entered the store from each.
    void settle(ScanSummary& summary) const;

    // What entered the store from each shard of a cluster scan (index: KeyBatch::shard), as it arrives.
    struct ShardTally
    {
        std::uint64_t keys = 0;
        std::uint64_t memoryBytes = 0;
        std::uint64_t memoryNotMeasured = 0;
    };
    const std::vector<ShardTally>& shardTallies() const { return m_shards; }

    std::uint64_t duplicates() const { return m_duplicates; }
    std::uint64_t received() const { return m_received; }

private:
    keyspace::Keyspace& m_store;
    KeyStored m_keyStored;
    std::uint64_t m_duplicates = 0;
    std::uint64_t m_received = 0; // batch entries taken: stored and duplicates
    std::vector<ShardTally> m_shards;
    std::vector<keyspace::Keyspace::Arrival> m_arrivals; // a batch's keys, inserted at once
};

} // namespace keylens::scan
