#include "history/SnapshotOfScan.h"

#include "history/NamespaceLister.h"

#include <deque>

namespace keylens::history {

namespace {

SnapshotStats statsOf(const keyspace::NamespaceStats& stats)
{
    SnapshotStats out;
    out.keys = stats.keys;
    out.memoryBytes = stats.memoryBytes;
    out.keysWithTtl = stats.keysWithTtl;
    out.keysMemoryUnmeasured = stats.keysMemoryUnmeasured;
    out.keysTtlUnknown = stats.keysTtlUnknown;
    if (stats.hasExpiringKeys()) {
        out.soonestExpiryMs = stats.soonestExpiryMs;
        out.latestExpiryMs = stats.latestExpiryMs;
    }
    for (std::size_t type = 0; type < out.types.size(); ++type)
        out.types[type] = stats.types[type];
    return out;
}

Unlisted unlistedOf(const report::Others& others)
{
    return {others.namespaces, others.keys, others.memoryBytes};
}

QByteArray libraryId(const lint::LibraryInfo* library)
{
    return library ? QByteArray(library->id) : QByteArray();
}

} // namespace

std::optional<Snapshot> snapshotOfStore(const keyspace::Keyspace& store, const scan::ScanSummary& summary,
                                        std::int64_t takenAtMs, const std::atomic<bool>* cancel,
                                        const SnapshotLimits& limits)
{
    // The header as from a report of no namespaces; the namespaces below, breadth first as snapshotOf lists them.
    report::ScanReport header;
    header.summary = summary;
    header.generatedAtMs = takenAtMs;
    header.delimiter = store.delimiters();
    header.totals = store.stats(keyspace::Keyspace::root());
    header.options.depth = 0;
    Snapshot snapshot = snapshotOf(header, limits);
    snapshot.listedDepth = limits.depth;
    NamespaceLister lister(snapshot, limits.total);

    struct Pending
    {
        keyspace::NodeId node;
        std::uint32_t index; // in snapshot.namespaces; TopLevel for the root
        int depth;
    };
    std::deque<Pending> pending{{keyspace::Keyspace::root(), SnapshotNamespace::TopLevel, 0}};
    while (!pending.empty()) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return std::nullopt;
        const Pending parent = pending.front();
        pending.pop_front();
        const int width = parent.depth == 0 ? limits.topWidth : limits.width;
        // No more than the total cap leaves room for: the rest is summed, not walked.
        const std::size_t room = std::min<std::size_t>(
            std::size_t(std::max(0, width)), limits.total - std::min(limits.total, snapshot.namespaces.size()));
        report::Others others;
        const std::vector<keyspace::NodeId> shown = report::biggestChildNamespaces(store, parent.node, room, &others);
        lister.unlistedUnder(parent.index) = unlistedOf(others);
        for (const keyspace::NodeId node : shown) {
            SnapshotNamespace entry;
            entry.parent = parent.index;
            entry.path = store.namespacePrefix(node);
            entry.stats = statsOf(store.stats(node));
            const std::optional<std::uint32_t> index = lister.add(std::move(entry));
            if (index && parent.depth + 1 < limits.depth)
                pending.push_back({node, *index, parent.depth + 1});
        }
    }
    return snapshot;
}

bool addPatterns(Snapshot& snapshot, const keyspace::Keyspace& store, const std::atomic<bool>* cancel)
{
    // The patterns partition the keys: every one is kept, as the CLI's snapshot keeps them.
    std::vector<report::PatternEntry> patterns = report::listPatterns(store, nullptr, cancel);
    if (cancel && cancel->load(std::memory_order_relaxed))
        return false;
    snapshot.patterns.clear();
    snapshot.patterns.reserve(patterns.size());
    for (report::PatternEntry& entry : patterns)
        snapshot.patterns.push_back({std::move(entry.pattern), statsOf(entry.stats), {}});
    return true;
}

void labelLibraries(Snapshot& snapshot, const keyspace::Keyspace& store, const lint::LibraryLayouts& libraries)
{
    for (SnapshotNamespace& entry : snapshot.namespaces) {
        const keyspace::NodeId node = store.find(QByteArrayView(entry.path).chopped(1)); // the delimiter after it
        if (node != keyspace::InvalidNode && store.hasChildren(node))
            entry.library = libraryId(libraries.libraryOf(store, node));
    }
    snapshot.libraries.clear();
    for (const report::LibraryEntry& entry : report::listLibraries(store, libraries))
        snapshot.libraries.push_back({libraryId(entry.library), entry.keys, entry.memoryBytes});
}

report::ReportOptions snapshotReportOptions(const SnapshotLimits& limits)
{
    report::ReportOptions options;
    options.depth = limits.depth;
    options.width = limits.width;
    options.topWidth = limits.topWidth;
    options.top = 0;
    options.patterns = true;
    return options;
}

Snapshot snapshotOf(const report::ScanReport& report, const SnapshotLimits& limits)
{
    const scan::ScanSummary& summary = report.summary;
    Snapshot snapshot;
    snapshot.takenAtMs = report.generatedAtMs;
    snapshot.complete = summary.complete && !summary.error && !summary.cancelled;
    snapshot.server.address = summary.server.address.toUtf8();
    snapshot.server.runId = summary.server.runId;
    snapshot.server.redisVersion = summary.server.redisVersion.toUtf8();
    snapshot.server.db = summary.server.db;
    snapshot.server.dbsize = summary.server.dbsize;
    snapshot.server.usedMemory = summary.server.usedMemory;
    snapshot.delimiters = report.delimiter.bytes();
    snapshot.keysScanned = report.totals.keys;
    snapshot.totals = statsOf(report.totals);
    snapshot.unlistedTopLevel = unlistedOf(report.others);
    // What the report was asked to list: a level it found empty was still looked at. The total cap may cut a level
    // short; that level's missing namespaces are then in their parents' Unlisted.
    const int asked = std::min(report.options.depth, limits.depth);

    // Breadth first, so that the total cap cuts the deepest levels: a namespace past it is summed into its parent.
    struct Pending
    {
        const report::NamespaceEntry* entry;
        std::uint32_t parent;
    };
    NamespaceLister lister(snapshot, limits.total);
    std::deque<Pending> pending;
    for (const report::NamespaceEntry& entry : report.namespaces)
        pending.push_back({&entry, SnapshotNamespace::TopLevel});
    while (!pending.empty()) {
        const Pending next = pending.front();
        pending.pop_front();
        const report::NamespaceEntry& entry = *next.entry;
        SnapshotNamespace out;
        out.parent = next.parent;
        out.path = entry.path;
        out.stats = statsOf(entry.stats);
        out.library = libraryId(entry.library);
        out.unlisted = unlistedOf(entry.others);
        if (const std::optional<std::uint32_t> index = lister.add(std::move(out))) {
            for (const report::NamespaceEntry& child : entry.children)
                pending.push_back({&child, *index});
        }
    }
    snapshot.listedDepth = std::max(snapshot.listedDepth, asked);
    for (const report::PatternEntry& entry : report.patterns)
        snapshot.patterns.push_back({entry.pattern, statsOf(entry.stats), libraryId(entry.library)});
    for (const report::LibraryEntry& entry : report.libraries)
        snapshot.libraries.push_back({libraryId(entry.library), entry.keys, entry.memoryBytes});
    return snapshot;
}

} // namespace keylens::history
