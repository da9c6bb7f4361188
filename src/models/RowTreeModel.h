#pragma once

#include "base/NextTurn.h"
#include "base/SlicedJob.h"
#include "base/WorkerJob.h"
#include "keyspace/PageWorker.h"
#include "keyspace/SubtreeTotals.h"
#include "models/Comparison.h"
#include "models/RowPresenter.h"
#include "models/SortKeys.h"

#include <QAbstractItemModel>
#include <QElapsedTimer>

#include <limits>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace keylens::models {

// The row core both key trees stand on (KeyTreeModel over the store, PatternTreeModel over the patterns), in
// the spirit of KDAB hotspot's tree models: the tree is the subclass's, the rows are kept here.
//
// A row is its QModelIndex internal id (RowId; the invisible root is 0). A subclass says what a row's parent
// and children are, what it sorts by and what facts it shows (RowPresenter.h turns those into cells); this
// class does the rest the same way for both trees:
//   - rows exist only for parents a view asked about (a parent's child list is "materialised" on the first
//     rowCount()), so a store of ten million keys costs nothing until someone expands a node;
//   - sorting builds compact (key, row) pairs and radix-sorts them (SortKeys.h), names naturally; a
//     QSortFilterProxyModel compares through QVariant and was seconds, not milliseconds, on a million rows;
//   - a view sees a parent's first RowPage rows, and the next page once it shows the last row it has (see
//     showMoreRows): QTreeView lays out every row it was told of again on each insertion or sort, which was a
//     tenth of a second at ten million keys (470,000 top-level rows and a namespace of 1.3 million open);
//   - live updates: new rows are inserted at the end of their parent (seen only while its first page is not
//     full), then the parents whose order broke are re-sorted with one layout change each, keeping persistent
//     indexes; a parent of more than LiveResortLimit rows repaints its totals once a second and is re-sorted
//     only when the scan ends;
//   - a parent can keep the order its rows had when first shown (paged in its own page size), and a row can
//     stay last among its siblings whatever the order (its parent then shows all its rows).
//
// GUI thread only.
class RowTreeModel : public QAbstractItemModel, public TreeColumns
{
    Q_OBJECT
public:
    using RowId = quintptr;
    using Rows = std::vector<RowId>;
    static constexpr RowId RootRow = 0;
    // Rows a view is shown of a parent at first, and more each time it shows the last of them (fixed-order
    // parents have their own pageSize()).
    static constexpr std::size_t RowPage = 20'000;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    // Not canFetchMore()/fetchMore(): QTreeView fetches from every parent it lays out, wherever it is scrolled
    // to, so each relayout would have shown another page. Here the next page comes when a view asks for the
    // data of the last row it has, which is when it shows that row (scrolled, dragged, End key alike).
    bool hasMoreRows(const QModelIndex& parent) const;
    void showMoreRows(const QModelIndex& parent);
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }
    // The last re-sort of big parents, when a scan ends, runs on a worker (see refreshRows): true until its
    // order is applied, and workerSortApplied() then. The source must not change meanwhile.
    bool isSortingOnWorker() const { return m_workerSort.isRunning() || m_copyingForSort != nullptr; }
    // Before the source changes: the worker's order is dropped (and workerSortApplied() not emitted).
    void waitForWorkerSort();

    // The memory figures are estimated (an RDB file's): the Memory column's cells and header say so.
    void setMemoryEstimated(bool estimated);
    bool memoryEstimated() const { return m_memoryEstimated; }

    // Compares the rows with an earlier scan (the Δ columns), or stops comparing (nullptr).
    void setComparison(std::shared_ptr<const Comparison> comparison);
    const Comparison* comparison() const { return m_comparison.get(); }

Q_SIGNALS:
    void workerSortApplied();

