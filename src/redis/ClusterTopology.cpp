#include "redis/ClusterTopology.h"

#include "redis/Connection.h"
#include "redis/ServerInfo.h"

#include <algorithm>
#include <map>

namespace keylens::redis {

int ClusterShard::slotCount() const
{
    int count = 0;
    for (const auto& [first, last] : slots)
        count += last - first + 1;
    return count;
}

QString ClusterShard::slotsText() const
{
    QStringList ranges;
    for (const auto& [first, last] : slots)
        ranges << (first == last ? QString::number(first) : QStringLiteral("%1-%2").arg(first).arg(last));
    return ranges.join(QLatin1Char(','));
}

int ClusterTopology::slotsCovered() const
{
    int covered = 0;
    for (const ClusterShard& shard : shards)
        covered += shard.slotCount();
    return covered;
}

int ClusterTopology::shardOfSlot(int slot) const
{
    for (std::size_t i = 0; i < shards.size(); ++i) {
        for (const auto& [first, last] : shards[i].slots) {
            if (slot >= first && slot <= last)
                return int(i);
        }
    }
    return -1;
}

std::vector<QByteArray> ClusterTopology::slotOwners() const
{
    std::vector<QByteArray> owners(16384);
    for (const ClusterShard& shard : shards) {
        for (const auto& [first, last] : shard.slots) {
            for (int slot = first; slot <= last && slot < 16384; ++slot)
                owners[std::size_t(slot)] = shard.primary.id;
        }
    }
    return owners;
}

bool isClusterEnabled(Connection& connection)
{
    Result<Reply> info = connection.command({"INFO", "cluster"});
    return info && info->isString() && infoField(info->bytes(), "cluster_enabled") == "1";
}

namespace {

// A RESP2 map: alternating names and values.
ReplyView field(ReplyView map, QByteArrayView name)
{
    for (std::size_t i = 0; i + 1 < map.size(); i += 2) {
        if (map.at(i).bytes() == name)
            return map.at(i + 1);
    }
    return ReplyView();
}

// An announced address that is no address ("?", "", or the unknown-endpoint marker) means "where you reached me".
QString announcedHost(QByteArrayView host, const Connection& connection)
{
    if (host.isEmpty() || host == "?")
        return connection.options().host;
    return QString::fromUtf8(host);
}

quint16 portOf(ReplyView value)
{
    if (value.isInteger())
        return quint16(value.integer());
    return quint16(value.bytes().toByteArray().toUInt());
}

void sortShards(ClusterTopology& topology)
{
    for (ClusterShard& shard : topology.shards)
        std::sort(shard.slots.begin(), shard.slots.end());
    // Shards without slots serve nothing: they are not scanned.
    std::erase_if(topology.shards, [](const ClusterShard& shard) { return shard.slots.empty(); });
    std::sort(topology.shards.begin(), topology.shards.end(),
              [](const ClusterShard& a, const ClusterShard& b) { return a.slots.front() < b.slots.front(); });
}

Result<ClusterTopology> fromShards(const Reply& reply, const Connection& connection)
{
    const bool tls = connection.options().tls.enabled;
    ClusterTopology topology;
    for (std::size_t i = 0; i < reply.size(); ++i) {
        const ReplyView entry = reply.at(i);
        const ReplyView slots = field(entry, "slots");
        const ReplyView nodes = field(entry, "nodes");
        ClusterShard shard;
        for (std::size_t s = 0; s + 1 < slots.size(); s += 2) {
            const auto number = [](ReplyView v) {
                return v.isInteger() ? int(v.integer()) : v.bytes().toByteArray().toInt();
            };
            shard.slots.emplace_back(number(slots.at(s)), number(slots.at(s + 1)));
        }
        bool havePrimary = false;
        for (std::size_t n = 0; n < nodes.size(); ++n) {
            const ReplyView node = nodes.at(n);
            ClusterNode parsed;
            parsed.id = field(node, "id").bytes().toByteArray();
            const ReplyView endpoint = field(node, "endpoint");
            parsed.host = announcedHost(endpoint.isNull() ? field(node, "ip").bytes() : endpoint.bytes(), connection);
            const ReplyView tlsPort = field(node, "tls-port");
            parsed.port = portOf(tls && !tlsPort.isNull() ? tlsPort : field(node, "port"));
            parsed.primary = field(node, "role").bytes() == "master";
            // Redis 7.0 calls a replica "loading" until gossip brings its replication offset, often long after it
            // synced: only "failed" rules a node out (a node really loading answers LOADING, which a scan waits out).
            parsed.healthy = field(node, "health").bytes() != "failed";
            if (parsed.primary && !havePrimary) {
                shard.primary = parsed;
                havePrimary = true;
            } else {
                // A failed primary whose replica took over is listed as a replica of the shard it served.
                parsed.primary = false;
                shard.replicas.push_back(parsed);
            }
        }
        if (havePrimary)
            topology.shards.push_back(std::move(shard));
    }
    sortShards(topology);
    return topology;
}

ClusterNode nodeFromSlotsEntry(ReplyView node, const Connection& connection, bool primary)
{
    ClusterNode parsed;
    parsed.host = announcedHost(node.at(0).bytes(), connection);
    parsed.port = portOf(node.at(1));
    parsed.id = node.size() > 2 ? node.at(2).bytes().toByteArray() : QByteArray();
    parsed.primary = primary;
    return parsed;
}

Result<ClusterTopology> fromSlots(const Reply& reply, const Connection& connection)
{
    ClusterTopology topology;
    std::map<QByteArray, std::size_t> byPrimary; // CLUSTER SLOTS lists a primary once per range it serves
    for (std::size_t i = 0; i < reply.size(); ++i) {
        const ReplyView range = reply.at(i);
        if (range.size() < 3)
            continue;
        ClusterNode primary = nodeFromSlotsEntry(range.at(2), connection, true);
        const QByteArray key = primary.id.isEmpty() ? primary.address().toUtf8() : primary.id;
        auto [found, inserted] = byPrimary.emplace(key, topology.shards.size());
        if (inserted) {
            ClusterShard shard;
            shard.primary = primary;
            for (std::size_t r = 3; r < range.size(); ++r)
                shard.replicas.push_back(nodeFromSlotsEntry(range.at(r), connection, false));
            topology.shards.push_back(std::move(shard));
        }
        topology.shards[found->second].slots.emplace_back(int(range.at(0).integer()), int(range.at(1).integer()));
    }
    sortShards(topology);
    return topology;
}

} // namespace

Result<ClusterTopology> discoverCluster(Connection& connection)
{
    Result<Reply> shards = connection.command({"CLUSTER", "SHARDS"});
    if (!shards)
        return shards.error();
    if (shards->isArray())
        return fromShards(*shards, connection);
    // Before Redis 7 (or a denied SHARDS): CLUSTER SLOTS.
    Result<Reply> slots = connection.command({"CLUSTER", "SLOTS"});
    if (!slots)
        return slots.error();
    if (slots->isError())
        return errorFromReply(slots->bytes(), "CLUSTER SLOTS");
    if (!slots->isArray())
        return Error{ErrorKind::Protocol, QStringLiteral("CLUSTER SLOTS answered with something that is not a list")};
    return fromSlots(*slots, connection);
}

ConnectionOptions nodeOptions(const ConnectionOptions& seed, const ClusterNode& node)
{
    ConnectionOptions options = seed;
    options.transport = ConnectionOptions::Transport::Tcp;
    options.host = node.host;
    options.port = node.port;
    options.db = 0;
    options.sentinel = {};
    options.readFromReplica = !node.primary; // a replica redirects reads unless told READONLY
    return options;
}

} // namespace keylens::redis
