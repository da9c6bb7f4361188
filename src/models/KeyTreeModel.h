#pragma once

#include "keyspace/KeyGlob.h"
#include "keyspace/Keyspace.h"
#include "keyspace/PagedArray.h"
#include "keyspace/SubtreeTotals.h"
#include "keyspace/Units.h"
#include "lint/LibraryLayouts.h"
#include "models/RowTreeModel.h"
#include "models/WriteRates.h"

#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace keylens::models {

using keyspace::NodeId;

// The key tree: the store's nodes as rows (RowTreeModel.h keeps them), over a Keyspace that keeps growing
// while a scan runs.
//
// The scan session ingests into the store and calls publish() every ~100 ms: that announces the new children
// of materialised parents and the totals that changed (RowTreeModel::announceRows and refreshRows). The model
// is only reset when a new store arrives or the filter changes; expansion, selection and scroll position
// survive a live scan. The TTL column is computed when asked, so it counts down in a view that repaints (the
// window does every second); no signal is sent for the passing of time.
//
// Every row totals its whole subtree: a node that is a key and a namespace at once (`user:1` beside
// `user:1:profile`) counts its own key as well, so a parent's children (and its own key) add up to it.
//
// GUI thread only.
class KeyTreeModel : public RowTreeModel
{
    Q_OBJECT
public:
    explicit KeyTreeModel(QObject* parent = nullptr);
    ~KeyTreeModel() override;

    // A fresh store (or none): resets the model. The store must outlive the model or the next call.
    void setKeyspace(const keyspace::Keyspace* keyspace);
    const keyspace::Keyspace* keyspace() const { return m_keyspace; }

    // Brings the views up to date with what was ingested since the last call. `final` also re-sorts
    // big parents, which the live updates leave to the end of the scan.
    void publish(bool final = false);

    // Shows only keys matching the glob, with their ancestors. An empty glob shows everything.
    void setFilter(const keyspace::KeyGlob& filter);
    const keyspace::KeyGlob& filter() const { return m_filter; }
    // Shows only keys with lint findings (of one rule, by its index in lint::allRules(), or of any: -1),
    // on top of the glob.
    struct FindingsFilter
    {
        bool enabled = false;
        int rule = -1;
        bool operator==(const FindingsFilter&) const = default;
    };
    void setFindingsFilter(FindingsFilter filter);
    FindingsFilter findingsFilter() const { return m_findingsFilter; }
    // Findings were added to keys already published (see ScanSession::findingsChanged).
    void refreshFindings();
    // The store's cold threshold moved: the Cold column changed on every row.
    void refreshAccess() { columnsChanged(ColdColumn, ColdColumn); }
    // The writes per namespace of a live tree (owned by the caller, kept until the next call; none: not live).
    void setWriteRates(const WriteRates* rates);
    // They moved: the Writes/s column repaints, and rows sorted by it are sorted again.
    void refreshWriteRates();
    std::uint64_t filterMatches() const { return m_filterMatches; }
    // A glob or a findings narrowing is set: the figures below count the matching keys.
    bool isFiltering() const { return !m_filter.isEmpty() || m_findingsFilter.enabled; }
    // Under a filter, the keys of the node's subtree (itself included) that match it; its whole count without.
    std::uint64_t matchingKeysOf(NodeId node) const;
    // Under a filter, the memory of the row's matching keys (its own key's and those below it): unknown when none
    // of them was measured, a lower bound when some were not, as the unfiltered cells say it.
    keyspace::MemoryFigure matchingMemoryOf(NodeId node) const;

    // The index of a node (materialising its ancestors), or an invalid index when it is filtered out.
    QModelIndex indexOfNode(NodeId node, int column = NameColumn);
    // The row's node; InvalidNode for a vanished namespace's row (see below).
    NodeId nodeOf(const QModelIndex& index) const;
    // While comparing with an earlier scan (RowTreeModel::setComparison), once the store is complete: the
    // namespaces that scan had and this one has not are rows too, struck out, last among their siblings, with
    // their old figures. Not under a filter, which shows keys that exist.
    bool isVanished(const QModelIndex& index) const { return index.isValid() && isVanishedRow(index.internalId()); }
    // A namespace against the earlier scan (the whole keyspace for the root); nothing without a comparison.
    RowDelta deltaOfNode(NodeId node) const;
    // The earlier scan and this one both measured every key's memory: Δ Memory says something.
    bool comparesMemory() const;
    // Path lookups, for what is kept across a rescan by path (TreeViewState): the path of a row, and the row of a
    // path (materialising its ancestors; invalid when absent, filtered out, or, with `namespaceOnly`, not one).
    QByteArray pathOf(const QModelIndex& index) const;
    QModelIndex indexOfPath(QByteArrayView path, bool namespaceOnly = false);

    // A key's length (STRLEN or element count), learnt after the scan or by the details pane: the
    // big-key overlay uses it.
    void setLength(NodeId node, std::uint64_t length);
    const std::unordered_map<NodeId, std::uint64_t>& lengths() const { return m_lengths; }
    void markDeleted(NodeId node);
    // Keys the store changed after the scan (see ScanSession::keysRemoved): removed ones are shown deleted, others
    // not any more; their rows and every ancestor's totals are repainted.
    void keysEdited(const std::vector<NodeId>& nodes, bool removed);
    // Keys the server deleted, expired or evicted while the tree follows it live (LiveSession): they leave, and so
    // do the namespaces they leave without keys; the ancestors that stay are repainted.
    void keysLeft(const std::vector<NodeId>& nodes);
    // Keys (new or not) whose node, or an ancestor of it, had left: those rows come back, before publish() announces
    // the new ones.
    void keysReturned(const std::vector<NodeId>& nodes);
    bool hasLeft(NodeId node) const { return m_left.count(node) != 0; }
    // The library layouts recognised in the store (owned by the caller, kept until the next call or
    // setKeyspace): rows show which library wrote them, from the next publish() or findings refresh.
    void setLibraries(const lint::LibraryLayouts* libraries);
    // The library whose layout the node is part of, once the linter recognised them.
    const lint::LibraryInfo* libraryOf(NodeId node) const;
    bool isDeleted(NodeId node) const { return m_deleted.count(node) != 0; }
    int overlaysOf(NodeId node, std::int64_t nowMs) const;

