#include "keyspace/ExpiryTimeline.h"

#include "keyspace/Keyspace.h"

#include <algorithm>

namespace keylens::keyspace {

ExpiryTimeline::ExpiryTimeline(const Keyspace& keyspace)
{
    m_expiries.reserve(keyspace.stats(Keyspace::root()).keysWithTtl);
    for (NodeId node = 1; node < keyspace.nodeCount(); ++node) {
        if (!keyspace.isKey(node))
            continue;
        if (const std::int64_t expiry = keyspace.keyInfo(node).expiresAtMs; hasExpiry(expiry))
            m_expiries.push_back(expiry);
    }
    std::sort(m_expiries.begin(), m_expiries.end());
}

std::uint64_t ExpiryTimeline::expiredBy(std::int64_t nowMs) const
{
    return std::uint64_t(std::upper_bound(m_expiries.begin(), m_expiries.end(), nowMs) - m_expiries.begin());
}

} // namespace keylens::keyspace
