#pragma once

#include "keyspace/Keyspace.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace keylens::patterns {

// An IPv6 address that the store's `:` split into levels: `rl:2001:db8::/56` is the nodes `rl`, `2001`, `db8`, ``
// and `/56`; `LIMITER/fe80::1c2:4e/search/hour` is `LIMITER/fe80`, ``, `1c2` and `4e/search/hour`. The pattern tree
// folds such a run of levels into one `<ip>` (or `<cidr>`) level, whose members are the nodes where the address ends.
struct AddressEnd
{
    keyspace::NodeId node;
    bool prefix = false; // a `/56` after the address: a CIDR
    // The unit of the node's segment after the address (and its prefix), for a segment that goes on past it
    // (`4e/search/hour`: 1, `search`); 0 when the address ends the segment.
    std::uint16_t nextUnit = 0;
    char delimiterAfter = 0; // the inner delimiter after the address, when the segment goes on
};

struct SplitAddress
{
    std::vector<AddressEnd> ends;
    std::vector<keyspace::NodeId> inside; // the start and the levels between it and the ends
};

// The addresses that start at `start`, whose own first group is `group` (its whole segment, or the segment's last
// unit after an inner delimiter: `fe80` in `LIMITER/fe80`), when every path below it completes an IPv6 address
// within eight groups. Nothing when one path does not (`user:1:profile`, `ts:2026:11:03`): then no level folds.
std::optional<SplitAddress> splitAddressFrom(const keyspace::Keyspace& store, keyspace::NodeId start,
                                             QByteArrayView group);

} // namespace keylens::patterns
