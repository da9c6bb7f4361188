#pragma once

#include "keyspace/Keyspace.h"
#include "keyspace/Units.h"
#include "lint/Profile.h"
#include "lint/Rules.h"
#include "lint/SegmentShapes.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace keylens::lint {

// Families of keys that follow a convention of their own.
//
// A keyspace is written by several libraries and parts of an application, each with its own habits: phpredis names
// sessions `PHPREDIS_SESSION:<id>`, Symfony `sf_s<id>`, koa-session a bare UUID, a cache `geo|<lat>,<lon>`. The naming
// rules judge every key against the profile's convention, so they fire on every key of such a family, and a thousand
// findings of one library's habit bury the few that say something (and a user cannot rename a library's keys).
//
// A family is the keys whose words (FamilyWords.h) start with the same word, whatever joins them; its sub-families
// add the next word or id, then the one after (`stats`, `stats errors`, `stats errors <int>`). Where nine keys in ten
// of a family break one naming rule (the family *consistently* uses another delimiter, upper case, ids first, long or
// binary names…), the family gets one finding of that rule, on its first key, that says what it does, on how many keys
// and how much memory; its keys' own findings of that rule are folded into it. Where a family is mixed, each
// sub-family is asked the same; what is left, a key that breaks its own family's convention, keeps its own finding.
//
// A family's own habit is information, unless it costs (key-length where the names are a third of the keys' memory or
// more; timestamp-in-key where most of the keys never expire) or the keyspace has a convention of its own that the
// family breaks (most of its keys break none of these rules: the application's keys follow the profile): then it
// keeps the worst severity its keys had.

// A key's own finding folded into its family's.
struct FoldedKeyFinding
{
    keyspace::NodeId node;
    std::uint8_t rule;     // index in allRules()
    std::uint8_t severity; // the one it was recorded with
};

// What one finding stands for where it was folded from many keys' (a family's, a pattern's): the keys it covers and
// their memory, so that the findings' groups count them, not the one key it is recorded on.
struct CoveredFinding
{
    keyspace::NodeId node;
    std::uint8_t rule; // index in allRules()
    std::uint64_t keys;
    keyspace::MemoryFigure memory;
};

// One family's finding (or one pattern's: LengthPatterns.h), recorded on its first key.
struct FamilyFinding
{
    keyspace::NodeId node;
    const RuleInfo* rule;
    Severity severity;
    QByteArray detail;
    std::uint64_t keys = 1;        // the keys it covers
    keyspace::MemoryFigure memory; // theirs
};

struct FamilyFolding
{
    std::vector<FamilyFinding> findings;
    std::vector<QString> notices;
    // The folded families by their words (joined by '\0'), with the rules folded in each (bits by rule index): a key
    // written or changed after the scan is judged as its family was.
    std::vector<std::pair<QByteArray, std::uint32_t>> foldedWords;
    // The patterns whose key-length findings were folded into one (LengthPatterns.h), sorted: a key of one written
    // after the scan is judged as its pattern was.
    std::vector<QByteArray> foldedLengthPatterns;

    // The rules folded into the family of `key` (bits by rule index).
    std::uint32_t foldedRules(QByteArrayView key, const keyspace::Delimiters& delimiters) const;
};

// The naming rules a family may follow a convention of its own for (bits by rule index).
std::uint32_t familyConventionRules();

class FamilyConventions
{
public:
    // Nine keys in ten: a family's habit, not a few keys' slips.
    static constexpr double ConsistentShare = 0.9;
    // Fewer keys are listed one by one as readily as one finding.
    static constexpr std::uint32_t MinimumKeys = 10;
    // key-length costs memory where the names are this share of the keys' memory or more.
    static constexpr double CostlyNameShare = 1.0 / 3.0;
    // Families and sub-families told apart; a keyspace of more distinct first words keeps the rest's findings per key
    // (and a notice says so): 60 bytes each, so a keyspace of unique words cannot grow the table without bound, and a
    // namespace's family is two bytes.
    static constexpr std::size_t MaximumFamilies = (1 << 16) - 1;

    // Counts the families of a store and their keys' findings, and decides which rules each folds: it only reads the
    // store (beside the namespace rules, on another thread). `skipped`: subtrees judged otherwise (a library's, exempt
    // from the naming rules). `shapes`, when given, holds the store's segments classified already.
    FamilyConventions(const keyspace::Keyspace& store, const Profile& profile,
                      const std::vector<keyspace::NodeId>& skipped, const SegmentShapes* shapes = nullptr);
    ~FamilyConventions();
    FamilyConventions(const FamilyConventions&) = delete;
    FamilyConventions& operator=(const FamilyConventions&) = delete;

    // Hands each key's finding folded into its family's to `folded`, one by one (a few hundred thousand at a million
    // keys: not kept in a list), in node order, and says the families' findings. The store's findings must be those
    // counted; it is only read, and `folded` may take the finding back from it at once (the counts by severity then
    // read are the key's others'). Once.
    using FoldedSink = std::function<void(const FoldedKeyFinding&)>;
    FamilyFolding fold(const FoldedSink& folded);

private:
    class Pass;
    std::unique_ptr<Pass> m_pass;
};

} // namespace keylens::lint
