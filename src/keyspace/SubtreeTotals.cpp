#include "keyspace/SubtreeTotals.h"

#include "keyspace/Keyspace.h"

#include <algorithm>

namespace keylens::keyspace {

void SubtreeTotals::add(const SubtreeTotals& other)
{
    keys += other.keys;
    memoryBytes += other.memoryBytes;
    preallocatedBytes += other.preallocatedBytes;
    keysWithTtl += other.keysWithTtl;
    keysMemoryUnmeasured += other.keysMemoryUnmeasured;
    keysMemorySampled += other.keysMemorySampled;
    memorySampledBytes += other.memorySampledBytes;
    keysTtlUnknown += other.keysTtlUnknown;
    coldMemoryBytes += other.coldMemoryBytes;
    keysCold += other.keysCold;
    keysIdleUnknown += other.keysIdleUnknown;
    soonestExpiryMs = std::min(soonestExpiryMs, other.soonestExpiryMs);
    latestExpiryMs = std::max(latestExpiryMs, other.latestExpiryMs);
    for (std::size_t i = 0; i < types.size(); ++i)
        types[i] += other.types[i];
    for (std::size_t i = 0; i < findings.size(); ++i)
        findings[i] += other.findings[i];
}

std::uint64_t subtreeMemory(const Keyspace& store, NodeId node)
{
    std::uint64_t memory = store.namespaceMemory(node);
    if (store.isKey(node))
        memory += store.keyInfo(node).memoryBytes; // 0 when not measured
    return memory;
}

std::uint64_t subtreeKeys(const Keyspace& store, NodeId node)
{
    return store.namespaceKeys(node) + (store.isKey(node) ? 1 : 0);
}

SubtreeTotals subtreeTotals(const Keyspace& store, NodeId node)
{
    SubtreeTotals totals;
    const NamespaceStats stats = store.stats(node);
    totals.keys = stats.keys;
    totals.memoryBytes = stats.memoryBytes;
    totals.preallocatedBytes = stats.preallocatedBytes;
    totals.keysWithTtl = stats.keysWithTtl;
    totals.keysMemoryUnmeasured = stats.keysMemoryUnmeasured;
    totals.keysMemorySampled = stats.keysMemorySampled;
    totals.memorySampledBytes = stats.memorySampledBytes;
    totals.keysTtlUnknown = stats.keysTtlUnknown;
    totals.coldMemoryBytes = stats.coldMemoryBytes;
    totals.keysCold = stats.keysCold;
    totals.keysIdleUnknown = stats.keysIdleUnknown;
    if (stats.keysWithTtl > 0) {
        totals.soonestExpiryMs = stats.soonestExpiryMs;
        totals.latestExpiryMs = stats.latestExpiryMs;
    }
    for (std::size_t i = 0; i < totals.types.size(); ++i)
        totals.types[i] = stats.types[i];
    for (std::size_t i = 0; i < totals.findings.size(); ++i)
        totals.findings[i] = stats.findings[i];
    const std::array<std::uint32_t, 3> own = store.findingsBySeverity(node);
    for (std::size_t i = 0; i < totals.findings.size(); ++i)
        totals.findings[i] += own[i];
    if (store.isKey(node)) {
        const KeyInfo info = store.keyInfo(node);
        ++totals.keys;
        totals.memoryBytes += info.memoryMeasured ? info.memoryBytes : 0;
        totals.preallocatedBytes += info.memoryMeasured ? info.preallocatedBytes : 0;
        totals.keysMemoryUnmeasured += info.memoryMeasured ? 0 : 1;
        if (info.memoryMeasured && info.memorySampled) {
            ++totals.keysMemorySampled;
            totals.memorySampledBytes += info.memoryBytes;
        }
        totals.keysTtlUnknown += info.expiresAtMs == ExpiryUnknown ? 1 : 0;
        totals.keysIdleUnknown += info.access.hasIdleTime() ? 0 : 1;
        if (info.cold) {
            ++totals.keysCold;
            totals.coldMemoryBytes += info.memoryMeasured ? info.memoryBytes : 0;
        }
        if (hasExpiry(info.expiresAtMs)) {
            ++totals.keysWithTtl;
            totals.soonestExpiryMs = std::min(totals.soonestExpiryMs, info.expiresAtMs);
            totals.latestExpiryMs = std::max(totals.latestExpiryMs, info.expiresAtMs);
        }
        ++totals.types[std::size_t(info.type)];
    }
    return totals;
}

} // namespace keylens::keyspace
