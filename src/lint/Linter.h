#pragma once

#include "keyspace/Keyspace.h"
#include "keyspace/NodeMap.h"
#include "keyspace/PagedArray.h"
#include "lint/FamilyConventions.h"
#include "lint/KeyRules.h"
#include "lint/LibraryLayouts.h"
#include "lint/Profile.h"
#include "lint/ValueSamples.h"

#include <QByteArray>
#include <QByteArrayList>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_set>
#include <vector>

namespace keylens::lint {

struct Finding
{
    const RuleInfo* rule;
    Severity severity;
    QByteArray key;
    QByteArray detail;
    // What it rests on, in short strings ("word: cache", "ttl-contrast: …"), where the rule said; evidenceOf() (in
    // FindingEvidence.h) says it for every finding.
    QByteArrayList evidence;
};

// The findings of the namespace-level rules, not yet recorded: judged on a worker thread, recorded by the
// store's owner a slice at a time (Linter::judge, Linter::apply).
struct Judgement
{
    // Twelve bytes, in pages: a keyspace of ten million keys can have millions of them, held while the GUI
    // records them in slices (a vector of 24-byte verdicts, doubling as it grew, was the window's peak).
    struct Verdict
    {
        keyspace::NodeId node;
        std::uint32_t detail; // index in details
        std::uint8_t rule;    // index in allRules()
        Severity severity;
    };
    // A key-level naming finding taken back: the key turned out to be a library's (Profile::exemptLibraries).
    struct Retraction
    {
        keyspace::NodeId node;
        std::uint8_t rule;     // index in allRules()
        std::uint8_t severity; // the one it was recorded with
    };
    LibraryLayouts libraries;
    std::vector<Retraction> retractions; // recorded before the verdicts
    static_assert(sizeof(Verdict) == 12);
    keyspace::detail::PagedArray<Verdict> verdicts;
    std::vector<QByteArray> details;      // a detail is shared by the many keys of one group
    std::vector<QByteArrayList> evidence; // parallel to details
    std::vector<QString> notices;
    // The families whose own convention folded their keys' findings (FamilyConventions.h), and the patterns whose
    // long names did (LengthPatterns.h): the folded findings are among the retractions, the families' and patterns'
    // findings among the verdicts, with the keys each covers.
    std::vector<std::pair<QByteArray, std::uint32_t>> foldedFamilies;
    std::vector<QByteArray> foldedLengthPatterns;
    std::vector<CoveredFinding> covered;
    // The linter's table of naming-variants targets, sized on the judging thread for all of them: grown one
    // finding at a time on the GUI thread, a million entries' rehashes held it for 50-70 ms each.
    keyspace::NodeMap<std::uint32_t> variantTargets;
    bool variantTargetsTaken = false;
    std::size_t retracted = 0;
    std::size_t applied = 0;
};

// One rule's findings over a keyspace: exact counts, and the first examples.
struct RuleSummary
{
    const RuleInfo* rule = nullptr;
    std::uint64_t findings = 0;
    std::array<std::uint64_t, 3> bySeverity{}; // indexed by Severity
    std::vector<Finding> examples;
};

// Lints one store with one profile, in two steps: the key-level rules as each key enters the store
// (keyAdded, from the one ingest path, so findings fill in live during a scan), and the rules that need
// the whole keyspace once every key is in (finish). Every finding is recorded in the store (per-key
// rule bits, per-node counts by severity: the tree's findings column) and here (exact counts per rule,
// the first examples): the GUI and the CLI report the same numbers because they run this same object.
// One finding per key and rule.
//
// Used on the thread that owns the store.
class Linter
{
public:
    // maxExamples 0 keeps every finding.
    Linter(Profile profile, std::size_t maxExamples);
    ~Linter();
    Linter(const Linter&) = delete;
    Linter& operator=(const Linter&) = delete;

