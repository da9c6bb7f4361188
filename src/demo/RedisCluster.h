#pragma once

#include "demo/RedisServerProcess.h"

#include <memory>
#include <vector>

namespace keylens::demo {

// A private Redis Cluster on loopback: `primaries` cluster-enabled redis-servers (and `replicasPerPrimary` replicas
// of each), joined by `redis-cli --cluster create`, ready when every node says cluster_state:ok and every replica's
// link to its primary is up. For the tests and the benchmarks; the nodes stop with this object.
class RedisCluster
{
public:
    struct Options
    {
        int primaries = 3;
        int replicasPerPrimary = 0;
        // How long before a silent node counts as failed (and a replica takes over): short enough for a test to see
        // a failover, long enough that a busy node is not mistaken for a dead one.
        int nodeTimeoutMs = 3000;
        QStringList extraArguments;
        bool survivesUs = false;
    };

    RedisCluster();
    ~RedisCluster();

    redis::Status start(const Options& options);
    redis::Status start() { return start(Options{}); }
    void stop();

    std::size_t size() const { return m_nodes.size(); }
    RedisServerProcess& node(std::size_t index) { return *m_nodes[index]; }
    // The first node: any node will do to reach the cluster.
    redis::ConnectionOptions connectionOptions() const;
    QString uri() const;

private:
    redis::Status waitUntilFormed(int timeoutMs);
    std::vector<std::unique_ptr<RedisServerProcess>> m_nodes;
};

} // namespace keylens::demo
