#include "keyspace/MemoryEstimate.h"

#include "keyspace/Keyspace.h"

#include <cmath>

namespace keylens::keyspace {

std::optional<double> estimatedMemory(const NamespaceStats& stats)
{
    const std::uint64_t measured = stats.keys - stats.keysMemoryUnmeasured;
    if (measured == 0)
        return std::nullopt;
    return double(stats.memoryBytes) * double(stats.keys) / double(measured);
}

SampledMemory::SampledMemory(const Keyspace& keyspace)
    : m_keyspace(keyspace)
    , m_squares(keyspace.namespaceCount(), 0.0)
{
    // Each measured key adds its square to every namespace above it (and its own, when it has children): no
    // recursion, one walk up per key.
    for (NodeId node = 0; node < keyspace.nodeCount(); ++node) {
        if (!keyspace.isKey(node))
            continue;
        const KeyInfo info = keyspace.keyInfo(node);
        if (!info.memoryMeasured)
            continue;
        const double square = double(info.memoryBytes) * double(info.memoryBytes);
        for (NodeId up = node; up != InvalidNode; up = up == Keyspace::root() ? InvalidNode : keyspace.parent(up)) {
            const std::uint32_t index = keyspace.namespaceIndex(up);
            if (index != InvalidNode)
                m_squares[index] += square;
        }
    }
}

MemoryEstimate SampledMemory::estimate(NodeId node) const
{
    MemoryEstimate estimate;
    const NamespaceStats& stats = m_keyspace.stats(node);
    const std::uint32_t index = m_keyspace.namespaceIndex(node);
    const double keys = stats.keys;
    const double n = double(stats.keys - stats.keysMemoryUnmeasured);
    estimate.sampledKeys = std::uint64_t(n);
    estimate.bytes = estimatedMemory(stats);
    if (!estimate.bytes)
        return estimate;
    if (n >= keys) {
        estimate.bound = 0.0; // every key measured: exact
        return estimate;
    }
    if (n < 2 || index == InvalidNode)
        return estimate;
    const double sum = double(stats.memoryBytes);
    const double variance = std::max(0.0, (m_squares[index] - sum * sum / n) / (n - 1));
    const double standardError = keys * std::sqrt(variance / n) * std::sqrt(1.0 - n / keys);
    // A sample of n keys can miss a kind of key rarer than about one in n altogether, and then its spread shows
    // nowhere in the sample (n identical sizes have no variance): the bound is never below as many n-ths of the
    // estimate as it counts standard errors.
    estimate.bound = BoundInStandardErrors * std::max(standardError, *estimate.bytes / n);
    return estimate;
}

} // namespace keylens::keyspace
