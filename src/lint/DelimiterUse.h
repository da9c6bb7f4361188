#pragma once

#include "keyspace/Keyspace.h"

#include <cstdint>
#include <vector>

namespace keylens::lint {

// Another delimiter that a keyspace's keys use beside the store's own: `users/104/avatar_url` in a keyspace split
// on ':'. A key uses a byte as a delimiter when it stands between an id and a word (segmentUnits()), not inside a
// word (`avatar_url`) or inside an id (an IPv4's dots, a date's dashes).
struct DelimiterUse
{
    char delimiter = 0;
    std::uint64_t keys = 0; // keys with at least one such use
};

// The bytes of / . | that are not the store's delimiters and that at least 1 % of its keys (and 10) use, most
// used first: the ones worth splitting on too (`--delimiter ':/'`). One pass over the nodes, each distinct segment
// read once.
std::vector<DelimiterUse> otherDelimitersUsed(const keyspace::Keyspace& store);

} // namespace keylens::lint
