#pragma once

#include "redis/ConnectionOptions.h"
#include "redis/Error.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <utility>
#include <vector>

namespace keylens::redis {

class Connection;

// One node of a cluster as the cluster announces it.
struct ClusterNode
{
    QByteArray id;
    QString host;
    quint16 port = 0;
    bool primary = true;
    bool healthy = true; // CLUSTER SHARDS' health is not "failed" (CLUSTER SLOTS lists only nodes it counts as serving)

    QString address() const { return hostPortText(host, port); }
};

// A primary, the slot ranges it serves, and its replicas.
struct ClusterShard
{
    std::vector<std::pair<int, int>> slots; // inclusive ranges, ascending
    ClusterNode primary;
    std::vector<ClusterNode> replicas;

    int slotCount() const;
    // "0-5460", "0-100,200-300"; single slots alone ("7").
    QString slotsText() const;
};

struct ClusterTopology
{
    std::vector<ClusterShard> shards; // by their first slot
    int slotsCovered() const;
    // The shard serving `slot`, or -1 when no shard does (the cluster is missing slots).
    int shardOfSlot(int slot) const;
    // Slot → primary id, for telling whether slots moved between two discoveries.
    std::vector<QByteArray> slotOwners() const;
};

// Whether the server runs in cluster mode (INFO cluster: cluster_enabled:1). A denied INFO counts as no.
bool isClusterEnabled(Connection& connection);

// Asks CLUSTER SHARDS (Redis 7), or CLUSTER SLOTS on servers that do not know it. Nodes announced without an
// address ("?" or empty endpoint) are taken at the host `connection` reached, as redis-cli does.
Result<ClusterTopology> discoverCluster(Connection& connection);

// The options for talking to one node: the seed's credentials and TLS, the node's host and port, database 0, and
// READONLY for a replica.
ConnectionOptions nodeOptions(const ConnectionOptions& seed, const ClusterNode& node);

} // namespace keylens::redis