    const Profile& profile() const { return m_profile; }
    // Where the rules may read a few values per pattern (RoleEvidence.h) when they finish or judge: the end of a scan
    // sets it (inspect::valueSourceFor), before finish() or judge(). None by default.
    void setValueSource(ValueSource values) { m_values = std::move(values); }
    // The server's maxmemory-policy evicts any key (allkeys-*): a key without a TTL is evicted under memory
    // pressure, so missing-ttl is only information there. Set as soon as the server is known, before the first key.
    void setServerEvictsAllKeys(bool evicts) { m_evictsAllKeys = evicts; }
    static bool evictsAllKeys(QByteArrayView maxmemoryPolicy) { return maxmemoryPolicy.startsWith("allkeys-"); }

    // The key-level rules on a key that has just been stored as `node`. `shapes`, when given, holds the store's
    // segments classified already, its own (SegmentShapes.h) included: the key's segments are not classified again.
    void keyAdded(keyspace::Keyspace& store, keyspace::NodeId node, QByteArrayView key, const keyspace::KeyInfo& info,
                  const SegmentShapes* shapes = nullptr);
    // A key about to leave the store (deleted or renamed away through Keylens): its findings are taken back, from
    // the store's counts and from this linter's. Call before Keyspace::removeKey.
    void keyRemoved(keyspace::Keyspace& store, keyspace::NodeId node);
    // A key whose facts change (a TTL set or removed): the key-level rules judge it again; the namespace-level
    // findings it has stay until the next scan. Call before Keyspace::updateKey.
    void keyChanged(keyspace::Keyspace& store, keyspace::NodeId node, const keyspace::KeyInfo& info);
    // The spelling a naming-variants finding on this key says to migrate to (`user:<int>`), if it has one.
    std::optional<QByteArray> namingVariantTarget(keyspace::NodeId node) const;
    // A rename plan for every key flagged naming-variants: each key and its name in the target spelling, by key
    // (keys whose ids do not fit the target's placeholders are left out).
    std::vector<std::pair<keyspace::NodeId, QByteArray>> namingVariantRenames(const keyspace::Keyspace& store) const;
    // keyAdded for every key of a store filled without this linter.
    void lintKeys(keyspace::Keyspace& store);
    // The rules over the whole keyspace: naming variants, synonyms, data in keys, expiry avalanches,
    // environment and version prefixes, stray persistent keys. Once, after the last key.
    // `members`: the sets LibraryLayouts::keysToRead() names, as far as they could be read.
    // `shapes`, when given, holds the store's segments classified already (SegmentShapes.h), so that the passes
    // after the scan read a byte instead of classifying a node's bytes once per node.
    void finish(keyspace::Keyspace& store, const SetMembers& members = {}, const SegmentShapes* shapes = nullptr);
    // finish() in two steps, for a GUI that cannot stop for it: judge() only reads the store and the profile
    // (another thread may run it while the store's owner reads the store and writes nothing to it, nor
    // calls this linter); apply() records up to `count` verdicts on the owner's thread, and returns true
    // once all are recorded: the linter is then finished.
    Judgement judge(const keyspace::Keyspace& store, const SetMembers& members = {}) const;
    bool apply(keyspace::Keyspace& store, Judgement& judgement, std::size_t count);
    bool isFinished() const { return m_finished; }
    // big-string and big-collection, from a key's length (STRLEN or the element count: one O(1) command
    // per bigKeyCandidates() key, after the scan).
    void lengthKnown(keyspace::Keyspace& store, keyspace::NodeId node, std::uint64_t length);

    // In catalogue order, rules without findings left out.
    std::vector<RuleSummary> summaries() const;
    std::uint64_t findings() const;
    std::uint64_t findings(Severity severity) const;
    std::uint64_t keysLinted() const { return m_keys; }
    // Counts every change of the keys linted and of their findings: a view of them made at another count is out of
    // date, also where the figures came back to the same (a key with a finding renamed to one without is a finding
    // less, then a key more).
    std::uint64_t changes() const { return m_changes; }
    // The worst severity found, if any finding was.
    std::optional<Severity> worst() const;
    // Notes on what the linter could not do in full (a table cap reached), for the reports.
    const std::vector<QString>& notices() const { return m_notices; }
    // The library layouts found when the linter finished (none before, or when the profile does not
    // exempt libraries).
    const LibraryLayouts& libraries() const { return m_libraries; }
    // The findings that stand for many keys (a family's, a pattern's), with the keys each covers: the findings'
    // groups count those (report::FindingGroups). Once finished.
    const std::vector<CoveredFinding>& coveredFindings() const { return m_covered; }

