#pragma once

#include "keyspace/NamespaceStats.h"
#include "lint/Profile.h"
#include "lint/Rules.h"
#include "lint/SegmentShape.h"

#include <QByteArray>
#include <QByteArrayView>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace keylens::lint {

struct KeyFinding
{
    const RuleInfo* rule;
    Severity severity;
    QByteArray detail; // what in the key made it fire, for the message
};

// Runs the profile's key-level rules on one key: at most one finding per rule, none for a key the
// profile ignores. Pure: no server, no store, so it runs in the ingest path as keys arrive. Ids (see
// SegmentShape) are never judged as words. The rules that need other keys run in NamespaceRules.
//
// `shapes`, when not empty, holds the shape of each of the key's segments (split on the profile's delimiters), known
// already (SegmentShapes.h): they are not classified again. Of another length, it is not used.
std::vector<KeyFinding> checkKey(QByteArrayView key, const keyspace::KeyInfo& info, const Profile& profile,
                                 std::span<const Shape> shapes = {});

} // namespace keylens::lint
