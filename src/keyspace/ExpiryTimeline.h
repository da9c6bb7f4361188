#pragma once

#include <cstdint>
#include <vector>

namespace keylens::keyspace {

class Keyspace;

// When the keys of a finished scan expire, so that "how many have expired by now" costs a pass over the
// keys with a TTL that have not expired yet (one compact array, a fraction of a millisecond per 100k)
// instead of a walk over the store. The totals of a scan are as of the scan; this says how far the
// server has moved on from them since. Not sorted: sorting would cost the GUI thread more at the end
// of a scan than years of once-a-second passes.
class ExpiryTimeline
{
public:
    ExpiryTimeline() = default;
    explicit ExpiryTimeline(const Keyspace& keyspace); // collects every key at once

    // Reads the expiries of up to `nodes` more nodes of the store (the same store every call), so that the
    // GUI thread can build the timeline of a million keys in slices; true once every node is read.
    bool collect(const Keyspace& keyspace, std::size_t nodes);
    bool isComplete() const { return m_complete; }

    // Keys whose TTL has run out at `nowMs`; time only moves forward, so the ones counted are dropped.
    std::uint64_t expiredBy(std::int64_t nowMs);
    bool isEmpty() const { return m_pending.empty() && m_expired == 0; }

private:
    std::vector<std::int64_t> m_pending; // expiries not yet passed
    std::uint64_t m_expired = 0;
    std::size_t m_nextNode = 1; // collect() goes on from here
    bool m_complete = false;
};

} // namespace keylens::keyspace
