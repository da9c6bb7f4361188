#pragma once

#include "keyspace/Keyspace.h"

#include <vector>

namespace keylens::keyspace {

// The `count` biggest keys by measured memory at or below `under` (the root for the whole keyspace),
// biggest first; ties broken by node id so the order is stable.
std::vector<NodeId> topKeysByMemory(const Keyspace& keyspace, std::size_t count, NodeId under = Keyspace::root());

} // namespace keylens::keyspace
