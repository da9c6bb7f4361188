#include "models/KeyspaceView.h"

#include "keyspace/Keyspace.h"

namespace keylens::models {

using keyspace::InvalidNode;

KeyspaceView::KeyspaceView(QObject* parent)
    : QObject(parent)
{}

void KeyspaceView::setStore(const keyspace::Keyspace* store, Origin origin)
{
    m_store = store;
    m_origin = store ? origin : Origin::Server;
    ++m_generation;
    Q_EMIT storeReplaced();
}

NodeRef KeyspaceView::ref(keyspace::NodeId node) const
{
    if (!m_store || node == InvalidNode || node >= m_store->nodeCount())
        return {};
    return {node, m_generation};
}

bool KeyspaceView::isCurrent(NodeRef ref) const
{
    return m_store && !ref.isNull() && ref.generation == m_generation && ref.node < m_store->nodeCount();
}

NodeRef KeyspaceView::find(QByteArrayView path) const
{
    return m_store ? ref(m_store->find(path)) : NodeRef{};
}

QByteArray KeyspaceView::path(NodeRef ref) const
{
    return isCurrent(ref) ? m_store->path(ref.node) : QByteArray();
}

QByteArray KeyspaceView::namespacePrefix(NodeRef ref) const
{
    return isCurrent(ref) ? m_store->namespacePrefix(ref.node) : QByteArray();
}

QByteArray KeyspaceView::namespaceGlob(NodeRef ref) const
{
    return isCurrent(ref) ? m_store->namespaceGlob(ref.node) : QByteArray();
}

QByteArray KeyspaceView::segment(NodeRef ref) const
{
    return isCurrent(ref) ? m_store->segment(ref.node).toByteArray() : QByteArray();
}

bool KeyspaceView::isKey(NodeRef ref) const
{
    return isCurrent(ref) && m_store->isKey(ref.node);
}

bool KeyspaceView::hasChildren(NodeRef ref) const
{
    return isCurrent(ref) && m_store->hasChildren(ref.node);
}

NodeRef KeyspaceView::parent(NodeRef ref) const
{
    return isCurrent(ref) && ref.node != keyspace::RootNode ? this->ref(m_store->parent(ref.node)) : NodeRef{};
}

NodeRef KeyspaceView::firstChild(NodeRef ref) const
{
    return isCurrent(ref) ? this->ref(m_store->firstChild(ref.node)) : NodeRef{};
}

NodeRef KeyspaceView::nextSibling(NodeRef ref) const
{
    return isCurrent(ref) ? this->ref(m_store->nextSibling(ref.node)) : NodeRef{};
}

std::optional<keyspace::KeyInfo> KeyspaceView::keyInfo(NodeRef ref) const
{
    if (!isKey(ref))
        return std::nullopt;
    return m_store->keyInfo(ref.node);
}

keyspace::NamespaceStats KeyspaceView::stats(NodeRef ref) const
{
    return isCurrent(ref) ? m_store->stats(ref.node) : keyspace::NamespaceStats{};
}

keyspace::SubtreeTotals KeyspaceView::totals(NodeRef ref) const
{
    return isCurrent(ref) ? keyspace::subtreeTotals(*m_store, ref.node) : keyspace::SubtreeTotals{};
}

keyspace::AccessFigures KeyspaceView::access(NodeRef ref, std::int64_t nowSeconds) const
{
    return isCurrent(ref) ? keyspace::namespaceAccess(*m_store, ref.node, nowSeconds) : keyspace::AccessFigures{};
}

std::int64_t KeyspaceView::coldAfterSeconds() const
{
    return m_store ? m_store->coldAfterSeconds() : 0;
}

std::uint64_t KeyspaceView::subtreeMemory(NodeRef ref) const
{
    return isCurrent(ref) ? keyspace::subtreeMemory(*m_store, ref.node) : 0;
}

std::uint32_t KeyspaceView::findingRules(NodeRef ref) const
{
    return isKey(ref) ? m_store->findingRules(ref.node) : 0;
}

std::uint64_t KeyspaceView::keyCount() const
{
    return m_store ? m_store->keyCount() : 0;
}

const keyspace::Delimiters& KeyspaceView::delimiters() const
{
    static const keyspace::Delimiters none;
    return m_store ? m_store->delimiters() : none;
}

} // namespace keylens::models
