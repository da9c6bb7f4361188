#pragma once

#include "history/Snapshot.h"

#include <QStringList>

#include <optional>
#include <vector>

namespace keylens::history {

enum class ChangeStatus { Grown, Shrunk, New, Gone, Same };
QByteArrayView changeStatusName(ChangeStatus status); // "grown", "shrunk", "new", "gone", "same"

// One namespace or pattern on both sides: `before` unset for a new one, `after` for a vanished one.
struct Change
{
    QByteArray path; // a namespace's path (`session:`) or a pattern (`user:<int>:profile`)
    int depth = 0;   // a namespace's level, 0 at the top
    std::optional<SnapshotStats> before;
    std::optional<SnapshotStats> after;
    ChangeStatus status = ChangeStatus::Same;

    std::int64_t keysDelta() const { return std::int64_t(keysAfter()) - std::int64_t(keysBefore()); }
    std::int64_t memoryDelta() const { return std::int64_t(memoryAfter()) - std::int64_t(memoryBefore()); }
    std::uint64_t keysBefore() const { return before ? before->keys : 0; }
    std::uint64_t keysAfter() const { return after ? after->keys : 0; }
    std::uint64_t memoryBefore() const { return before ? before->memoryBytes : 0; }
    std::uint64_t memoryAfter() const { return after ? after->memoryBytes : 0; }
    // The growth in percent of the memory before; unset for a new one (or one that held no measured memory).
    std::optional<double> memoryGrowthPercent() const;
};

struct RuleChange
{
    QByteArray rule;
    std::uint64_t before = 0;
    std::uint64_t after = 0;
};

struct DiffOptions
{
    int depth = 2;         // namespace levels to compare
    bool patterns = false; // compare the patterns too
};

// Two snapshots compared: per namespace (down to the depth both list) and pattern, biggest memory change first.
struct SnapshotDiff
{
    Snapshot before; // the headers only: their namespaces and patterns are left out
    Snapshot after;
    // What a reader must know before trusting the figures: other servers or databases, a restarted server, another
    // delimiter, a partial scan.
    QStringList caveats;
    Change totals;
    std::vector<Change> namespaces; // by |Δ memory|, then |Δ keys|, then path
    std::vector<Change> patterns;   // the same, with DiffOptions::patterns
    std::vector<RuleChange> findings;
    // Namespaces listed on one side only whose absence on the other proves nothing (the other listed only its
    // biggest siblings there): left out of `namespaces`.
    std::uint64_t notComparable = 0;
    int comparedDepth = 0;
    // Both scans measured every key's memory: only then are memory changes changes (statuses, the growth gate).
    bool memoryCompared = true;
};

SnapshotDiff diffSnapshots(const Snapshot& before, const Snapshot& after, const DiffOptions& options);
// What a reader must know of two scans before trusting their comparison (see SnapshotDiff::caveats), from their
// headers alone: other servers or databases, a restart, another delimiter, a partial side.
QStringList caveatsOf(const Snapshot& before, const Snapshot& after);

// `--fail-on-growth PCT[:BYTES]`: a namespace grew past it when its memory grew more than `percent` of what it was
// and by more than `bytes` (a new namespace, by more than `bytes`).
struct GrowthGate
{
    double percent = 0;
    std::uint64_t bytes = 0;
    bool exceededBy(const Change& change) const;
};

} // namespace keylens::history
