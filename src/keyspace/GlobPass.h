#pragma once

#include "keyspace/KeyGlob.h"
#include "keyspace/Keyspace.h"

#include <cstdint>
#include <span>

namespace keylens::keyspace {

// Which keys of a store a glob matches, decided for the nodes [1, marks.size()) in one pass in node order, for the
// filter box over millions of keys. Building every key's path to match it reads each ancestor's segment at random
// (at ten million keys that was five seconds); this pass instead
//  - follows the glob's literal head down the tree: a node's path starts with it, is still a prefix of it, or left
//    it, known from its parent's answer (parents come before their children), so only the head's own spine is read;
//  - tests the literal tail once per distinct segment, reading the segments in the order they are stored;
//  - builds a key's path only when head and tail cannot decide (`a?b`, `x*y*z`).
// Sets `bit` in marks[node] of every key that matches, and leaves the other bytes as they were. An empty glob is no
// filter, not a pattern for the empty key: it marks nothing.
void markGlobMatches(const Keyspace& store, const KeyGlob& glob, std::span<std::uint8_t> marks, std::uint8_t bit);

} // namespace keylens::keyspace
