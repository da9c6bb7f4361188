#pragma once

#include "keyspace/Delimiters.h"
#include "keyspace/KeyGlob.h"
#include "lint/Rules.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace keylens::lint {

// Whether a rule runs, and the severity a profile gives it instead of the rule's own.
struct RuleSetting
{
    bool enabled = true;
    std::optional<Severity> severity;
};

// A naming convention: which rules run, how severe they are, and every threshold and word list they
// read. The built-in `default` and `strict`, or a JSON file (see ProfileFile.h and
// resources/profiles/example.json).
struct Profile
{
    QString name = QStringLiteral("default");
    keyspace::Delimiters delimiters; // the store's: a key's levels are split on any of them
    std::vector<RuleSetting> rules = std::vector<RuleSetting>(allRules().size()); // parallel to allRules()

    // key-length: above each threshold (bytes) the finding takes the next severity.
    std::uint32_t keyLengthInfo = 44;
    std::uint32_t keyLengthWarning = 100;
    std::uint32_t keyLengthError = 1024;
    // deep-nesting
    std::uint32_t maxSegments = 6;
    // missing-ttl: namespaces whose keys should all expire (first segment, lower case).
    std::vector<QByteArray> volatileNamespaces = {"cache", "temp", "tmp",       "session", "sess",
                                                  "lock",  "rate", "ratelimit", "otp"};
    // cryptic-abbreviation: short words that are not cryptic, lower case.
    std::vector<QByteArray> aliases = {"db", "id", "ip", "io", "ui", "os", "qa", "ok", "eu", "us", "uk", "en"};
    // unknown-namespace: the top-level namespaces a keyspace may have; empty allows any.
    std::vector<QByteArray> allowedNamespaces;
    // synonym-siblings: words that mean the same, lower case.
    std::vector<std::vector<QByteArray>> synonymGroups = {{"detail", "details", "info", "data"},
                                                          {"settings", "prefs", "preferences", "config", "conf"},
                                                          {"profile", "account"},
                                                          {"count", "counter", "cnt"},
                                                          {"list", "items", "all"},
                                                          {"stats", "statistics", "metrics"},
                                                          {"msg", "message", "messages", "msgs"}};
    // env-prefixes: words that name a deployment environment, lower case.
    std::vector<QByteArray> environments = {"prod",    "production",  "staging", "stage", "stg", "dev",
                                            "develop", "development", "test",    "qa",    "uat", "preprod"};
    // expiry-avalanche: at least `share` of a namespace's (at least `minimumKeys`) expiring keys fall
    // within `windowSeconds` of one moment.
    std::uint32_t avalancheWindowSeconds = 60;
    double avalancheShare = 0.5;
    std::uint32_t avalancheMinimumKeys = 100;
    // data-in-key: a last segment that takes 2..maximumValues words over at least minimumKeys ids.
    std::uint32_t dataInKeyMinimumKeys = 20;
    std::uint32_t dataInKeyMaximumValues = 8;
    // cold-data: a cold key is a warning, not an info, where its namespace holds at least `share` of its memory
    // cold and at least `minBytes` of it.
    double coldDataShare = 0.5;
    std::uint64_t coldDataMinimumBytes = 64ull << 20;
    // Keys nobody should be told about (a library's own layout), as SCAN MATCH globs.
    std::vector<keyspace::KeyGlob> ignore;
    // The keys of a recognised library layout (LibraryLayouts.h) skip the naming rules; the memory and TTL
    // rules still judge them (a BullMQ queue that keeps every completed job is a real finding).
    bool exemptLibraries = true;
    // A family of keys that consistently follows a convention of its own (another delimiter, upper case, ids first…)
    // gets one finding per rule, not one per key (FamilyConventions.h), and so do ten or more keys of one pattern
    // over the key-length threshold (LengthPatterns.h); false judges every key on its own.
    bool foldFamilies = true;
    // The catalogue of library layouts (LibraryLayouts.h) is a bonus, not a crutch: off, no library is named, and
    // every role the TTL rules read comes from the keys' own evidence (RoleEvidence.h), as for a library it never knew.
    bool libraryCatalogue = true;

    bool isEnabled(const RuleInfo& rule) const;
    // The severity a finding gets: the profile's, or else the one the rule computed.
    Severity severityOf(const RuleInfo& rule, Severity computed) const;
    Severity severityOf(const RuleInfo& rule) const { return severityOf(rule, rule.severity); }
    bool isIgnored(QByteArrayView key) const;
    bool isVolatileNamespace(QByteArrayView lowerCaseWord) const;
    bool isAlias(QByteArrayView lowerCaseWord) const;
    // The index of the synonym group that holds the word, if one does.
    std::optional<std::size_t> synonymGroupOf(QByteArrayView lowerCaseWord) const;
};

// The built-in profiles: `default` (`<namespace>:<entity>:<id>:<attribute>`, ids may sit mid-key) and
// `strict` (ids last, keys of at most 44 bytes). Nothing for another name.
std::optional<Profile> builtInProfile(QByteArrayView name);
// The names builtInProfile() knows, in the order help texts list them.
std::vector<QByteArray> builtInProfileNames();

} // namespace keylens::lint
