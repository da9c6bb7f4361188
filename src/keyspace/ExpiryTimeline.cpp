#include "keyspace/ExpiryTimeline.h"

#include "keyspace/Keyspace.h"

#include <algorithm>

namespace keylens::keyspace {

ExpiryTimeline::ExpiryTimeline(const Keyspace& keyspace)
{
    collect(keyspace, keyspace.nodeCount());
}

bool ExpiryTimeline::collect(const Keyspace& keyspace, std::size_t nodes)
{
    if (m_nextNode == 1)
        m_pending.reserve(keyspace.stats(Keyspace::root()).keysWithTtl);
    const std::size_t end = std::min(keyspace.nodeCount(), m_nextNode + nodes);
    for (; m_nextNode < end; ++m_nextNode) {
        const auto node = NodeId(m_nextNode);
        if (!keyspace.isKey(node))
            continue;
        if (const std::int64_t expiry = keyspace.keyInfo(node).expiresAtMs; hasExpiry(expiry))
            m_pending.push_back(expiry);
    }
    m_complete = m_nextNode >= keyspace.nodeCount();
    return m_complete;
}

std::uint64_t ExpiryTimeline::expiredBy(std::int64_t nowMs)
{
    m_expired += std::uint64_t(std::erase_if(m_pending, [nowMs](std::int64_t expiry) { return expiry <= nowMs; }));
    return m_expired;
}

} // namespace keylens::keyspace
