#include "history/SnapshotDiff.h"

#include <QHash>

#include <algorithm>
#include <cmath>

namespace keylens::history {

namespace {

// By memory when both scans measured it, else by keys: a scan without MEMORY USAGE has 0 bytes everywhere.
ChangeStatus statusOf(const Change& change, bool memoryCompared)
{
    if (!change.before)
        return ChangeStatus::New;
    if (!change.after)
        return ChangeStatus::Gone;
    if (memoryCompared && change.memoryDelta() != 0)
        return change.memoryDelta() > 0 ? ChangeStatus::Grown : ChangeStatus::Shrunk;
    if (change.keysDelta() != 0)
        return change.keysDelta() > 0 ? ChangeStatus::Grown : ChangeStatus::Shrunk;
    return ChangeStatus::Same;
}

void sortBySize(std::vector<Change>& changes)
{
    std::sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) {
        const auto memoryA = std::abs(a.memoryDelta()), memoryB = std::abs(b.memoryDelta());
        if (memoryA != memoryB)
            return memoryA > memoryB;
        const auto keysA = std::abs(a.keysDelta()), keysB = std::abs(b.keysDelta());
        if (keysA != keysB)
            return keysA > keysB;
        return a.path < b.path;
    });
}

// Whether `other` proves that a namespace of `origin` is not there: it lists every namespace under the namespace's
// deepest ancestor it has (or at the top), down to the namespace's level. Else the namespace may be among the ones
// it left out (its biggest siblings only), and the absence says nothing.
bool provesAbsent(const Snapshot& other, const QHash<QByteArray, std::uint32_t>& otherIndex, const Snapshot& origin,
                  std::uint32_t entry, int depth)
{
    if (depth >= other.listedDepth)
        return false;
    for (std::uint32_t at = origin.namespaces[entry].parent; at != SnapshotNamespace::TopLevel;
         at = origin.namespaces[at].parent) {
        if (const auto found = otherIndex.constFind(origin.namespaces[at].path); found != otherIndex.constEnd())
            return other.namespaces[*found].unlisted.namespaces == 0;
    }
    return other.unlistedTopLevel.namespaces == 0;
}

QHash<QByteArray, std::uint32_t> indexByPath(const Snapshot& snapshot)
{
    QHash<QByteArray, std::uint32_t> index;
    index.reserve(qsizetype(snapshot.namespaces.size()));
    for (std::size_t i = 0; i < snapshot.namespaces.size(); ++i)
        index.insert(snapshot.namespaces[i].path, std::uint32_t(i));
    return index;
}

Snapshot headerOf(const Snapshot& snapshot)
{
    Snapshot header = snapshot;
    header.namespaces = {};
    header.patterns = {};
    return header;
}

} // namespace

QByteArrayView changeStatusName(ChangeStatus status)
{
    switch (status) {
    case ChangeStatus::Grown:
        return "grown";
    case ChangeStatus::Shrunk:
        return "shrunk";
    case ChangeStatus::New:
        return "new";
    case ChangeStatus::Gone:
        return "gone";
    case ChangeStatus::Same:
        break;
    }
    return "same";
}

std::optional<double> Change::memoryGrowthPercent() const
{
    if (!before || !after || before->memoryBytes == 0)
        return std::nullopt;
    return double(memoryDelta()) * 100.0 / double(before->memoryBytes);
}

QStringList caveatsOf(const Snapshot& before, const Snapshot& after)
{
    QStringList caveats;
    if (before.server.address != after.server.address)
        caveats << QStringLiteral("The two scans are of different servers (%1 and %2).")
                       .arg(QString::fromUtf8(before.server.address), QString::fromUtf8(after.server.address));
    else if (!before.server.runId.isEmpty() && !after.server.runId.isEmpty() &&
             before.server.runId != after.server.runId)
        caveats << QStringLiteral("The server restarted between the two scans (its run_id changed): keys without "
                                  "persistence may be gone for that reason.");
    if (before.server.db != after.server.db)
        caveats << QStringLiteral("The two scans are of different databases (db %1 and db %2).")
                       .arg(before.server.db)
                       .arg(after.server.db);
    if (before.delimiters != after.delimiters)
        caveats << QStringLiteral("The two scans split keys on different delimiters ('%1' and '%2'): their namespaces "
                                  "differ for that reason.")
                       .arg(QString::fromUtf8(before.delimiters), QString::fromUtf8(after.delimiters));
    if (!before.complete)
        caveats << QStringLiteral("The earlier scan did not finish: its figures are lower bounds.");
    if (!after.complete)
        caveats << QStringLiteral("The later scan did not finish: its figures are lower bounds.");
    return caveats;
}

