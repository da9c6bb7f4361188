#include "keyspace/AccessFigures.h"

#include "keyspace/Keyspace.h"

#include <algorithm>
#include <cmath>

namespace keylens::keyspace {

std::optional<std::uint32_t> percentile(std::span<std::uint32_t> values, double p)
{
    if (values.empty())
        return std::nullopt;
    const auto rank = std::size_t(std::ceil(p * double(values.size())));
    const auto nth = values.begin() + std::ptrdiff_t(std::clamp<std::size_t>(rank, 1, values.size()) - 1);
    std::nth_element(values.begin(), nth, values.end());
    return *nth;
}

void AccessFiguresBuilder::addKey(const Keyspace& store, NodeId key)
{
    const KeyAccess access = store.access(key);
    if (access.hasIdleTime())
        m_idle.push_back(access.idleSecondsAt(m_now));
    else if (access.hasFrequency())
        m_frequency.push_back(std::uint32_t(access.frequencyCounter()));
}

void AccessFiguresBuilder::addNamespace(const Keyspace& store, NodeId node)
{
    // A deep keyspace would overflow a recursion; the pending nodes are few (the children of one path).
    std::vector<NodeId> pending{node};
    while (!pending.empty()) {
        const NodeId at = pending.back();
        pending.pop_back();
        store.forEachChild(at, [&](NodeId child) {
            if (store.isKey(child))
                addKey(store, child);
            if (store.hasChildren(child))
                pending.push_back(child);
        });
    }
}

AccessFigures AccessFiguresBuilder::figures()
{
    AccessFigures figures;
    figures.idleP50Seconds = percentile(m_idle, 0.5);
    figures.idleP90Seconds = percentile(m_idle, 0.9);
    if (const auto p50 = percentile(m_frequency, 0.5))
        figures.frequencyP50 = int(*p50);
    if (const auto p90 = percentile(m_frequency, 0.9))
        figures.frequencyP90 = int(*p90);
    return figures;
}

AccessFigures namespaceAccess(const Keyspace& store, NodeId node, std::int64_t nowSeconds)
{
    AccessFiguresBuilder builder(nowSeconds);
    builder.addNamespace(store, node);
    return builder.figures();
}

} // namespace keylens::keyspace
