#pragma once

#include "keyspace/Keyspace.h"
#include "lint/FamilyConventions.h"
#include "lint/Profile.h"

#include <QByteArray>

#include <cstdint>
#include <functional>
#include <vector>

namespace keylens::lint {

// key-length by pattern. Long names are a pattern's habit more often than a key's slip: a rate limiter that appends
// an address and a window to a long prefix (`myapp:v3:throttle.login.<ip>.<int>`) has half its keys over 44 bytes
// (an IPv6 address is longer than an IPv4 one), so its family is not folded (FamilyConventions.h wants nine in ten),
// and each of them made a finding of its own. Where at least MinimumKeys keys of one pattern (lint::patternOfKey) are
// over the profile's threshold, they are one finding instead, on the pattern's first such key: how many keys, the
// longest, and how many bytes their names would take less cut to the threshold. Its severity is the worst its keys
// had (a name over the warning threshold stays a warning). Their own findings are taken back as a family's are.
class LengthPatterns
{
public:
    static constexpr std::uint32_t MinimumKeys = 10;

    // The keys' key-length findings are the store's, but those `folded` says are folded already (into a family's, or
    // taken back from a library's keys); none when it is empty. Each key's finding folded into its pattern's is
    // handed to `sink` (in node order), the patterns' findings returned with the patterns folded
    // (FamilyFolding::foldedLengthPatterns). Reads the store only.
    static FamilyFolding fold(const keyspace::Keyspace& store, const Profile& profile,
                              const std::function<bool(keyspace::NodeId)>& folded,
                              const FamilyConventions::FoldedSink& sink);
};

} // namespace keylens::lint
