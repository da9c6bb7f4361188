#pragma once

#include "history/Snapshot.h"

#include <cstddef>
#include <optional>

namespace keylens::history {

// Lists a snapshot's namespaces the one way every source of one does (a scan's store, a report, a report's JSON).
// The source adds them parents first, breadth first, so that the total cap cuts the deepest levels: a namespace past
// it is summed into its parent's Unlisted, never listed without its parent. The depth the snapshot lists grows with
// each level added.
class NamespaceLister
{
public:
    NamespaceLister(Snapshot& snapshot, std::size_t total);

    // The namespace's index in the snapshot, or nothing when the cap summed it into its parent's Unlisted.
    std::optional<std::uint32_t> add(SnapshotNamespace entry);

    // What the source left out under `parent` (SnapshotNamespace::TopLevel for the top level).
    Unlisted& unlistedUnder(std::uint32_t parent);

private:
    Snapshot& m_snapshot;
    std::size_t m_total;
};

} // namespace keylens::history
