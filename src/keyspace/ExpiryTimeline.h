#pragma once

#include <cstdint>
#include <vector>

namespace keylens::keyspace {

class Keyspace;

// When the keys of a finished scan expire, sorted, so that "how many have expired by now" is a binary
// search on every tick of a countdown instead of a walk over millions of keys. The totals of a scan are
// as of the scan; this says how far the server has moved on from them since.
class ExpiryTimeline
{
public:
    ExpiryTimeline() = default;
    explicit ExpiryTimeline(const Keyspace& keyspace);

    // Keys whose TTL has run out at `nowMs`.
    std::uint64_t expiredBy(std::int64_t nowMs) const;
    bool isEmpty() const { return m_expiries.empty(); }

private:
    std::vector<std::int64_t> m_expiries;
};

} // namespace keylens::keyspace