    // The totals of a row's subtree (its namespace aggregates plus its own key).
    using Totals = keyspace::SubtreeTotals;
    Totals totalsOf(NodeId node) const;

private:
    // The row core's questions (RowTreeModel.h); a row is a store node.
    bool hasSource() const override { return m_keyspace != nullptr; }
    RowId parentRow(RowId row) const override;
    bool mayHaveChildren(RowId row) const override;
    Rows childRows(RowId parent) const override;
    SortEntry sortEntry(RowId row, int column, std::int64_t nowMs) const override;
    QByteArrayView nameOf(RowId row) const override;
    // Both read the store alone, which the session leaves alone until the worker's order is applied.
    bool sortsOnWorker() const override { return true; }
    bool isPinnedLast(RowId row) const override { return isVanishedRow(row); }
    // A namespace gone since the earlier scan changed as much as it held: sorted by that change like any other.
    bool sortsAmongRows(RowId row, int column) const override { return isVanishedRow(row) && isDeltaColumn(column); }
    RowDelta rowDelta(RowId row) const override;
    void comparisonChanged() override;
    RowFacts factsOf(RowId row, FactsWanted wanted) const override;
    QVariant rowData(RowId row, int role) const override;
    void storeRowNumber(RowId row, std::uint32_t number) const override;
    std::uint32_t rowNumber(RowId row) const override;

    // A vanished namespace's row: its index in m_vanished under this bit (node rows are 32-bit ids).
    static constexpr RowId VanishedBit = RowId(1) << 32;
    static bool isVanishedRow(RowId row) { return (row & VanishedBit) != 0; }
    const Comparison::Vanished& vanishedOf(RowId row) const { return m_vanished[std::size_t(row & 0xffffffffu)]; }
    bool hasVanishedUnder(NodeId node) const;
    RowFacts factsOfVanished(RowId row) const;
    // Lists the vanished namespaces once the store is complete; `announce`: as new rows of the parents shown.
    void listVanished(bool announce);
    bool isVisible(NodeId node) const;
    void markParents(std::size_t fromNode, std::size_t toNode);
    double memoryFraction(NodeId node) const;

    bool matchesFilter(NodeId key) const;
    bool matchesFindingsFilter(NodeId key) const;
    // Under a filter: which of the published nodes match and which have matches below, all at once (a new filter).
    void markAllMatches();
    void resetFilter(); // recomputes which rows exist, with a model reset
    void applyFilterToNewNodes(std::size_t from, std::size_t to, std::vector<NodeId>* newlyVisible);
    void markMatch(NodeId node, std::vector<NodeId>* newlyVisible);

    const keyspace::Keyspace* m_keyspace = nullptr;
    std::size_t m_publishedNodes = 1; // nodes below this id are in the model; the rest wait for publish()
    // A node's row in its parent, valid while the parent is materialised; sized to the published nodes.
    // Paged: a vector's doubling copied 28 MB on the GUI thread at 7,000,000 nodes (a 131 ms publish).
    mutable keyspace::detail::PagedArray<std::uint32_t> m_rowNumber;
    // One bit per node: has published children. A view asks hasChildren() for every row it lays out, in
    // sort order, i.e. all over the store; 128 KB of bits per million nodes stay in cache where the
    // store's own arrays would not.
    std::vector<std::uint64_t> m_hasChildren;

    keyspace::KeyGlob m_filter;
    FindingsFilter m_findingsFilter;
    enum Visibility : std::uint8_t { Matches = 1, MatchesBelow = 2 };
    std::vector<std::uint8_t> m_visibility; // only while a filter is set
    // Under a filter: per namespace (by the store's namespaceIndex), the matching keys below it and their memory;
    // a key's own match is its Matches bit. By namespace, not by node: far fewer, and fresh memory is slow to
    // fault in. One vector of sums, so that the count, the bytes and the unmeasured keys cannot drift apart.
    struct MatchingSum
    {
        std::uint32_t keys = 0;
        std::uint32_t unmeasured = 0; // of those keys, the ones whose memory is not known
        std::uint64_t bytes = 0;

        MatchingSum& operator+=(const MatchingSum& other)
        {
            keys += other.keys;
            unmeasured += other.unmeasured;
            bytes += other.bytes;
            return *this;
        }
    };
    MatchingSum matchingSumOfKey(NodeId key) const;
    MatchingSum matchingSumOf(NodeId node) const;
    std::vector<MatchingSum> m_matchingBelow;
    std::uint64_t m_filterMatches = 0;

    std::unordered_map<NodeId, std::uint64_t> m_lengths; // see setLength()
    std::unordered_set<NodeId> m_deleted;
    std::unordered_set<NodeId> m_left;                 // see keysLeft(): no row while there
    const lint::LibraryLayouts* m_libraries = nullptr; // see setLibraries()
    const WriteRates* m_writeRates = nullptr;          // see setWriteRates()

    bool m_storeComplete = false; // publish(true) since the last setKeyspace()
    std::vector<Comparison::Vanished> m_vanished;
    std::unordered_map<NodeId, std::vector<RowId>> m_vanishedUnder; // by parent, biggest first
    mutable std::vector<std::uint32_t> m_vanishedRowNumber;
};

} // namespace keylens::models
