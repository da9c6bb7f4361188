#include "keyspace/TopKeys.h"

#include <algorithm>
#include <limits>

namespace keylens::keyspace {

TopKeysWalk::TopKeysWalk(const Keyspace& keyspace, std::size_t count, NodeId under)
    : m_keyspace(keyspace)
    , m_count(count)
{
    m_heap.reserve(count + 1);
    if (count == 0)
        return;
    if (under == Keyspace::root())
        m_nextNode = 1;
    else
        keyspace.forEachChild(under, [&](NodeId child) { m_stack.push_back(child); });
}

bool TopKeysWalk::bigger(NodeId a, NodeId b) const
{
    const auto ma = m_keyspace.keyInfo(a).memoryBytes;
    const auto mb = m_keyspace.keyInfo(b).memoryBytes;
    return ma != mb ? ma > mb : a < b;
}

void TopKeysWalk::consider(NodeId node)
{
    if (!m_keyspace.isKey(node) || !m_keyspace.keyInfo(node).memoryMeasured)
        return;
    const auto order = [this](NodeId a, NodeId b) { return bigger(a, b); };
    if (m_heap.size() < m_count) {
        m_heap.push_back(node);
        std::push_heap(m_heap.begin(), m_heap.end(), order);
    } else if (bigger(node, m_heap.front())) {
        std::pop_heap(m_heap.begin(), m_heap.end(), order);
        m_heap.back() = node;
        std::push_heap(m_heap.begin(), m_heap.end(), order);
    }
}

bool TopKeysWalk::step(std::size_t nodes)
{
    if (m_nextNode != InvalidNode) {
        const std::size_t end = std::min<std::size_t>(
            m_keyspace.nodeCount(), m_nextNode + std::min<std::size_t>(nodes, m_keyspace.nodeCount()));
        for (; m_nextNode < end; ++m_nextNode)
            consider(m_nextNode);
        if (m_nextNode < m_keyspace.nodeCount())
            return false;
        m_nextNode = InvalidNode;
        return true;
    }
    // Children pushed straight onto the stack: a list per namespace was most of the walk's time.
    for (std::size_t visited = 0; visited < nodes && !m_stack.empty(); ++visited) {
        const NodeId node = m_stack.back();
        m_stack.pop_back();
        consider(node);
        m_keyspace.forEachChild(node, [&](NodeId child) { m_stack.push_back(child); });
    }
    return m_stack.empty();
}

std::vector<NodeId> TopKeysWalk::result() const
{
    std::vector<NodeId> sorted = m_heap;
    std::sort_heap(sorted.begin(), sorted.end(), [this](NodeId a, NodeId b) { return bigger(a, b); });
    return sorted;
}

std::vector<NodeId> topKeysByMemory(const Keyspace& keyspace, std::size_t count, NodeId under)
{
    TopKeysWalk walk(keyspace, count, under);
    walk.step(std::numeric_limits<std::size_t>::max());
    return walk.result();
}

} // namespace keylens::keyspace