    // Records one finding on a key (ignored keys and disabled rules are left out; a second finding of one
    // rule on one key counts once). The key's bytes are read from the store only for an example.
    void record(keyspace::Keyspace& store, keyspace::NodeId node, const RuleInfo& rule, Severity severity,
                QByteArrayView detail, QByteArrayView key = {}, const QByteArrayList& evidence = {});

private:
    // record() but the store: counts the finding and keeps its example, and says the severity to store it with, or
    // nothing for a disabled rule or one already on the key.
    std::optional<Severity> admit(const keyspace::Keyspace& store, keyspace::NodeId node, const RuleInfo& rule,
                                  Severity severity, QByteArrayView detail, QByteArrayView key,
                                  const QByteArrayList& evidence = {});
    // The namespace rules' verdicts, with the naming ones on a library's keys left out.
    template<typename Record>
    void runNamespaceRules(const keyspace::Keyspace& store, const LibraryLayouts& libraries,
                           std::vector<QString>* notices, Record&& record,
                           const std::function<void()>& beforeRecording = {},
                           const SegmentShapes* shapes = nullptr) const;
    template<typename Record>
    void recordLibraryKeysWithoutTtl(const keyspace::Keyspace& store, const LibraryLayouts& libraries,
                                     const std::unordered_set<keyspace::NodeId>& recorded, Record&& record) const;
    void retract(keyspace::Keyspace& store, const Judgement::Retraction& retraction);
    // Takes back the key's findings of the rules in `rules` (bits by rule index).
    void takeBack(keyspace::Keyspace& store, keyspace::NodeId node, std::uint32_t rules);
    // Drops the examples of keys that lost their findings to a retraction.
    void forgetRetractedExamples(const keyspace::Keyspace& store);
    // The families that follow a convention of their own, counted (a library's keys left to its exemption); none when
    // the profile judges every key on its own.
    std::unique_ptr<FamilyConventions> countFamilies(const keyspace::Keyspace& store, const LibraryLayouts& libraries,
                                                     const SegmentShapes* shapes) const;
    // Folds the findings of the families counted into theirs (records them and takes the keys' own back).
    void foldFamilies(keyspace::Keyspace& store, FamilyConventions& families);
    // Then the key-length findings left, by pattern (LengthPatterns.h).
    void foldLengthPatterns(keyspace::Keyspace& store);
    // Records the folded findings of a family or pattern, and the keys each covers.
    void recordFolded(keyspace::Keyspace& store, const std::vector<FamilyFinding>& findings);
    // The rules folded into the family of a key (bits by rule index): none before the linter is finished.
    std::uint32_t foldedRules(QByteArrayView key) const;

    Profile m_profile;
    ValueSource m_values;
    bool m_evictsAllKeys = false;
    LibraryLayouts m_libraries;
    std::size_t m_maxExamples;
    const RuleInfo* m_missingTtl; // rules record() treats apart, looked up once
    const RuleInfo* m_namingVariants;
    std::vector<RuleSummary> m_byRule; // parallel to allRules()
    std::vector<QString> m_notices;
    // naming-variants: each flagged key's target spelling, interned (a few spellings for many keys).
    keyspace::NodeMap<std::uint32_t> m_variantTarget;
    std::vector<QByteArray> m_variantSpellings;
    FamilyFolding m_families; // its foldedWords and foldedLengthPatterns, once finished
    std::vector<CoveredFinding> m_covered;
    std::uint64_t m_keys = 0;
    std::uint64_t m_changes = 0;
    bool m_finished = false;
};

} // namespace keylens::lint
