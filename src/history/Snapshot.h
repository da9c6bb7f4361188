#pragma once

#include "keyspace/KeyType.h"

#include <QByteArray>

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace keylens::history {

// What a scan measured of a set of keys (a namespace, a pattern, the whole keyspace): the figures a later scan is
// compared with. No key names.
struct SnapshotStats
{
    std::uint64_t keys = 0;
    std::uint64_t memoryBytes = 0; // of the keys whose memory was measured
    std::uint64_t keysWithTtl = 0;
    std::uint64_t keysMemoryUnmeasured = 0;
    std::uint64_t keysTtlUnknown = 0;
    // Absolute expiry times (ms since the epoch) of the soonest and latest expiring key; unset without one.
    std::optional<std::int64_t> soonestExpiryMs;
    std::optional<std::int64_t> latestExpiryMs;
    keyspace::PerKeyType<std::uint64_t> types{};

    // The share of keys with a TTL among those whose TTL is known; 0 without any.
    double ttlShare() const
    {
        const std::uint64_t known = keys - std::min(keys, keysTtlUnknown);
        return known == 0 ? 0.0 : double(keysWithTtl) / double(known);
    }
    bool operator==(const SnapshotStats&) const = default;
};

// Child namespaces a snapshot does not list (past its caps), summed: a namespace missing from one side of a diff is
// only new or gone when its parent lists every child there.
struct Unlisted
{
    std::uint64_t namespaces = 0;
    std::uint64_t keys = 0;
    std::uint64_t memoryBytes = 0;
    bool operator==(const Unlisted&) const = default;
};

struct SnapshotNamespace
{
    static constexpr std::uint32_t TopLevel = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t parent = TopLevel; // index in Snapshot::namespaces, always before this one
    QByteArray path;                 // as the scan report says it: `session:`, with the delimiter after it
    SnapshotStats stats;
    QByteArray library; // the id of the library whose layout it is (`bullmq`); empty for none
    Unlisted unlisted;
    bool operator==(const SnapshotNamespace&) const = default;
};

struct SnapshotPattern
{
    QByteArray pattern; // `user:<int>:profile`
    SnapshotStats stats;
    QByteArray library;
    bool operator==(const SnapshotPattern&) const = default;
};

struct SnapshotServer
{
    QByteArray address; // host:port (never a password)
    QByteArray runId;   // INFO's run_id: another value means the server restarted in between
    QByteArray redisVersion;
    int db = 0;
    std::optional<std::int64_t> dbsize;
    std::optional<std::int64_t> usedMemory;
    bool operator==(const SnapshotServer&) const = default;
};

// One scan, aggregated (docs/snapshot-format.md): per namespace (down to a depth and a count, the rest summed) and
// per pattern keys, memory, TTLs and types; the libraries; the findings by rule when it was linted.
struct Snapshot
{
    std::int64_t takenAtMs = 0; // when the scan ended
    bool complete = false;      // the SCAN cursor came back to 0; a partial scan's figures are lower bounds
    SnapshotServer server;
    QByteArray delimiters = ":"; // the bytes keys were split on
    QByteArray profile;          // the lint profile's name; empty when the scan was not linted
    std::uint64_t keysScanned = 0;
    // The namespace levels listed: a namespace deeper than this may exist without being listed, on either side of a
    // diff.
    int listedDepth = 0;
    SnapshotStats totals;
    std::vector<SnapshotNamespace> namespaces; // parents before their children
    Unlisted unlistedTopLevel;
    std::vector<SnapshotPattern> patterns; // empty when the scan did not fold its keys
    struct RuleCount
    {
        QByteArray rule; // `missing-ttl`
        std::uint64_t findings = 0;
        bool operator==(const RuleCount&) const = default;
    };
    std::vector<RuleCount> findingsByRule; // empty when the scan was not linted
    struct LibraryTotal
    {
        QByteArray library;
        std::uint64_t keys = 0;
        std::uint64_t memoryBytes = 0;
        bool operator==(const LibraryTotal&) const = default;
    };
    std::vector<LibraryTotal> libraries;

    // How deep a namespace lies: 0 for a top-level one.
    int depthOf(std::size_t index) const
    {
        int depth = 0;
        for (std::uint32_t at = namespaces[index].parent; at != SnapshotNamespace::TopLevel; at = namespaces[at].parent)
            ++depth;
        return depth;
    }
    bool operator==(const Snapshot&) const = default;
};

} // namespace keylens::history
