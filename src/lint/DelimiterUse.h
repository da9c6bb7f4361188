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
    QByteArray example;     // one of them, to show what splitting on it too does
};

// The bytes of / . | that are not the store's delimiters and that at least 1 % of its keys (and 10) use, most
// used first: the ones worth splitting on too (`--delimiter ':/'`). Not a byte that would leave any key with an
// empty segment (`cache:/api/v1` split on ':/' has one between ':' and '/'): a suggestion never makes the keyspace
// look worse than it did. One pass over the nodes, each distinct segment read once.
std::vector<DelimiterUse> otherDelimitersUsed(const keyspace::Keyspace& store);

} // namespace keylens::lint
