#pragma once

#include "keyspace/Keyspace.h"
#include "lint/Profile.h"
#include "lint/SegmentShapes.h"
#include "lint/ValueSamples.h"

#include <QByteArray>
#include <QByteArrayList>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

namespace keylens::lint {

// The rules that judge a key by the keys around it, run once the whole keyspace is in:
// - naming-variants: patterns that spell the same words differently (see Spelling.h); every key of a
//   variant that is not the canonical spelling;
// - synonym-siblings: siblings (ids merged, so `user:1:detail` and `user:2:info` are siblings) whose
//   words are synonyms in the profile; the keys under every word but the most used;
// - data-in-key: `…:<id>:plan:pro`, `…:<id>:plan:free`: a last segment that takes a few words over many
//   ids, each id holding exactly one;
// - expiry-avalanche: a namespace whose expiring keys mostly expire within one window: one finding, on its first key
//   in that window;
// - env-prefixes: several environment prefixes at the top level; the keys of all but the biggest;
// - version-prefixes: `v1:` beside `v2:` under one parent; the keys of all but the newest;
// - missing-ttl: a persistent key among siblings that nearly all expire, and the keys that their own evidence says
//   should expire (RoleEvidence.h: TTL contrasts, words, a few values, access), a queue's never;
// - cold-data: a key idle past the store's cold threshold; a warning where its namespace holds much memory cold.
//
// run() walks the store once the scan is over, without recursion: three passes over its nodes (synonyms and
// versions; patterns; keys) and one over the namespaces when there are naming variants, then only the
// subtrees and namespaces a verdict names. Nothing is kept per key
// while keys arrive, so linting adds no work to the ingest of a key but its key-level rules.
// A naming-variants finding's detail names the spelling to migrate to; these two write and read it, so a rename
// plan takes its target from the finding itself.
QByteArray namingVariantDetail(const QByteArray& canonical, const QByteArray& variantsListed);
std::optional<QByteArray> canonicalOfNamingVariant(QByteArrayView detail);

class NamespaceRules
{
public:
    // `values`: where the role evidence may read a few values per pattern from (none when empty).
    explicit NamespaceRules(const Profile& profile, ValueSource values = {});

    // `evidence`: what the finding rests on, in short strings (empty where the detail says it all).
    using Record = std::function<void(keyspace::NodeId key, const RuleInfo& rule, Severity severity,
                                      QByteArrayView detail, const QByteArrayList& evidence)>;
    // Gathers over the store (reading only), then calls `beforeRecording` (if any) and records its verdicts: what
    // else reads the store meanwhile on another thread is joined there.
    // `shapes`, when given, holds the store's segments classified already (SegmentShapes.h).
    void run(const keyspace::Keyspace& store, const Record& record, const std::function<void()>& beforeRecording = {},
             const SegmentShapes* shapes = nullptr);

    const std::vector<QString>& notices() const { return m_notices; }

    // Distinct patterns (and prefixes of patterns) kept for naming-variants; past it, new patterns are
    // not compared (and a notice says so), so a keyspace of unique words cannot grow the table without bound.
    static constexpr qsizetype MaximumPatterns = 200'000;

private:
    const Profile& m_profile;
    ValueSource m_values;
    std::vector<QString> m_notices;
};

} // namespace keylens::lint
