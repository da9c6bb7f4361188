#pragma once

#include "keyspace/NodeId.h"

#include <cstdint>

namespace keylens::models {

// A node of the session's store together with which store that was: each scan builds a new store whose node ids
// start again from 0, so an id kept across a rescan (a dialog's plan, the treemap's shown namespace, a queued click)
// would name another key. KeyspaceView answers nothing for a reference to a store it no longer holds.
struct NodeRef
{
    keyspace::NodeId node = keyspace::InvalidNode;
    std::uint64_t generation = 0; // KeyspaceView::generation() when it was taken; 0 for no store

    bool isNull() const { return node == keyspace::InvalidNode; }
    bool operator==(const NodeRef&) const = default;
};

} // namespace keylens::models