protected:
    explicit RowTreeModel(QObject* parent = nullptr);
    ~RowTreeModel() override;

    // ---- what the subclass says of its rows ----
    // Whether there is anything to show (a store, a pattern tree).
    virtual bool hasSource() const = 0;
    virtual RowId parentRow(RowId row) const = 0;
    // Whether the row may have children, without materialising anything: a view asks it of every row it lays
    // out, and a row may stand for a namespace of a million keys that nobody expands.
    virtual bool mayHaveChildren(RowId row) const = 0;
    // The parent's children as they stand, in any order (in their fixed order for a paged parent).
    virtual Rows childRows(RowId parent) const = 0;
    // What a row sorts by in a column other than the name; `row` in the entry is filled in here.
    virtual SortEntry sortEntry(RowId row, int column, std::int64_t nowMs) const = 0;
    virtual QByteArrayView nameOf(RowId row) const = 0;
    virtual RowFacts factsOf(RowId row, FactsWanted wanted) const = 0;
    // The roles beyond the presenter's cells (node, path, overlays, library…).
    virtual QVariant rowData(RowId row, int role) const = 0;
    // A row's number in its parent lives in the subclass's arrays, indexed as suits its ids.
    virtual void storeRowNumber(RowId row, std::uint32_t number) const = 0;
    virtual std::uint32_t rowNumber(RowId row) const = 0;
    // Non-zero: the parent's rows keep the order childRows() gave and are shown this many at a time (other
    // parents are sorted and shown RowPage at a time).
    virtual std::size_t pageSize(RowId /*parent*/) const { return 0; }
    // A row that stays last among its siblings in every order (a pattern's "N members" row).
    virtual bool isPinnedLast(RowId /*row*/) const { return false; }
    // A pinned row that is sorted among the others by this column all the same (any thread, as sortEntry()).
    virtual bool sortsAmongRows(RowId /*row*/, int /*column*/) const { return false; }
    // What the row held in the earlier scan compared with (comparison() is set): the Δ columns. Called on the
    // sort worker too, under the rules of sortsOnWorker().
    virtual RowDelta rowDelta(RowId /*row*/) const { return {}; }
    // After the comparison changed: by default the Δ cells are repainted; a subclass that shows rows the earlier
    // scan had (vanished ones) resets itself instead.
    virtual void comparisonChanged();
    // Whether sortEntry(), nameOf() and isPinnedLast() may run on another thread while this one goes on
    // painting: when they only read a source that nobody writes until workerSortApplied().
    // The subclass waits for the worker (waitForWorkerSort) before it goes: the worker calls its sortEntry().
    virtual bool sortsOnWorker() const { return false; }

    // The sort key of a column from whole totals (TTL, findings, type; and keys or memory for rows whose
    // totals are at hand anyway), so both trees order those columns alike.
    static SortEntry totalsSortEntry(const keyspace::SubtreeTotals& totals, int column, std::int64_t nowMs);

    // ---- the rows ----
    const Rows& rowsOf(RowId parent) const; // materialises
    bool isMaterialised(RowId parent) const { return m_parents.count(parent) != 0; }
    // A row's index; its parent must be materialised (the root has none).
    QModelIndex indexOfRow(RowId row, int column = NameColumn) const;
    // A row's index, materialising its ancestors and showing the rows up to it that they still hold back.
    QModelIndex revealRow(RowId row, int column = NameColumn);
    bool isRow(RowId row) const;                    // has a valid index right now
    std::vector<RowId> materialisedParents() const; // those with rows; a copy (see there)
    // Every row and page goes: call between beginResetModel() and endResetModel().
    void forgetRows();

    // ---- live updates ----
    // New children of materialised parents: added at the end (before a pinned row), and announced as far as
    // the parent's first page (or the pages shown so far) has room; the rest wait for showMoreRows().
    void announceRows(const std::unordered_map<RowId, Rows>& added);
    // The totals of materialised rows changed: one dataChanged per parent, and a re-sort of each parent whose
    // order may have broken (rows arrived, or the sort is by a total). A parent of more than LiveResortLimit rows
    // hears of it at most once a second (QTreeView visits every row of a changed range), and is re-sorted only
    // when `final`: on a worker, if the subclass allows it (a million rows' sort keys are hundreds of
    // milliseconds of cache misses).
    void refreshRows(bool final);
    // Some columns of every shown row changed (findings, say): dataChanged, no re-sort.
    void columnsChanged(int firstColumn, int lastColumn);
    void rowChanged(RowId row); // every column of one row, when it is one
    // A row that had no children got some: a one-cell dataChanged makes a tree view ask hasChildren() again
    // and draw the expand arrow. (A range starting at the Name column would make QTreeView re-ask it for
    // every row of the range: slow on big parents.)
    void childrenAppeared(RowId row);

    // Rows that left their materialised parent (a live keyspace's deleted keys, and the namespaces they left
    // empty): removed where a view may see them, quietly past the pages shown. Each is forgotten as a parent too.
    void removeChildRows(RowId parent, const std::unordered_set<RowId>& gone);
    // Forgets a parent's rows: they are listed afresh (childRows) when a view asks again.
    void forgetParent(RowId parent);

    static constexpr std::size_t LiveResortLimit = 20'000;

