#include "keyspace/NamespaceStats.h"

#include <algorithm>

namespace keylens::keyspace {

void NamespaceStats::add(const KeyInfo& key)
{
    ++keys;
    ++types[static_cast<std::size_t>(key.type)];
    if (key.memoryMeasured) {
        memoryBytes += key.memoryBytes;
        preallocatedBytes += key.preallocatedBytes;
    } else
        ++keysMemoryUnmeasured;
    if (key.memoryMeasured && key.memorySampled) {
        ++keysMemorySampled;
        memorySampledBytes += key.memoryBytes;
    }
    if (key.expiresAtMs == ExpiryUnknown) {
        ++keysTtlUnknown;
    } else if (hasExpiry(key.expiresAtMs)) {
        ++keysWithTtl;
        soonestExpiryMs = std::min(soonestExpiryMs, key.expiresAtMs);
        latestExpiryMs = std::max(latestExpiryMs, key.expiresAtMs);
    }
    addAccess(key, 1);
}

void NamespaceStats::addAccess(const KeyInfo& key, int sign)
{
    if (!key.access.hasIdleTime())
        keysIdleUnknown += std::uint32_t(sign);
    if (key.cold) {
        keysCold += std::uint32_t(sign);
        if (key.memoryMeasured)
            coldMemoryBytes += std::uint64_t(std::int64_t(sign)) * key.memoryBytes;
    }
}

void NamespaceStats::remove(const KeyInfo& key)
{
    --keys;
    --types[static_cast<std::size_t>(key.type)];
    if (key.memoryMeasured) {
        memoryBytes -= key.memoryBytes;
        preallocatedBytes -= key.preallocatedBytes;
    } else
        --keysMemoryUnmeasured;
    if (key.memoryMeasured && key.memorySampled) {
        --keysMemorySampled;
        memorySampledBytes -= key.memoryBytes;
    }
    if (key.expiresAtMs == ExpiryUnknown) {
        --keysTtlUnknown;
    } else if (hasExpiry(key.expiresAtMs) && --keysWithTtl == 0) {
        soonestExpiryMs = std::numeric_limits<std::int64_t>::max();
        latestExpiryMs = std::numeric_limits<std::int64_t>::min();
    }
    addAccess(key, -1);
}

} // namespace keylens::keyspace
