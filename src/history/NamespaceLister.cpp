#include "history/NamespaceLister.h"

#include <algorithm>

namespace keylens::history {

NamespaceLister::NamespaceLister(Snapshot& snapshot, std::size_t total)
    : m_snapshot(snapshot)
    , m_total(total)
{}

std::optional<std::uint32_t> NamespaceLister::add(SnapshotNamespace entry)
{
    if (m_snapshot.namespaces.size() >= m_total) {
        Unlisted& into = unlistedUnder(entry.parent);
        ++into.namespaces;
        into.keys += entry.stats.keys;
        into.memoryBytes += entry.stats.memoryBytes;
        return std::nullopt;
    }
    const auto index = std::uint32_t(m_snapshot.namespaces.size());
    m_snapshot.namespaces.push_back(std::move(entry));
    m_snapshot.listedDepth = std::max(m_snapshot.listedDepth, m_snapshot.depthOf(index) + 1);
    return index;
}

Unlisted& NamespaceLister::unlistedUnder(std::uint32_t parent)
{
    return parent == SnapshotNamespace::TopLevel ? m_snapshot.unlistedTopLevel : m_snapshot.namespaces[parent].unlisted;
}

} // namespace keylens::history
