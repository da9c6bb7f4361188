#pragma once

#include "keyspace/NamespaceStats.h"
#include "lint/Profile.h"
#include "lint/Rules.h"
#include "lint/SegmentShape.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QVarLengthArray>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace keylens::lint {

struct KeyFinding
{
    const RuleInfo* rule;
    Severity severity;
    // What in the key made it fire, for the message. Often the key's own bytes, not copied (QByteArray::fromRawData):
    // valid while the key's bytes are; copy it to keep it.
    QByteArray detail;
};
// On the stack for the few a key has: checked a million times a scan, most keys with one finding or two.
using KeyFindings = QVarLengthArray<KeyFinding, 4>;

// Runs the profile's key-level rules on one key: at most one finding per rule, none for a key the
// profile ignores. Pure: no server, no store, so it runs in the ingest path as keys arrive. Ids (see
// SegmentShape) are never judged as words. The rules that need other keys run in NamespaceRules.
//
// `classes`, when not empty, holds the class of each of the key's segments (split on the profile's delimiters), known
// already (SegmentShapes.h): they are not classified again. Of another length, it is not used.
KeyFindings checkKey(QByteArrayView key, const keyspace::KeyInfo& info, const Profile& profile,
                     std::span<const SegmentClass> classes = {});
// checkKey for a key the caller knows the profile does not ignore (it asked already): the profile's globs are not
// matched twice.
KeyFindings checkKeyNotIgnored(QByteArrayView key, const keyspace::KeyInfo& info, const Profile& profile,
                               std::span<const SegmentClass> classes = {});

// The severity key-length gives a key of `length` bytes (before a profile's own for the rule); none up to the profile's
// first threshold.
std::optional<Severity> keyLengthSeverity(std::uint64_t length, const Profile& profile);
// The severity timestamp-in-key gives a key: time buckets that expire are advice; without a TTL they pile up.
Severity timestampSeverity(bool expires);

} // namespace keylens::lint
