#pragma once

#include "keyspace/KeyAccess.h"
#include "keyspace/KeyType.h"

#include <array>
#include <cstdint>
#include <limits>
#include <optional>

namespace keylens::keyspace {

// Expiry times are absolute (ms since the Unix epoch), so a TTL keeps counting down after the scan.
inline constexpr std::int64_t NoExpiry = -1;
// PTTL was denied or failed: whether the key expires is not known, which is not "no TTL".
inline constexpr std::int64_t ExpiryUnknown = -2;
inline constexpr bool hasExpiry(std::int64_t expiresAtMs)
{
    return expiresAtMs >= 0;
}

// What the scan learned about one key.
struct KeyInfo
{
    KeyType type = KeyType::Unknown;
    std::int64_t expiresAtMs = NoExpiry;
    std::uint64_t memoryBytes = 0;
    bool memoryMeasured =
        false; // false when MEMORY USAGE was skipped or denied: memoryBytes is then 0, not a measurement
    // Of memoryBytes, what only the server that wrote an RDB file holds: a stream's newest node allocated ahead of its
    // entries. A server that loads the file holds memoryBytes - preallocatedBytes. Always 0 for a key a server was
    // asked about (MEMORY USAGE says what that server holds). Less than 4 KiB a stream.
    std::uint32_t preallocatedBytes = 0;
    // The server scaled memoryBytes up from a few elements (MEMORY USAGE's default SAMPLES 5 on a big collection in a
    // hash table, skiplist or many nodes: scan/MemorySampling.h), and a bigger sample says otherwise.
    bool memorySampled = false;
    KeyAccess access{}; // OBJECT IDLETIME or FREQ; unknown when not asked, denied or failed
    // Idle longer than the store's cold threshold (Keyspace::setColdBefore). The store sets it from `access` when
    // it takes or hands out a key: a caller's value is not used.
    bool cold = false;
};

// Aggregates over every key below a namespace node. Kept compact (it exists once per namespace node,
// and an id level such as `user:<id>:` has one per id).
struct NamespaceStats
{
    std::uint64_t memoryBytes = 0;       // sum over keys whose memory was measured
    std::uint64_t preallocatedBytes = 0; // of it, what a server that loads the keys from a file would not hold
    std::int64_t soonestExpiryMs = std::numeric_limits<std::int64_t>::max();
    std::int64_t latestExpiryMs = std::numeric_limits<std::int64_t>::min();
    std::uint32_t keys = 0;
    std::uint32_t keysWithTtl = 0;
    std::uint32_t keysMemoryUnmeasured = 0;
    std::uint32_t keysTtlUnknown = 0;
    std::uint32_t keysMemorySampled = 0;  // KeyInfo::memorySampled: their memory is the server's extrapolation
    std::uint64_t memorySampledBytes = 0; // of those keys, within memoryBytes
    std::uint64_t coldMemoryBytes = 0;    // of the cold keys whose memory was measured
    std::uint32_t keysCold = 0;
    std::uint32_t keysIdleUnknown = 0; // no idle time: OBJECT IDLETIME not asked, denied, or an LFU counter instead
    std::uint32_t childCount = 0;      // direct children in the tree (namespaces and keys)
    PerKeyType<std::uint32_t> types{};
    // Lint findings of the keys below, per severity (0 info, 1 warning, 2 error: lint::Severity's values).
    std::array<std::uint32_t, 3> findings{};

    void add(const KeyInfo& key);
    // Takes back a key added before (deleted, renamed away, or about to be added again with new facts). The expiry
    // bounds cannot shrink without a walk over the subtree: they stay as they were until no key with a TTL is left.
    void remove(const KeyInfo& key);
    // The access part of add (sign 1) and remove (sign -1) alone: the store moves keys across the cold threshold.
    void addAccess(const KeyInfo& key, int sign);
    std::uint32_t keysWithoutTtl() const { return keys - keysWithTtl - keysTtlUnknown; }
    std::uint32_t keysTtlKnown() const { return keys - keysTtlUnknown; }
    // The share of keys with a TTL among those whose TTL was measured; nothing when none was.
    std::optional<double> ttlShare() const
    {
        return keysTtlKnown() > 0 ? std::optional<double>(double(keysWithTtl) / double(keysTtlKnown())) : std::nullopt;
    }
    bool hasExpiringKeys() const { return keysWithTtl > 0; }
    // Whether any key's idle time was measured: cold memory means nothing otherwise (it is not 0).
    bool idleMeasured() const { return keysIdleUnknown < keys; }
    // The share of the memory that is cold (as SubtreeTotals::coldShare); nothing when no idle time or no memory was
    // measured.
    std::optional<double> coldShare() const
    {
        return idleMeasured() && memoryBytes > 0 ? std::optional<double>(double(coldMemoryBytes) / double(memoryBytes))
                                                 : std::nullopt;
    }
};

// Of counts per lint severity (info, warning, error): the highest severity with any, or -1 without any.
template<typename Count> constexpr int worstSeverity(const std::array<Count, 3>& bySeverity)
{
    return bySeverity[2] ? 2 : bySeverity[1] ? 1 : bySeverity[0] ? 0 : -1;
}

} // namespace keylens::keyspace
