#pragma once

#include "keyspace/NamespaceStats.h"

namespace keylens::test {

// A key as a scan would have measured it.
inline keyspace::KeyInfo measuredKey(keyspace::KeyType type, std::uint64_t memory,
                                     std::int64_t expiresAtMs = keyspace::NoExpiry)
{
    keyspace::KeyInfo info;
    info.type = type;
    info.memoryBytes = memory;
    info.memoryMeasured = true;
    info.expiresAtMs = expiresAtMs;
    return info;
}

} // namespace keylens::test
