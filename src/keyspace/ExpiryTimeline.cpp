#include "keyspace/ExpiryTimeline.h"

#include "keyspace/Keyspace.h"

#include <algorithm>

namespace keylens::keyspace {

ExpiryTimeline::ExpiryTimeline(const Keyspace& keyspace)
{
    m_pending.reserve(keyspace.stats(Keyspace::root()).keysWithTtl);
    for (NodeId node = 1; node < keyspace.nodeCount(); ++node) {
        if (!keyspace.isKey(node))
            continue;
        if (const std::int64_t expiry = keyspace.keyInfo(node).expiresAtMs; hasExpiry(expiry))
            m_pending.push_back(expiry);
    }
}

std::uint64_t ExpiryTimeline::expiredBy(std::int64_t nowMs)
{
    m_expired += std::uint64_t(std::erase_if(m_pending, [nowMs](std::int64_t expiry) { return expiry <= nowMs; }));
    return m_expired;
}

} // namespace keylens::keyspace
