#pragma once

#include "keyspace/Keyspace.h"

#include <vector>

namespace keylens::keyspace {

// The `count` biggest keys by measured memory at or below `under` (the root for the whole keyspace),
// biggest first; ties broken by node id so the order is stable.
std::vector<NodeId> topKeysByMemory(const Keyspace& keyspace, std::size_t count, NodeId under = Keyspace::root());

// The same walk in steps, for a caller that cannot stop for a subtree of millions of keys (the window
// walks a few milliseconds per event-loop turn). The store must not change between steps.
class TopKeysWalk
{
public:
    TopKeysWalk(const Keyspace& keyspace, std::size_t count, NodeId under);
    // Visits up to `nodes` more nodes; true once the whole subtree was seen.
    bool step(std::size_t nodes);
    // Biggest first, once done.
    std::vector<NodeId> result() const;

private:
    bool bigger(NodeId a, NodeId b) const;
    void consider(NodeId node);

    const Keyspace& m_keyspace;
    std::size_t m_count;
    std::vector<NodeId> m_heap; // a bounded min-heap: O(n log count) over millions of keys
    std::vector<NodeId> m_stack;
    // The whole store is walked in node id order instead (sequential reads, not a stack over its sibling
    // links): the next node, or InvalidNode when walking a subtree.
    NodeId m_nextNode = InvalidNode;
};

} // namespace keylens::keyspace
