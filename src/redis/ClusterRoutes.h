#pragma once

#include "redis/ClusterSlot.h"
#include "redis/Connection.h"

#include <QString>

#include <algorithm>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace keylens::redis {

struct ClusterTopology;

// Which node serves each of a cluster's 16,384 slots, as last learned: from a discovery, then from every MOVED.
// Shared by the connections to one server or cluster (ConnectionOptions::cluster), from any thread. The apps give
// every connection the user opens a fresh one: the first routeTo finds out whether the server is a cluster at all
// (one CLUSTER SHARDS), and a single server is then never asked again.
class ClusterRoutes
{
public:
    using Address = std::pair<QString, quint16>;

    bool isLearned() const;
    // Keys live on several nodes: a cluster was learned (by discovery, or by a MOVED).
    bool isCluster() const;
    void learnStandalone(); // not a cluster (or CLUSTER denied): keys are routed only by the MOVED they meet
    std::optional<Address> ownerOf(int slot) const;
    void learn(const ClusterTopology& topology);
    void moved(int slot, const Address& owner);

private:
    mutable std::mutex m_mutex;
    std::vector<std::optional<Address>> m_owners; // by slot; empty until learned
    bool m_learned = false;
};

// For pipelines over many keys: where a run of keys that one node serves ends. Keys [first, limit), named by
// `keyAt(i)`, are best in slot order; on a single server (no routes) the run is all of them.
template<typename KeyAt>
std::size_t sameNodeUntil(const ConnectionOptions& options, std::size_t first, std::size_t limit, KeyAt&& keyAt)
{
    if (!options.cluster || !options.cluster->isCluster() || first >= limit)
        return limit;
    const auto owner = options.cluster->ownerOf(clusterSlot(keyAt(first)));
    std::size_t end = first + 1;
    while (end < limit && options.cluster->ownerOf(clusterSlot(keyAt(end))) == owner)
        ++end;
    return end;
}

// Whether the keys of `connection` live on several nodes, learning the routes if need be (every connection the apps
// open carries routes; a single server answers no once), without moving the connection. Pipelines over many keys
// then go node by node, in slot order.
Result<bool> spansNodes(Connection& connection);

// Positions 0..count-1, in the slot order of their keys (`keyAt(i)`) when `bySlot`, so that a pipeline over them
// meets each node once; as given otherwise.
template<typename KeyAt> std::vector<std::size_t> inSlotOrder(std::size_t count, bool bySlot, KeyAt&& keyAt)
{
    std::vector<std::size_t> order(count);
    for (std::size_t i = 0; i < count; ++i)
        order[i] = i;
    if (bySlot)
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return clusterSlot(keyAt(a)) < clusterSlot(keyAt(b)); });
    return order;
}

// A MOVED or ASK reply: "MOVED 3999 127.0.0.1:6381".
struct Redirect
{
    bool ask = false;
    int slot = -1;
    ClusterRoutes::Address target;
};
std::optional<Redirect> parseRedirect(QByteArrayView reply);

// Runs `read` (commands about `key` on `connection`) where the key lives: routed by its slot, and again where a
// MOVED or ASK sends it (up to 5 hops, as redis-cli -c). On a single server, just `read()`.
template<typename Read> auto forKey(Connection& connection, QByteArrayView key, Read&& read) -> decltype(read())
{
    for (int hop = 0;; ++hop) {
        if (Status routed = connection.routeTo(key); !routed)
            return routed.error();
        auto result = read();
        if (!connection.takeRedirect() || hop == 5)
            return result;
    }
}

} // namespace keylens::redis
