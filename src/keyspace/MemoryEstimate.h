#pragma once

#include "keyspace/NamespaceStats.h"
#include "keyspace/NodeId.h"

#include <optional>
#include <vector>

namespace keylens::keyspace {

// A namespace's memory estimated from a uniform random sample of its keys (a sampled scan measures MEMORY USAGE on
// some keys only, and keeps names and types for all): the sampled keys' mean times the key count, with a bound of
// BoundInStandardErrors standard errors (finite population corrected), and never less than that many n-ths of the
// estimate for n sampled keys (what a kind of key too rare to be sampled could add).
struct MemoryEstimate
{
    std::uint64_t sampledKeys = 0;
    std::optional<double> bytes; // none when no key of it was measured
    std::optional<double> bound; // ± this much; none with fewer than two measured keys; 0 when all were
};

inline constexpr double BoundInStandardErrors = 4.0;

// The point estimate alone, from a namespace's aggregates: what the tree shows for a sampled scan.
std::optional<double> estimatedMemory(const NamespaceStats& stats);

// Estimates with bounds for every namespace, from one pass over the keys (the bound needs each namespace's sum of
// squares, which the store does not keep). Made after the scan, on the thread that owns the store.
class SampledMemory
{
public:
    explicit SampledMemory(const Keyspace& keyspace);
    MemoryEstimate estimate(NodeId node) const;

private:
    const Keyspace& m_keyspace;
    std::vector<double> m_squares; // by namespace index: the sum of the measured keys' memory squared
};

} // namespace keylens::keyspace
