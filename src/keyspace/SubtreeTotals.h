#pragma once

#include "keyspace/NamespaceStats.h"
#include "keyspace/NodeId.h"

#include <array>
#include <cstdint>
#include <limits>
#include <optional>

namespace keylens::keyspace {

// The totals of a node's whole subtree: its namespace aggregates plus its own key (a node can be both,
// `user:1` beside `user:1:profile`), so a parent's children and its own key add up to it. The tree's rows
// and the pattern tree's placeholders (the sum of their members) both show these.
struct SubtreeTotals
{
    std::uint64_t keys = 0;
    std::uint64_t memoryBytes = 0;
    std::uint64_t preallocatedBytes = 0; // of it, what a server that loads the keys from a file would not hold
    std::uint64_t keysWithTtl = 0;
    std::uint64_t keysMemoryUnmeasured = 0;
    std::uint64_t keysMemorySampled = 0;
    std::uint64_t memorySampledBytes = 0;
    std::uint64_t keysTtlUnknown = 0;
    std::uint64_t coldMemoryBytes = 0;
    std::uint64_t keysCold = 0;
    std::uint64_t keysIdleUnknown = 0;
    std::int64_t soonestExpiryMs = std::numeric_limits<std::int64_t>::max();
    std::int64_t latestExpiryMs = std::numeric_limits<std::int64_t>::min();
    PerKeyType<std::uint64_t> types{};
    // Lint findings per severity (lint::Severity's values), the key's own among them.
    std::array<std::uint64_t, 3> findings{};

    // As NamespaceStats::ttlShare(): among keys whose TTL was measured; nothing when none was.
    std::optional<double> ttlShare() const
    {
        const std::uint64_t known = keys - keysTtlUnknown;
        return known > 0 ? std::optional<double>(double(keysWithTtl) / double(known)) : std::nullopt;
    }
    // Every key has a TTL, and the last of them has passed: the keys are gone from the server, though the store
    // (which a scan fills, and expiry does not empty) still counts them.
    bool allExpired(std::int64_t nowMs) const
    {
        return keys > 0 && keysWithTtl == keys && latestExpiryMs != std::numeric_limits<std::int64_t>::min() &&
               latestExpiryMs <= nowMs;
    }
    bool idleMeasured() const { return keysIdleUnknown < keys; }
    // The share of the memory that is cold; nothing when no idle time or no memory was measured.
    std::optional<double> coldShare() const
    {
        return idleMeasured() && memoryBytes > 0 ? std::optional<double>(double(coldMemoryBytes) / double(memoryBytes))
                                                 : std::nullopt;
    }
    std::uint64_t findingCount() const { return findings[0] + findings[1] + findings[2]; }
    int worstFinding() const { return worstSeverity(findings); }

    // Adds the totals of a subtree that does not overlap this one.
    void add(const SubtreeTotals& other);
};

SubtreeTotals subtreeTotals(const Keyspace& store, NodeId node);
// Its memoryBytes and keys alone, for the hot paths (sorting a million rows, laying out a treemap).
std::uint64_t subtreeMemory(const Keyspace& store, NodeId node);
std::uint64_t subtreeKeys(const Keyspace& store, NodeId node);

} // namespace keylens::keyspace
