#pragma once

#include "keyspace/KeyGlob.h"
#include "keyspace/Keyspace.h"
#include "keyspace/SubtreeTotals.h"
#include "lint/LibraryLayouts.h"
#include "models/RowPresenter.h"

#include <QAbstractItemModel>
#include <QElapsedTimer>

#include <array>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace keylens::models {

using keyspace::NodeId;

// The key tree: a QAbstractItemModel over a Keyspace that keeps growing while a scan runs.
//
// Rows exist only for parents a view asked about (their child list is "materialised" on the first
// rowCount()), so a store of ten million keys costs the model nothing until someone expands a node.
// The scan session ingests into the store and calls publish() every ~100 ms: that announces the new
// children of materialised parents (beginInsertRows at the end, then a layout change to put them in
// sort order; parents above 20,000 rows only when the scan ends) and coalesces the aggregate changes
// into one dataChanged per materialised parent. The
// model is only reset when a new store arrives or the filter changes; expansion, selection and scroll
// position survive a live scan. The TTL column is computed when asked, so it counts down in a view
// that repaints (the window does every second); no signal is sent for the passing of time.
//
// Sorting and filtering live here rather than in a QSortFilterProxyModel: a proxy compares through
// QModelIndex and QVariant and keeps its own mapping per parent, which is seconds, not milliseconds,
// for a node with a million children. Here a sort builds compact (key, node) pairs and sorts them.
//
// Every row totals its whole subtree: a node that is a key and a namespace at once (`user:1` beside
// `user:1:profile`) counts its own key as well, so a parent's children (and its own key) add up to it.
//
// GUI thread only.
class KeyTreeModel : public QAbstractItemModel, public TreeColumns
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
    std::uint64_t filterMatches() const { return m_filterMatches; }

    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }

    // The index of a node (materialising its ancestors), or an invalid index when it is filtered out.
    QModelIndex indexOfNode(NodeId node, int column = NameColumn);
    NodeId nodeOf(const QModelIndex& index) const;

    // A key's length (STRLEN or element count), learnt after the scan or by the details pane: the
    // big-key overlay uses it.
    void setLength(NodeId node, std::uint64_t length);
    const std::unordered_map<NodeId, std::uint64_t>& lengths() const { return m_lengths; }
    void markDeleted(NodeId node);
    // The library layouts recognised in the store (owned by the caller, kept until the next call or
    // setKeyspace): rows show which library wrote them, from the next publish() or findings refresh.
    void setLibraries(const lint::LibraryLayouts* libraries);
    // The library whose layout the node is part of, once the linter recognised them.
    const lint::LibraryInfo* libraryOf(NodeId node) const;
    bool isDeleted(NodeId node) const { return m_deleted.count(node) != 0; }
    int overlaysOf(NodeId node, std::int64_t nowMs) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

    // The totals of a row's subtree (its namespace aggregates plus its own key).
    using Totals = keyspace::SubtreeTotals;
    Totals totalsOf(NodeId node) const;

private:
    using Rows = std::vector<NodeId>;

    const Rows& rowsOf(NodeId parent) const; // materialises
    bool isMaterialised(NodeId parent) const { return m_rows.count(parent) != 0; }
    bool isVisible(NodeId node) const;
    bool hasVisibleChildren(NodeId node) const;
    QModelIndex indexForRow(NodeId node, int column = NameColumn) const;

    void sortRows(Rows& rows) const;
    // The sort keys, without building a whole Totals per row.
    std::uint64_t keysOf(NodeId node) const;
    std::uint64_t memoryOf(NodeId node) const;
    std::int64_t soonestExpiryOf(NodeId node) const;
    void setRowNumbers(const Rows& rows) const;
    // Replaces a parent's row order with a permutation of it, keeping persistent indexes in place.
    void reorder(NodeId parent, Rows newRows);
    void appendRows(NodeId parent, const Rows& added);
    void flushDeferred(NodeId parent);
    std::vector<NodeId> materialisedParents() const; // those with rows
    void resort(NodeId parent);                      // a layout change only when the order moved
    bool isRow(NodeId node) const;                   // has a valid index right now
    void rowChanged(NodeId node);                    // dataChanged over its row, when it is one
    void markParents(std::size_t fromNode, std::size_t toNode);

    bool isFiltering() const { return !m_filter.isEmpty() || m_findingsFilter.enabled; }
    bool matchesFilter(NodeId key) const;
    void resetFilter(); // recomputes which rows exist, with a model reset
    void applyFilterToNewNodes(std::size_t from, std::size_t to, std::vector<NodeId>* newlyVisible);
    void markMatch(NodeId node, std::vector<NodeId>* newlyVisible);

    // What the column presenter (RowPresenter.h) needs to show the node: its totals, and what is wanted.
    RowFacts factsOf(NodeId node, FactsWanted wanted) const;
    double memoryFraction(NodeId node) const;

    const keyspace::Keyspace* m_keyspace = nullptr;
    std::size_t m_publishedNodes = 1; // nodes below this id are in the model; the rest wait for publish()
    mutable std::unordered_map<NodeId, Rows> m_rows; // materialised parents -> children in display order
    mutable std::vector<std::uint32_t>
        m_rowNumber; // a node's row in its parent, valid while the parent is materialised
    // One bit per node: has published children. A view asks hasChildren() for every row it lays out, in
    // sort order, i.e. all over the store; 128 KB of bits per million nodes stay in cache where the
    // store's own arrays would not.
    std::vector<std::uint64_t> m_hasChildren;
    mutable NodeId m_cachedParent = keyspace::InvalidNode; // the last rowsOf() answer, see there
    mutable const Rows* m_cachedRows = nullptr;
    std::unordered_map<NodeId, Rows> m_deferred;    // published rows a big parent has not announced yet
    std::unordered_map<NodeId, qint64> m_announced; // when a big parent last announced rows (m_clock ms)
    QElapsedTimer m_clock;
    static constexpr qint64 BigParentIntervalMs = 1000;

    int m_sortColumn = MemoryColumn;
    Qt::SortOrder m_sortOrder = Qt::DescendingOrder;
    bool m_orderMayBeStale = false; // totals changed since the last sort()

    keyspace::KeyGlob m_filter;
    FindingsFilter m_findingsFilter;
    enum Visibility : std::uint8_t { Matches = 1, MatchesBelow = 2 };
    std::vector<std::uint8_t> m_visibility; // only while a filter is set
    std::uint64_t m_filterMatches = 0;

    std::unordered_map<NodeId, std::uint64_t> m_lengths; // see setLength()
    std::unordered_set<NodeId> m_deleted;
    const lint::LibraryLayouts* m_libraries = nullptr; // see setLibraries()
};

} // namespace keylens::models
