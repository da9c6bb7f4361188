#pragma once

#include "keyspace/NodeId.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace keylens::keyspace {

class Keyspace;

// How long the keys of a namespace or a pattern have gone unread: the median and 90th percentile of their idle
// times (LRU), or of their access counters (LFU). Percentiles are not sums, so they are worked out when asked, from
// the keys, rather than kept per namespace; nothing when no key had one measured.
struct AccessFigures
{
    std::optional<std::uint32_t> idleP50Seconds;
    std::optional<std::uint32_t> idleP90Seconds;
    std::optional<int> frequencyP50;
    std::optional<int> frequencyP90;
};

// Collects the keys' idle times and counters, then works out the percentiles (nearest rank).
class AccessFiguresBuilder
{
public:
    // Idle times as of `nowSeconds` (seconds since the epoch).
    explicit AccessFiguresBuilder(std::int64_t nowSeconds)
        : m_now(nowSeconds)
    {}
    void addKey(const Keyspace& store, NodeId key);
    // Every key below `node` (its namespace: not its own key).
    void addNamespace(const Keyspace& store, NodeId node);
    AccessFigures figures();

private:
    std::int64_t m_now;
    std::vector<std::uint32_t> m_idle;
    std::vector<std::uint32_t> m_frequency;
};

AccessFigures namespaceAccess(const Keyspace& store, NodeId node, std::int64_t nowSeconds);

// The nearest-rank percentile (0 < p <= 1) of `values`, which it reorders; nothing when empty.
std::optional<std::uint32_t> percentile(std::span<std::uint32_t> values, double p);

} // namespace keylens::keyspace
