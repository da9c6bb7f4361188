#pragma once

#include <cstdint>

namespace keylens::keyspace {

class Keyspace;

// A node of one store (Keyspace.h): an index into its arrays, meaningful only with the store it came from. The
// GUI hands it around as models::NodeRef, which also says which store that was.
using NodeId = std::uint32_t;
inline constexpr NodeId InvalidNode = 0xffffffffu;
inline constexpr NodeId RootNode = 0;

} // namespace keylens::keyspace
