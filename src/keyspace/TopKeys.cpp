#include "keyspace/TopKeys.h"

#include <algorithm>

namespace keylens::keyspace {

std::vector<NodeId> topKeysByMemory(const Keyspace& keyspace, std::size_t count, NodeId under)
{
    if (count == 0)
        return {};
    const auto bigger = [&](NodeId a, NodeId b) {
        const auto ma = keyspace.keyInfo(a).memoryBytes;
        const auto mb = keyspace.keyInfo(b).memoryBytes;
        return ma != mb ? ma > mb : a < b;
    };
    // A bounded min-heap keeps this O(n log count) over millions of keys.
    std::vector<NodeId> heap;
    heap.reserve(count + 1);
    const auto consider = [&](NodeId node) {
        if (!keyspace.isKey(node) || !keyspace.keyInfo(node).memoryMeasured)
            return;
        if (heap.size() < count) {
            heap.push_back(node);
            std::push_heap(heap.begin(), heap.end(), bigger);
        } else if (bigger(node, heap.front())) {
            std::pop_heap(heap.begin(), heap.end(), bigger);
            heap.back() = node;
            std::push_heap(heap.begin(), heap.end(), bigger);
        }
    };
    if (under == Keyspace::root()) {
        for (NodeId node = 1; node < keyspace.nodeCount(); ++node)
            consider(node);
    } else {
        // Children pushed straight onto the stack: a list per namespace was most of the walk's time.
        std::vector<NodeId> stack;
        keyspace.forEachChild(under, [&](NodeId child) { stack.push_back(child); });
        while (!stack.empty()) {
            const NodeId node = stack.back();
            stack.pop_back();
            consider(node);
            keyspace.forEachChild(node, [&](NodeId child) { stack.push_back(child); });
        }
    }
    std::sort_heap(heap.begin(), heap.end(), bigger);
    return heap;
}

} // namespace keylens::keyspace