SnapshotDiff diffSnapshots(const Snapshot& before, const Snapshot& after, const DiffOptions& options)
{
    SnapshotDiff diff;
    diff.before = headerOf(before);
    diff.after = headerOf(after);
    diff.caveats = caveatsOf(before, after);
    // Memory is compared only where each scan measured every key's: else its figures are lower bounds, and a scan
    // that was denied MEMORY USAGE would show every namespace shrunk to nothing.
    diff.memoryCompared = before.totals.keysMemoryUnmeasured == 0 && after.totals.keysMemoryUnmeasured == 0;
    for (const auto& [side, snapshot] : {std::pair{"earlier", &before}, std::pair{"later", &after}}) {
        if (snapshot->totals.keysMemoryUnmeasured > 0)
            diff.caveats << QStringLiteral("The %1 scan did not measure the memory of %2 of its %3 keys (MEMORY USAGE "
                                           "denied, skipped or sampled): memory is not compared, namespaces are "
                                           "judged by their keys, and --fail-on-growth cannot be checked.")
                                .arg(QLatin1String(side))
                                .arg(snapshot->totals.keysMemoryUnmeasured)
                                .arg(snapshot->totals.keys);
    }
    diff.totals = {QByteArray(), -1, before.totals, after.totals, ChangeStatus::Same};
    diff.totals.status = statusOf(diff.totals, diff.memoryCompared);
    diff.comparedDepth = std::min({options.depth, before.listedDepth, after.listedDepth});

    const QHash<QByteArray, std::uint32_t> beforeIndex = indexByPath(before), afterIndex = indexByPath(after);
    for (std::uint32_t i = 0; i < before.namespaces.size(); ++i) {
        const int depth = before.depthOf(i);
        if (depth >= diff.comparedDepth)
            continue;
        const SnapshotNamespace& entry = before.namespaces[i];
        Change change{entry.path, depth, entry.stats, std::nullopt, ChangeStatus::Same};
        if (const auto other = afterIndex.constFind(entry.path); other != afterIndex.constEnd())
            change.after = after.namespaces[*other].stats;
        else if (!provesAbsent(after, afterIndex, before, i, depth)) {
            ++diff.notComparable;
            continue;
        }
        change.status = statusOf(change, diff.memoryCompared);
        diff.namespaces.push_back(std::move(change));
    }
    for (std::uint32_t i = 0; i < after.namespaces.size(); ++i) {
        const int depth = after.depthOf(i);
        const SnapshotNamespace& entry = after.namespaces[i];
        if (depth >= diff.comparedDepth || beforeIndex.contains(entry.path))
            continue;
        if (!provesAbsent(before, beforeIndex, after, i, depth)) {
            ++diff.notComparable;
            continue;
        }
        Change change{entry.path, depth, std::nullopt, entry.stats, ChangeStatus::New};
        diff.namespaces.push_back(std::move(change));
    }
    sortBySize(diff.namespaces);

    if (options.patterns && !before.patterns.empty() && !after.patterns.empty()) {
        // The patterns partition each side's keys, all of them listed: one missing on a side is not there.
        QHash<QByteArray, const SnapshotStats*> earlier;
        for (const SnapshotPattern& entry : before.patterns)
            earlier.insert(entry.pattern, &entry.stats);
        for (const SnapshotPattern& entry : after.patterns) {
            Change change{entry.pattern, 0, std::nullopt, entry.stats, ChangeStatus::New};
            if (const auto found = earlier.constFind(entry.pattern); found != earlier.constEnd()) {
                change.before = **found;
                earlier.erase(found);
            }
            change.status = statusOf(change, diff.memoryCompared);
            diff.patterns.push_back(std::move(change));
        }
        for (const SnapshotPattern& entry : before.patterns) {
            if (earlier.contains(entry.pattern))
                diff.patterns.push_back({entry.pattern, 0, entry.stats, std::nullopt, ChangeStatus::Gone});
        }
        sortBySize(diff.patterns);
    }

    if (!before.findingsByRule.empty() || !after.findingsByRule.empty()) {
        for (const Snapshot::RuleCount& rule : before.findingsByRule)
            diff.findings.push_back({rule.rule, rule.findings, 0});
        for (const Snapshot::RuleCount& rule : after.findingsByRule) {
            auto it = std::find_if(diff.findings.begin(), diff.findings.end(),
                                   [&](const RuleChange& known) { return known.rule == rule.rule; });
            if (it == diff.findings.end())
                it = diff.findings.insert(diff.findings.end(), {rule.rule, 0, 0});
            it->after = rule.findings;
        }
    }
    return diff;
}

bool GrowthGate::exceededBy(const Change& change) const
{
    if (change.memoryDelta() <= 0 || std::uint64_t(change.memoryDelta()) <= bytes)
        return false;
    if (!change.before || change.before->memoryBytes == 0)
        return true; // new, or grown from nothing: more than any percentage
    return *change.memoryGrowthPercent() > percent;
}

} // namespace keylens::history
