#pragma once

#include "keyspace/NamespaceStats.h"
#include "lint/Rules.h"

#include <QByteArray>
#include <QByteArrayView>

#include <cstdint>
#include <optional>
#include <vector>

namespace keylens::lint {

// What a profile can change about the key-level rules.
struct KeyRuleSettings
{
    char delimiter = ':';
    std::uint32_t keyLengthInfo = 44; // bytes; above each threshold the finding gets the next severity
    std::uint32_t keyLengthWarning = 100;
    std::uint32_t keyLengthError = 1024;
    int maxSegments = 6;
    bool midKeyId = false; // off in `default` (`user:1001:profile` is its standard), on in `strict`
    // Namespaces whose keys should all expire (first segment, lower case).
    std::vector<QByteArray> volatileNamespaces = {"cache", "temp", "tmp",       "session", "sess",
                                                  "lock",  "rate", "ratelimit", "otp"};
    // Short words that are not cryptic (`db`, `ip`…), lower case.
    std::vector<QByteArray> aliases = {"db", "id", "ip", "io", "ui", "os", "qa", "ok", "eu", "us", "uk", "en"};
};

// The built-in profiles: `default` (`<namespace>:<entity>:<id>:<attribute>`, ids may sit mid-key) and
// `strict` (ids last, keys of at most 44 bytes). Nothing for another name.
std::optional<KeyRuleSettings> builtInProfile(QByteArrayView name);

struct KeyFinding
{
    const RuleInfo* rule;
    Severity severity;
    QByteArray detail; // what in the key made it fire, for the message
};

// Runs every key-level rule on one key: at most one finding per rule. Pure: no server, no store, so it
// can run in the ingest path as keys arrive. Ids (see SegmentShape) are never judged as words. With the
// aggregates of the key's namespace (`siblings`; none for a key at the root), a persistent key among
// keys that nearly all expire is a missing-ttl finding too.
std::vector<KeyFinding> checkKey(QByteArrayView key, const keyspace::KeyInfo& info, const KeyRuleSettings& settings,
                                 const keyspace::NamespaceStats* siblings = nullptr);

} // namespace keylens::lint