private:
    struct Parent
    {
        Rows rows;                 // display order
        std::size_t shown = 0;     // the rows a view may see: the first page, or the pages shown so far
        std::uint64_t version = 0; // new whenever `rows` changes (from m_rowVersions, so never reused)
        bool fixedOrder = false;
        // A big parent's rows grow into room the page worker made ready (a doubling from 2 to 4 MB was 40-60 ms).
        keyspace::detail::RoomAhead<RowId> roomAhead;
    };

    const Parent& parentOf(RowId parent) const; // materialises
    Parent* materialised(RowId parent) const;
    RowId rowOf(const QModelIndex& index) const { return index.isValid() ? index.internalId() : RootRow; }
    QVariant deltaData(RowId row, int column, int role) const;
    SortEntry deltaKey(RowId row, int column) const; // any thread, as sortEntry()
    void sortRows(Rows& rows) const { sortRows(rows, m_sortColumn, m_sortOrder); }
    void sortRows(Rows& rows, int column, Qt::SortOrder order) const; // any thread, see sortsOnWorker()
    // The pinned rows put back after the sorted `rows` (whose sort keys are `entries`), or among them.
    void mergePinned(Rows& rows, const std::vector<SortEntry>& entries, Rows& pinned, int column,
                     bool descending) const;
    struct WorkerSortJob;
    void sortOnWorker(const std::vector<RowId>& parents);
    bool copyForSortStep(std::size_t rows); // true once every parent's rows are copied (or dropped)
    void startWorkerSort(std::shared_ptr<WorkerSortJob> job);
    void storeRowNumbers(const Rows& rows, std::size_t from = 0) const;
    void noteAsked(RowId parent, int row) const; // and wants the next page when it is the last row shown
    void showWantedPages();
    // dataChanged over the parent's shown rows in these columns: all of them for a small parent, else only
    // those asked for since the last call (QTreeView visits every row of a changed range, which was 50 ms
    // for a page of 20,000; a view repaints what it shows, and it asked for all of that).
    void shownRowsChanged(RowId parent, int firstColumn, int lastColumn);
    std::size_t pageOf(RowId parent, const Parent& entry) const;
    void appendRows(RowId parent, const Rows& added);
    void showRowsUpTo(RowId parent, std::size_t count); // announces the rows a view has not seen yet
    void resort(RowId parent);                          // a layout change only when the order moved
    // `numbersByNode`, when given: each row's new number (key) by row (node), in node order, as a worker sort makes
    // them; stored in memory order instead of in the rows' order (see sortOnWorker()).
    void reorder(RowId parent, Rows newRows, const std::vector<SortEntry>* numbersByNode = nullptr);

    mutable std::unordered_map<RowId, Parent> m_parents;
    mutable std::uint64_t m_rowVersions = 0;
    mutable RowId m_cachedParent = RootRow; // the last parentOf() answer, see there
    mutable Parent* m_cached = nullptr;
    std::unordered_map<RowId, qint64> m_repainted; // when a big parent's totals were last announced (m_clock ms)
    struct AskedRows
    {
        std::uint32_t first = std::numeric_limits<std::uint32_t>::max();
        std::uint32_t last = 0;
    };
    mutable std::unordered_map<RowId, AskedRows> m_asked; // by parent, see shownRowsChanged()
    mutable RowId m_askedParent = RootRow;                // the last one noted, as m_cachedParent
    mutable AskedRows* m_askedCached = nullptr;
    mutable std::unordered_set<RowId> m_pagesWanted; // parents whose last shown row a view asked for
    mutable base::NextTurn m_pagesTurn{QStringLiteral("row pages"), this}; // shows them after the paint that asked
    static constexpr std::size_t RepaintAllLimit = 1'000;
    std::unordered_set<RowId> m_arrived; // parents that got rows since the last refreshRows()
    std::shared_ptr<const Comparison> m_comparison;
    bool m_memoryEstimated = false;
    QElapsedTimer m_clock;
    static constexpr qint64 BigParentIntervalMs = 1000;

    base::WorkerJob m_workerSort{QStringLiteral("keylens final sort"), this, base::Priority::Normal};
    // The rows of a sort for the worker, being copied a slice at a time first (see sortOnWorker()).
    std::shared_ptr<WorkerSortJob> m_copyingForSort;
    // Rows per look at the clock: at most 256 KB of fresh pages, 0.1-1 ms on the development VM.
    base::SlicedJob m_copySlices{32'768, QStringLiteral("rows copied for the worker's sort"), this};

    int m_sortColumn = MemoryColumn;
    Qt::SortOrder m_sortOrder = Qt::DescendingOrder;
    bool m_orderMayBeStale = false; // totals changed since the last sort()
};

} // namespace keylens::models
