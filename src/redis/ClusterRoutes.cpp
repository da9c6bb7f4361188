#include "redis/ClusterRoutes.h"

#include "redis/ClusterSlot.h"
#include "redis/ClusterTopology.h"

namespace keylens::redis {

bool ClusterRoutes::isLearned() const
{
    std::lock_guard lock(m_mutex);
    return m_learned;
}

bool ClusterRoutes::isCluster() const
{
    std::lock_guard lock(m_mutex);
    return !m_owners.empty();
}

void ClusterRoutes::learnStandalone()
{
    std::lock_guard lock(m_mutex);
    m_learned = true;
}

std::optional<ClusterRoutes::Address> ClusterRoutes::ownerOf(int slot) const
{
    std::lock_guard lock(m_mutex);
    if (slot < 0 || std::size_t(slot) >= m_owners.size())
        return std::nullopt;
    return m_owners[std::size_t(slot)];
}

void ClusterRoutes::learn(const ClusterTopology& topology)
{
    std::lock_guard lock(m_mutex);
    m_learned = true;
    m_owners.assign(ClusterSlots, std::nullopt);
    for (const ClusterShard& shard : topology.shards) {
        for (const auto& [first, last] : shard.slots) {
            for (int slot = std::max(first, 0); slot <= last && slot < int(ClusterSlots); ++slot)
                m_owners[std::size_t(slot)] = Address{shard.primary.host, shard.primary.port};
        }
    }
}

void ClusterRoutes::moved(int slot, const Address& owner)
{
    std::lock_guard lock(m_mutex);
    if (m_owners.empty())
        m_owners.assign(ClusterSlots, std::nullopt);
    if (slot >= 0 && slot < int(ClusterSlots))
        m_owners[std::size_t(slot)] = owner;
}

std::optional<Redirect> parseRedirect(QByteArrayView reply)
{
    Redirect redirect;
    if (reply.startsWith("ASK "))
        redirect.ask = true;
    else if (!reply.startsWith("MOVED "))
        return std::nullopt;
    const QList<QByteArray> parts = reply.toByteArray().split(' ');
    if (parts.size() < 3)
        return std::nullopt;
    bool ok = false;
    redirect.slot = parts[1].toInt(&ok);
    const QByteArray& address = parts[2];
    const qsizetype colon = address.lastIndexOf(':');
    if (!ok || colon <= 0)
        return std::nullopt;
    QByteArray host = address.left(colon);
    if (host.startsWith('[') && host.endsWith(']'))
        host = host.mid(1, host.size() - 2);
    redirect.target = {QString::fromUtf8(host), quint16(address.mid(colon + 1).toUInt())};
    return redirect;
}

Result<bool> spansNodes(Connection& connection)
{
    if (!connection.options().cluster)
        return false;
    if (Status learned = connection.learnRoutes(); !learned)
        return learned.error();
    return connection.options().cluster->isCluster();
}

// Connection's cluster routing lives here, beside the routes it reads.

Status Connection::routeTo(QByteArrayView key)
{
    if (!m_options.cluster)
        return {};
    m_lastRedirect.clear();
    std::optional<ClusterRoutes::Address> target;
    m_asking = false;
    if (m_askTarget) {
        target = std::exchange(m_askTarget, std::nullopt);
        m_asking = true;
    } else {
        if (Status learned = learnRoutes(); !learned)
            return learned;
        target = m_options.cluster->ownerOf(clusterSlot(key));
    }
    if (!target || (target->first == m_options.host && target->second == m_options.port))
        return {};
    return moveTo(target->first, target->second);
}

Status Connection::learnRoutes()
{
    if (!m_options.cluster || m_options.cluster->isLearned())
        return {};
    Result<ClusterTopology> topology = discoverCluster(*this);
    if (!topology && !topology.error().isDenied() && topology.error().kind != ErrorKind::Server)
        return topology.error(); // the connection failed: the read that follows would too
    if (topology && !topology->shards.empty())
        m_options.cluster->learn(*topology);
    else
        m_options.cluster->learnStandalone();
    return {};
}

bool Connection::takeRedirect()
{
    if (!m_options.cluster || m_lastRedirect.isEmpty())
        return false;
    const std::optional<Redirect> redirect = parseRedirect(std::exchange(m_lastRedirect, {}));
    if (!redirect)
        return false;
    if (redirect->ask)
        m_askTarget = redirect->target; // for the next attempt only: the slot still belongs to the old owner
    else
        m_options.cluster->moved(redirect->slot, redirect->target);
    return true;
}

Status Connection::moveTo(const QString& host, quint16 port)
{
    ClusterNode node;
    node.host = host;
    node.port = port;
    Result<std::unique_ptr<Connection>> opened = open(nodeOptions(m_options, node), m_cancel);
    if (!opened)
        return opened.error();
    Connection& other = **opened;
    // Everything but what routing carries over: the ASKING state set by routeTo for this hop.
    std::swap(m_options, other.m_options);
    std::swap(m_transport, other.m_transport);
    std::swap(m_reader, other.m_reader);
    std::swap(m_deepReader, other.m_deepReader);
    std::swap(m_output, other.m_output);
    std::swap(m_input, other.m_input);
    std::swap(m_gate, other.m_gate);
    std::swap(m_refusals, other.m_refusals);
    std::swap(m_appended, other.m_appended);
    std::swap(m_delivered, other.m_delivered);
    std::swap(m_broken, other.m_broken);
    std::swap(m_firstByte, other.m_firstByte);
    m_askingUnread = 0;
    return {};
}

} // namespace keylens::redis
