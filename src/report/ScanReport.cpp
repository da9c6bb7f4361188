#include "report/ScanReport.h"

#include "keyspace/SubtreeTotals.h"
#include "keyspace/TopKeys.h"
#include "patterns/PatternTree.h"

#include <algorithm>
#include <array>

namespace keylens::report {

namespace {

using keyspace::Keyspace;
using keyspace::NodeId;

// A namespace's size, read once: a small namespace's stats() sums its children on every call, and sorting the 1.3
// million `user:<id>` namespaces of 10M keys through stats() in the comparison took 24 s after the scan.
struct RankedNamespace
{
    double rank; // the memory it is ranked by: measured, or a sampled scan's estimate
    std::uint64_t memoryBytes;
    std::uint64_t preallocatedBytes;
    std::uint32_t keys;
    std::uint32_t keysMemoryUnmeasured;
    NodeId node;
};

} // namespace

std::vector<NodeId> biggestChildNamespaces(const Keyspace& keyspace, NodeId parent, std::size_t count, Others* others,
                                           bool byEstimate)
{
    std::vector<RankedNamespace> namespaces;
    for (const NodeId child : keyspace.children(parent)) {
        if (keyspace.hasChildren(child)) {
            const keyspace::NamespaceStats stats = keyspace.stats(child);
            const double rank = byEstimate ? keyspace::estimatedMemory(stats).value_or(0.0) : double(stats.memoryBytes);
            namespaces.push_back(
                {rank, stats.memoryBytes, stats.preallocatedBytes, stats.keys, stats.keysMemoryUnmeasured, child});
        }
    }
    // Biggest first: memory, then keys, then name, so the order is the same on every run. Only the namespaces shown
    // need an order; the rest are summed.
    const std::size_t shown = std::min(namespaces.size(), count);
    std::partial_sort(namespaces.begin(), namespaces.begin() + std::ptrdiff_t(shown), namespaces.end(),
                      [&](const RankedNamespace& a, const RankedNamespace& b) {
                          if (a.rank != b.rank)
                              return a.rank > b.rank;
                          if (a.keys != b.keys)
                              return a.keys > b.keys;
                          return keyspace.segment(a.node) < keyspace.segment(b.node);
                      });
    for (std::size_t i = shown; i < namespaces.size(); ++i) {
        ++others->namespaces;
        others->keys += namespaces[i].keys;
        others->memoryBytes += namespaces[i].memoryBytes;
        others->preallocatedBytes += namespaces[i].preallocatedBytes;
        others->keysMemoryUnmeasured += namespaces[i].keysMemoryUnmeasured;
    }
    std::vector<NodeId> biggest;
    biggest.reserve(shown);
    for (std::size_t i = 0; i < shown; ++i)
        biggest.push_back(namespaces[i].node);
    return biggest;
}

namespace {

// Idle percentiles are a walk over the namespace's keys: only when the scan asked about access.
std::optional<std::int64_t> accessTime(const scan::ScanSummary& summary, std::int64_t nowMs)
{
    return summary.access != scan::AccessQuestion::None ? std::optional<std::int64_t>(nowMs) : std::nullopt;
}

void listNamespaces(const Keyspace& keyspace, const lint::LibraryLayouts& libraries, NodeId parent, int level,
                    const ReportOptions& options, std::optional<std::int64_t> accessAtMs, bool byEstimate,
                    std::vector<NamespaceEntry>* entries, Others* others)
{
    for (const NodeId node : biggestChildNamespaces(
             keyspace, parent, static_cast<std::size_t>(std::max(0, options.widthAt(level))), others, byEstimate)) {
        NamespaceEntry entry;
        entry.node = node;
        entry.path = keyspace.namespacePrefix(node);
        entry.name = keyspace.segment(node).toByteArray();
        entry.stats = keyspace.stats(node);
        entry.library = libraries.libraryOf(keyspace, node);
        if (accessAtMs)
            entry.access = keyspace::namespaceAccess(keyspace, node, *accessAtMs / 1000);
        if (level + 1 < options.depth)
            listNamespaces(keyspace, libraries, node, level + 1, options, accessAtMs, byEstimate, &entry.children,
                           &entry.others);
        entries->push_back(std::move(entry));
    }
}

// Among keys without the delimiter, the separator most of them contain, if any.
char suggestDelimiter(const Keyspace& keyspace, const std::vector<NodeId>& keysWithoutDelimiter,
                      std::uint64_t totalKeys)
{
    static constexpr std::array<char, 5> candidates = {'_', '.', '/', '-', '|'};
    if (keysWithoutDelimiter.size() < 10 || keysWithoutDelimiter.size() * 2 < totalKeys)
        return 0;
    std::array<std::size_t, candidates.size()> counts{};
    for (const NodeId node : keysWithoutDelimiter) {
        const QByteArrayView key = keyspace.segment(node);
        for (std::size_t i = 0; i < candidates.size(); ++i)
            counts[i] += key.contains(candidates[i]);
    }
    const auto best = std::max_element(counts.begin(), counts.end());
    return *best * 2 > keysWithoutDelimiter.size() ? candidates[std::size_t(best - counts.begin())] : 0;
}

} // namespace

std::vector<PatternEntry> listPatterns(const keyspace::Keyspace& keyspace, const lint::LibraryLayouts* libraries,
                                       const std::atomic<bool>* cancel, std::optional<std::int64_t> accessAtMs)
{
    constexpr std::size_t Examples = 3;
    patterns::PatternTreeOptions options;
    options.cancelled = cancel;
    const patterns::PatternTree tree(keyspace, options);
    std::vector<PatternEntry> out;
    for (patterns::PatternTree::PatternId pattern = 1; pattern < tree.size(); ++pattern) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return {};
        if (tree.isPartial(pattern))
            continue; // its members' keys are the patterns' that end their segments
        PatternEntry entry;
        keyspace::AccessFiguresBuilder access(accessAtMs.value_or(0) / 1000);
        for (const NodeId member : tree.members(pattern)) {
            if (!keyspace.isKey(member))
                continue;
            entry.stats.add(keyspace.keyInfo(member));
            if (accessAtMs)
                access.addKey(keyspace, member);
            if (entry.stats.keys == 1 && libraries)
                entry.library = libraries->libraryOf(keyspace, member);
            if (entry.examples.size() < Examples)
                entry.examples.push_back(keyspace.path(member));
        }
        if (entry.stats.keys == 0)
            continue; // a namespace level only
        entry.access = access.figures();
        entry.pattern = tree.text(pattern);
        out.push_back(std::move(entry));
    }
    std::sort(out.begin(), out.end(), [](const PatternEntry& a, const PatternEntry& b) {
        return a.stats.memoryBytes != b.stats.memoryBytes ? a.stats.memoryBytes > b.stats.memoryBytes
                                                          : a.stats.keys > b.stats.keys;
    });
    return out;
}

