#include "keyspace/NamespaceStats.h"

#include <algorithm>

namespace keylens::keyspace {

void NamespaceStats::add(const KeyInfo& key)
{
    ++keys;
    ++types[static_cast<std::size_t>(key.type)];
    if (key.memoryMeasured)
        memoryBytes += key.memoryBytes;
    else
        ++keysMemoryUnmeasured;
    if (key.expiresAtMs == ExpiryUnknown) {
        ++keysTtlUnknown;
    } else if (hasExpiry(key.expiresAtMs)) {
        ++keysWithTtl;
        soonestExpiryMs = std::min(soonestExpiryMs, key.expiresAtMs);
        latestExpiryMs = std::max(latestExpiryMs, key.expiresAtMs);
    }
}

} // namespace keylens::keyspace
