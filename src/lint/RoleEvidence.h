#pragma once

#include "keyspace/Keyspace.h"
#include "lint/LibraryLayouts.h"
#include "lint/PatternIndex.h"
#include "lint/Rules.h"
#include "lint/ValueSamples.h"
#include "lint/ValueShape.h"

#include <QByteArray>
#include <QByteArrayList>
#include <QHash>
#include <QString>

#include <array>
#include <functional>
#include <vector>

namespace keylens::lint {

// missing-ttl from the keys' own evidence, for keys no catalogue knows: which patterns hold caches, sessions, locks
// and temporary keys that should expire, and which hold a queue's or a broker's that should not. Each verdict says
// what it rests on, in short strings (the findings' "evidence"):
// - ttl-contrast: in one pattern most keys expire and these do not; or, in one family (the keys under one first
//   unit: `shop_catalogue:`, `shopfront-cache-`), patterns of the same kind of values expire and this one never does;
// - word: a whole word of the pattern (`cache`, `session`, `lock`, `tmp`, `otp`, `throttle`…; RoleWords.h);
// - value: the first bytes of a few values per pattern (a serialization, JSON with an expiry field, a random token;
//   ValueShape.h), never a whole value, from the server (GETRANGE, in NO-TOUCH mode where it has it) or an RDB file;
// - access, where measured: keys without a TTL that nothing has read for long, beside keys that are read;
// - index: a set, sorted set or list without a TTL whose members (a few read per pattern: SRANDMEMBER key 5,
//   ZRANGE key 0 4, LRANGE key 0 4, or an RDB file's first members) are the names of keys that expire. Such an index
//   (a tag's set of cache entries, "the keys of X") outlives the entries it lists, and the names of those gone pile up
//   in it. The names are looked up in the scanned store, which knows each key's TTL; no member is asked of the server.
// A word, a value's shape, an index of expiring keys or a pattern that nearly all expires is enough alone; weaker hints
// (most keys of the pattern expire, a random token, unread keys) count in twos. A queue's keys are told apart by their
// structure (hashes of jobs beside lists, sorted sets or streams; the lists themselves) and words (`queue`, `jobs`),
// and are never flagged.
//
// Fed as the pattern index is built (addKey, its visitor), judged once after it (judge: may block on the server), then
// recorded (record). Reads the store only; one thread at a time.
class RoleEvidence
{
public:
    using PatternId = PatternIndex::PatternId;
    using Record = std::function<void(keyspace::NodeId key, const RuleInfo& rule, Severity severity,
                                      QByteArrayView detail, const QByteArrayList& evidence)>;

    explicit RoleEvidence(const keyspace::Keyspace& store);

    // A key of `pattern`, as the index counts it.
    void addKey(keyspace::NodeId key, PatternId pattern);
    // The verdicts, once every key is in. Values are asked of `values` for a few keys per pattern that may hold them.
    void judge(PatternIndex& patterns, const ValueSource& values);
    // Whether the pattern's keys are a queue's or broker's by their evidence: judge() first.
    bool isQueueLike(PatternId pattern) const;
    // Records missing-ttl on each key without a TTL of the patterns judged to expire.
    void record(PatternIndex& patterns, const Record& record) const;
    // What could not be judged in full (values left unread), for the report.
    const std::vector<QString>& notices() const { return m_notices; }

    // Patterns whose values are read, at most (a few keys each), the most keys first.
    static constexpr std::size_t MaximumSampledPatterns = 2000;
    static constexpr std::size_t SamplesPerPattern = 3;
    // Collections without a TTL whose members are read, per pattern; a list only up to this much memory (its
    // elements may be payloads, not names: five of them are read whole).
    static constexpr std::size_t IndexSamplesPerPattern = 2;
    static constexpr std::uint64_t LargestSampledList = 64 * 1024;
    // An index: at least this many of its sampled members name keys that expire, nearly none a key without a TTL, and
    // at least a quarter of them name a key at all (the others name keys that are gone).
    static constexpr std::uint32_t IndexMinimumNames = 2;

private:
    struct Facts
    {
        std::uint32_t keys = 0;
        std::uint32_t ttlKnown = 0;
        std::uint32_t withTtl = 0;
        std::uint32_t strings = 0;
        std::uint32_t hashes = 0;
        std::uint32_t queueTypes = 0;  // lists, sorted sets, streams
        std::uint32_t accessKnown = 0; // keys whose idle time was measured
        std::uint32_t cold = 0;        // of them, unread for longer than the cold threshold
        std::uint32_t persistentAccessKnown = 0;
        std::uint32_t coldPersistent = 0;
        keyspace::NodeId firstKey = keyspace::InvalidNode;
        // A few strings whose values may be read: without a TTL (what would be flagged), and with one (what the
        // family's expiring keys hold).
        std::array<keyspace::NodeId, 2> persistent{};
        keyspace::NodeId expiring = keyspace::InvalidNode;
        std::uint8_t persistentSampled = 0;
        // Sets, sorted sets and lists without a TTL whose members may be read: an index of other keys?
        std::uint32_t collections = 0; // sets, sorted sets and lists
        std::array<keyspace::NodeId, IndexSamplesPerPattern> indexes{};
        std::uint8_t indexSampled = 0;
    };
    // What the members read of a pattern's collections name: keys that expire, keys without a TTL, or nothing (gone,
    // or no key's name).
    struct Named
    {
        std::uint32_t members = 0;
        std::uint32_t expiring = 0;
        std::uint32_t persistent = 0;
        std::uint32_t nothing = 0;
    };
    // The kinds of values read for a pattern's keys without a TTL, and with one.
    struct Sampled
    {
        std::vector<ValueKind> persistent;
        std::vector<ValueKind> expiring;
    };
    struct Verdict
    {
        QByteArray detail;
        QByteArrayList evidence;
    };
    void findFamilies(const PatternIndex& patterns);
    void readValues(PatternIndex& patterns, const ValueSource& source, const std::vector<PatternId>& wanted,
                    const std::vector<PatternId>& indexes);
    void countNamed(PatternId pattern, const QByteArrayList& members);
    void judgePattern(PatternId pattern, const QByteArray& text);
    // Whether a pattern's collections without a TTL are an index of keys that expire: its verdict then.
    bool judgeIndex(PatternId pattern, const QByteArray& text);
    bool queueStructure(const Facts& facts, const QByteArray& text, bool ownRoleWord) const;

    const keyspace::Keyspace& m_store;
    const bool m_accessMeasured;
    std::vector<Facts> m_facts;               // by pattern id
    std::vector<std::uint32_t> m_family;      // by pattern id: its family (the first level's unit)
    std::vector<std::uint8_t> m_queueLike;    // by pattern id, once judged
    QHash<PatternId, Verdict> m_verdicts;     // the patterns whose keys without a TTL are flagged
    QHash<PatternId, Sampled> m_sampled;      // the values read
    QHash<PatternId, Named> m_named;          // what the members read name
    std::vector<std::uint64_t> m_familyKnown; // by family: keys whose TTL is known
    std::vector<std::uint64_t> m_familyTtl;   // by family: of them, with a TTL
    // By family: the kinds of value (ValueKind::signature) its patterns that expire hold, with their keys.
    std::vector<QHash<QByteArray, std::uint64_t>> m_familyExpiringKinds;
    std::vector<QString> m_notices;
};

} // namespace keylens::lint
