#include "lint/Rules.h"

#include <algorithm>
#include <array>

namespace keylens::lint {

namespace {

// Our own words; the seeds are the domain, not the text.
constexpr std::array Catalogue = {
    RuleInfo{"binary-key", Severity::Warning,
             "Bytes that are not printable text cannot be typed, grepped or matched reliably in any tool.",
             "Encode binary identifiers (hex or base64) before they become part of a key."},
    RuleInfo{"key-length", Severity::Info,
             "Long keys cost memory on every copy and comparison; keys up to 44 bytes are stored most compactly.",
             "Shorten long words with documented aliases, and hash long identifiers."},
    RuleInfo{"no-namespace", Severity::Warning,
             "A key without a namespace cannot be matched, measured or granted by prefix.",
             "Put the key under a namespace, as in `order:12345`."},
    RuleInfo{"delimiter", Severity::Warning,
             "Words joined by '_', '-', '.', '/' or '|' instead of ':' hide the hierarchy from prefix scans and tools.",
             "Separate levels with ':' (`user:123:profile`, not `user_123_profile`)."},
    RuleInfo{"uppercase", Severity::Warning,
             "Key matching is case-sensitive: `User:1` and `user:1` are different keys that look alike.",
             "Use lower case for the words of a key."},
    RuleInfo{"special-characters", Severity::Warning,
             "Spaces, quotes, commas, '/', '@', '?', '&', '=' and control bytes break shell scripts and are encoded "
             "differently by clients.",
             "Keep to letters, digits, '-', '_' and the delimiter."},
    RuleInfo{"empty-segment", Severity::Warning,
             "A leading, trailing or doubled delimiter makes an empty level that is easy to miss in a pattern.",
             "Remove the extra delimiter."},
    RuleInfo{"deep-nesting", Severity::Info,
             "Many levels make keys long and patterns brittle; the extra levels usually belong in the value.",
             "Keep keys to a few levels: namespace, entity, id, attribute."},
    RuleInfo{"placeholder-name", Severity::Warning,
             "Names like `key1`, `test` or `foo` say nothing about what they hold, and are often left-overs.",
             "Give the key a name that says what it holds, or delete it."},
    RuleInfo{"id-first", Severity::Warning,
             "A key that starts with an id (or is only one) says nothing about what the id stands for.",
             "Start with the namespace and entity: `user:123:settings`, not `123:user:settings`."},
    RuleInfo{"mid-key-id", Severity::Info,
             "An id in the middle of a key puts the attribute after it, so keys of one kind do not share a prefix.",
             "Put ids last (`order:detail:10086`)."},
    RuleInfo{"timestamp-in-key", Severity::Warning,
             "Dates and times in key names make new keys forever; without a TTL they grow without bound.",
             "Give time-bucketed keys a TTL, or keep the time in a sorted set's score."},
    RuleInfo{"big-string", Severity::Warning,
             "A string above 10 KB blocks the server while it is read, copied or deleted, and skews memory.",
             "Split it, compress it, or keep it outside Redis."},
    RuleInfo{"missing-ttl", Severity::Warning,
             "A key without a TTL in a namespace meant to expire stays until memory runs out.",
             "Set a TTL when writing it (SET … EX), or move it out of the volatile namespace."},
    RuleInfo{"cryptic-abbreviation", Severity::Info,
             "One- or two-letter words (`u:p:c`) save a few bytes and cost every reader the guess.",
             "Spell the word out, or list the abbreviation in the profile's alias map."},
    RuleInfo{"big-collection", Severity::Warning,
             "A collection of more than 5,000 elements makes every full read (HGETALL, SMEMBERS, LRANGE 0 -1) and "
             "every DEL stall the server.",
             "Shard it into several keys, page it with HSCAN/SSCAN/ZSCAN, and delete it with UNLINK."},
    RuleInfo{"unbounded-history", Severity::Warning,
             "A job queue that keeps every finished job grows without end: its history holds memory no one reads.",
             "Let the library trim it: keep a count or an age of finished jobs (the setting is named above)."},
    RuleInfo{"unknown-namespace", Severity::Warning,
             "A top-level namespace that the convention does not list is usually a stray or a typo.",
             "Move the keys under an agreed namespace, or add it to the profile's allowed namespaces."},
    RuleInfo{"naming-variants", Severity::Warning,
             "One thing spelled several ways (`user_123`, `User:123`, `user:123`) splits its keys over several "
             "trees, and code that reads one spelling misses the others.",
             "Migrate every variant to the canonical spelling, then delete the old keys."},
    RuleInfo{"synonym-siblings", Severity::Info,
             "Sibling names that mean the same (`detail` and `info`) make readers guess which one holds the data.",
             "Pick one word for the attribute and rename the others to it."},
    RuleInfo{"data-in-key", Severity::Warning,
             "A value kept as the last segment of the key (`plan:pro`, `plan:free`) cannot be changed without a "
             "rename, and reading it needs a SCAN.",
             "Store the value in the key (a string or a hash field), not in its name."},
    RuleInfo{"expiry-avalanche", Severity::Warning,
             "Keys that all expire in the same moment make a burst of misses that hits the database behind the "
             "cache at once.",
             "Add jitter to TTLs (a random few percent), so expiries spread out."},
    RuleInfo{"env-prefixes", Severity::Warning,
             "Several environments (`prod:`, `staging:`) in one database share its memory and its FLUSHDB; a test "
             "run can evict production keys.",
             "Give each environment its own database or server."},
    RuleInfo{"version-prefixes", Severity::Info,
             "`v1:` and `v2:` trees side by side are usually a migration left half done: the old tree still costs "
             "memory.",
             "Finish the migration and delete the old version's keys, or give them a TTL."},
    RuleInfo{"cold-data", Severity::Info,
             "Keys nothing has read or written for longer than the cold threshold (OBJECT IDLETIME) still cost "
             "memory: a cache that never expires, a feature removed, a migration's leftovers.",
             "Nothing has read these keys in N days (the cold threshold): expire or delete them."},
};
static_assert(Catalogue.size() <= MaximumRules);

} // namespace

QByteArrayView severityName(Severity severity)
{
    switch (severity) {
    case Severity::Info:
        return "info";
    case Severity::Warning:
        return "warning";
    case Severity::Error:
        break;
    }
    return "error";
}

std::optional<Severity> severityFromName(QByteArrayView name)
{
    for (const Severity severity : {Severity::Info, Severity::Warning, Severity::Error}) {
        if (severityName(severity) == name)
            return severity;
    }
    return std::nullopt;
}

std::span<const RuleInfo> allRules()
{
    return Catalogue;
}

const RuleInfo* findRule(QByteArrayView id)
{
    const auto it = std::find_if(Catalogue.begin(), Catalogue.end(),
                                 [&](const RuleInfo& rule) { return QByteArrayView(rule.id) == id; });
    return it == Catalogue.end() ? nullptr : &*it;
}

std::size_t ruleIndex(const RuleInfo& rule)
{
    return std::size_t(&rule - Catalogue.data());
}

bool isNamingRule(const RuleInfo& rule)
{
    const QByteArrayView id(rule.id);
    return id != "big-string" && id != "big-collection" && id != "missing-ttl" && id != "expiry-avalanche" &&
           id != "unbounded-history" && id != "cold-data";
}

} // namespace keylens::lint