std::vector<LibraryEntry> listLibraries(const keyspace::Keyspace& keyspace, const lint::LibraryLayouts& libraries)
{
    constexpr std::size_t Roots = 5;
    std::vector<LibraryEntry> out;
    const auto entryOf = [&](const lint::LibraryInfo* library) {
        auto it = std::find_if(out.begin(), out.end(), [&](const LibraryEntry& e) { return e.library == library; });
        return it != out.end() ? it : out.insert(out.end(), LibraryEntry{library, 0, 0, 0, 0, {}});
    };
    for (const lint::LibraryLayouts::Subtree& subtree : libraries.subtrees(keyspace)) {
        const keyspace::SubtreeTotals totals = keyspace::subtreeTotals(keyspace, subtree.node);
        auto it = entryOf(subtree.library);
        it->keys += totals.keys;
        it->memoryBytes += totals.memoryBytes;
        it->preallocatedBytes += totals.preallocatedBytes;
        it->keysMemoryUnmeasured += totals.keysMemoryUnmeasured;
        if (it->roots.size() < Roots)
            it->roots.push_back(keyspace.hasChildren(subtree.node) ? keyspace.namespacePrefix(subtree.node)
                                                                   : keyspace.path(subtree.node));
        if (subtree.within != keyspace::InvalidNode) { // counted once: the nested library's, not the outer one's
            auto outer = entryOf(libraries.claimOf(subtree.within));
            outer->keys -= std::min(outer->keys, totals.keys);
            outer->memoryBytes -= std::min(outer->memoryBytes, totals.memoryBytes);
            outer->preallocatedBytes -= std::min(outer->preallocatedBytes, totals.preallocatedBytes);
            outer->keysMemoryUnmeasured -= std::min(outer->keysMemoryUnmeasured, totals.keysMemoryUnmeasured);
        }
    }
    std::sort(out.begin(), out.end(), [](const LibraryEntry& a, const LibraryEntry& b) {
        return a.memoryBytes != b.memoryBytes ? a.memoryBytes > b.memoryBytes : a.keys > b.keys;
    });
    return out;
}

ScanReport buildReport(const Keyspace& keyspace, const scan::ScanSummary& summary, std::uint64_t duplicates,
                       const ReportOptions& options, std::int64_t nowMs, const lint::SetMembers& librarySets)
{
    ScanReport report;
    report.summary = summary;
    report.generatedAtMs = nowMs;
    report.delimiter = keyspace.delimiters();
    report.totals = keyspace.stats(Keyspace::root());
    const std::optional<std::int64_t> accessAtMs = accessTime(summary, nowMs);
    if (accessAtMs)
        report.totalAccess = keyspace::namespaceAccess(keyspace, Keyspace::root(), *accessAtMs / 1000);
    report.duplicates = duplicates;
    report.options = options;
    report.options.depth = std::min(options.depth, MaxDepth); // listNamespaces recurses once per level
    std::vector<NodeId> keysWithoutDelimiter;
    for (const NodeId child : keyspace.children(Keyspace::root())) {
        if (keyspace.isKey(child)) {
            report.keysWithoutDelimiter.add(keyspace.keyInfo(child));
            keysWithoutDelimiter.push_back(child);
        }
    }
    report.suggestedDelimiter = suggestDelimiter(keyspace, keysWithoutDelimiter, report.totals.keys);
    report.otherDelimiters = lint::otherDelimitersUsed(keyspace);
    const lint::LibraryLayouts libraries =
        options.libraryCatalogue ? lint::LibraryLayouts::recognise(keyspace, librarySets) : lint::LibraryLayouts();
    report.libraries = listLibraries(keyspace, libraries);
    if (report.options.depth > 0)
        // A sampled scan's namespaces are ranked by their estimates: the sums of a few sampled keys rank by luck.
        listNamespaces(keyspace, libraries, Keyspace::root(), 0, report.options, accessAtMs,
                       summary.sampleProbability.has_value(), &report.namespaces, &report.others);
    if (summary.sampleProbability) {
        // Memory is a sampled scan's estimate: every namespace listed gets its own, with its bound.
        const keyspace::SampledMemory sampled(keyspace);
        report.totalEstimate = sampled.estimate(Keyspace::root());
        std::vector<NamespaceEntry*> pending;
        for (NamespaceEntry& entry : report.namespaces)
            pending.push_back(&entry);
        while (!pending.empty()) {
            NamespaceEntry* entry = pending.back();
            pending.pop_back();
            entry->estimate = sampled.estimate(entry->node);
            for (NamespaceEntry& child : entry->children)
                pending.push_back(&child);
        }
    }
    for (const NodeId node : keyspace::topKeysByMemory(keyspace, static_cast<std::size_t>(std::max(0, options.top))))
        report.topKeys.push_back({keyspace.path(node), keyspace.keyInfo(node)});
    if (options.patterns)
        report.patterns = listPatterns(keyspace, &libraries, nullptr, accessAtMs);
    return report;
}

} // namespace keylens::report
