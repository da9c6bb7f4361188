#pragma once

#include "base/SlicedJob.h"
#include "base/WorkerJob.h"
#include "keyspace/Keyspace.h"
#include "models/RowTreeModel.h"
#include "patterns/PatternTree.h"

#include <QElapsedTimer>
#include <QTimer>

#include <atomic>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace keylens::lint {
class LibraryLayouts;
struct LibraryInfo;
} // namespace keylens::lint

namespace keylens::models {

// The key tree folded on its ids (patterns::PatternTree): `user:<int>:profile` is one row for every
// `user:N:profile`. Same row core (RowTreeModel.h), columns and cells (RowPresenter.h) as the raw tree: a
// pattern row totals all its members' subtrees.
//
// Four kinds of rows:
//   - a pattern; its children are its child patterns, in the sort order, then
//   - "N members", when the pattern stands for more than one store node; expanding it pages through
//   - the members themselves (store nodes), biggest first, MemberPage at a time (RowTreeModel::showMoreRows);
//   - compared with an earlier scan, a pattern it had and this exact tree has not (Comparison::gonePatterns), struck
//     out with its old figures: after its parent's patterns, or among them by its change in a Δ column, as the key
//     tree's vanished namespaces.
//
// Live during a scan: publish() folds the nodes that arrived since the last call (every id folds: see
// PatternTree::folding) and announces new rows; totals are read again and rows re-sorted once a second (a
// placeholder of 200,000 members sums 200,000 subtrees). Many nodes at once (the view first shown after a scan of
// millions) are folded in slices, the rows appearing as they go. Once the store stops growing (publish(true)),
// the exact tree (the thresholds of PatternTreeOptions) is built on a worker thread and swapped in with a model
// reset; exactTreeReady() says when. Folding only runs while the model isActive(): a window that shows the raw
// tree pays nothing.
//
// GUI thread only.
class KeyTreeModel;

class PatternTreeModel : public RowTreeModel
{
    Q_OBJECT
public:
    using PatternId = patterns::PatternTree::PatternId;
    enum class RowKind { Pattern, Members, Member, Gone };
    static constexpr int MemberPage = 200;

    explicit PatternTreeModel(QObject* parent = nullptr);
    ~PatternTreeModel() override;

    // A fresh store (or none): resets the model. The store must outlive the model or the next call.
    void setKeyspace(const keyspace::Keyspace* keyspace);
    const keyspace::Keyspace* keyspace() const { return m_keyspace; }
    // The paths of a pattern's first `most` members (examples for its details).
    std::vector<QByteArray> memberPaths(patterns::PatternTree::PatternId pattern, std::size_t most) const;
    // Folding runs (and catches up with the store) only while active: while a view shows this model.
    void setActive(bool active);
    bool isActive() const { return m_active; }
    // Brings the rows up to date with the store; `final` once the store stops growing (see above).
    void publish(bool final = false);
    // Findings or lengths changed: totals are read again.
    void refreshTotals();
    // The key tree's filter (or none: nullptr), which this model then follows as the Keys view does: a pattern none
    // of whose keys match is not a row, a member without matching keys neither, and a row's Keys and Memory cells
    // count the matching keys. Call it again after the key tree's filter changed; it resets the model.
    void setFilter(const KeyTreeModel* keys);
    void setLibraries(const lint::LibraryLayouts* libraries);
    // The tree shown (live or exact), or none before the first publish of an active model.
    const patterns::PatternTree* tree() const { return m_tree.get(); }
    bool isExact() const { return m_tree && !m_tree->isLive(); }

    RowKind kindOf(const QModelIndex& index) const;
    // A Pattern row's, or the pattern a Members/Member row is of; Root for a Gone row.
    PatternId patternOf(const QModelIndex& index) const;
    keyspace::NodeId nodeOf(const QModelIndex& index) const; // a Member row's store node; InvalidNode otherwise
    QModelIndex indexOfPattern(PatternId pattern, int column = NameColumn);
    PatternId patternOfNode(keyspace::NodeId node) const; // once folded; Root otherwise
    keyspace::SubtreeTotals totalsOf(PatternId pattern) const;

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void exactTreeReady();

private:
    // Row ids: the kind in the top bits, a pattern or node id below (a Pattern row's id is its pattern's).
    static RowId encode(RowKind kind, std::uint32_t id) { return RowId(kind) << 32 | id; }
    static RowKind kindOfRow(RowId row) { return RowKind(row >> 32); }
    static std::uint32_t idOf(RowId row) { return std::uint32_t(row & 0xffffffffu); }

    // The row core's questions (RowTreeModel.h).
    bool hasSource() const override { return m_tree != nullptr; }
    RowId parentRow(RowId row) const override;
    bool mayHaveChildren(RowId row) const override;
    bool hasMembersRow(PatternId pattern) const;
    Rows childRows(RowId parent) const override;
    SortEntry sortEntry(RowId row, int column, std::int64_t nowMs) const override;
    QByteArrayView nameOf(RowId row) const override;
    RowFacts factsOf(RowId row, FactsWanted wanted) const override;
    QVariant rowData(RowId row, int role) const override;
    void storeRowNumber(RowId row, std::uint32_t number) const override;
    std::uint32_t rowNumber(RowId row) const override;
    std::size_t pageSize(RowId parent) const override;
    bool isPinnedLast(RowId row) const override
    {
        return kindOfRow(row) == RowKind::Members || kindOfRow(row) == RowKind::Gone;
    }
    // A pattern gone since the earlier scan changed as much as it held: sorted by that change like any other.
    bool sortsAmongRows(RowId row, int column) const override
    {
        return kindOfRow(row) == RowKind::Gone && isDeltaColumn(column);
    }
    RowDelta rowDelta(RowId row) const override;
    void comparisonChanged() override;

public:
    // A pattern row's figures (its whole subtree's) against the earlier scan compared with.
    RowDelta deltaOfPattern(PatternId pattern) const;

private:
    void forgetTree();       // within a reset: every row, page and cached total of the tree that goes
    void forgetRowNumbers(); // within a reset, with RowTreeModel::forgetRows()
    // Lists the gone patterns (within a reset), once the exact tree is in and while compared.
    void listGone();
    bool hasGoneUnder(PatternId pattern) const;
    const Comparison::GonePattern& goneOf(RowId row) const { return m_gone[idOf(row)]; }
    RowFacts factsOfGone(RowId row) const;
    RowFacts factsOfPattern(PatternId pattern, FactsWanted wanted) const;
    RowFacts factsOfMember(keyspace::NodeId node, FactsWanted wanted) const;
    const lint::LibraryInfo* libraryOf(RowKind kind, std::uint32_t id) const;
    void announceNewRows(std::size_t firstNewPattern);
    void foldedUp(std::size_t firstNewPattern); // the live tree caught up with the store
    // Reads the totals of every placeholder again a slice at a time (the rows keep the old ones meanwhile),
    // then announces them and re-sorts (RowTreeModel::refreshRows). A refresh under way goes on; `final`
    // starts one over, for the store as it ended.
    void startTotalsRefresh(bool final);
    bool refreshTotalsStep(std::size_t members); // true once done
    void buildExactTree();
    void waitForExactTree();

    const keyspace::Keyspace* m_keyspace = nullptr;
    const lint::LibraryLayouts* m_libraries = nullptr;
    // See setFilter(): the key tree that says which keys match, while it filters.
    const KeyTreeModel* m_filter = nullptr;
    bool isFiltering() const;
    bool isShown(PatternId pattern) const { return !isFiltering() || matchingKeysOf(pattern) > 0; }
    std::uint64_t matchingKeysOf(PatternId pattern) const;
    mutable std::unordered_map<PatternId, std::uint64_t> m_matching; // cache, cleared with the rows
    std::unique_ptr<patterns::PatternTree> m_tree;
    std::vector<Comparison::GonePattern> m_gone;
    std::unordered_map<PatternId, std::vector<RowId>> m_goneUnder; // by parent, biggest first
    bool m_active = false;
    bool m_storeFinal = false; // the store stopped growing: the exact tree can be built

    // Row numbers (see RowTreeModel::storeRowNumber), by pattern or by node.
    mutable std::vector<std::uint32_t> m_patternRow;
    mutable std::vector<std::uint32_t> m_membersRow;
    mutable std::vector<std::uint32_t> m_goneRow;
    mutable keyspace::detail::PagedArray<std::uint32_t> m_memberRow; // by store node: paged, as the key tree's
    // Patterns whose rows are materialised while they stand for one node: a Members row joins them once they
    // stand for more.
    mutable std::unordered_set<PatternId> m_withoutMembersRow;
    mutable std::unordered_map<PatternId, keyspace::SubtreeTotals> m_totals; // cache, cleared when re-read
    std::uint64_t m_totalsOfChanges = ~std::uint64_t(0); // the store's changes() m_totals were read at
    QElapsedTimer m_sinceTotals;                         // since the last refresh started
    struct TotalsRefresh
    {
        std::vector<PatternId> patterns; // the placeholders that are rows or parents of rows
        std::size_t next = 0;            // into patterns
        std::size_t member = 0;          // into the members of patterns[next]
        keyspace::SubtreeTotals sum;     // of those members so far
        std::unordered_map<PatternId, keyspace::SubtreeTotals> totals;
        std::uint64_t storeChanges = 0; // when it started
        bool final = false;
    };
    std::optional<TotalsRefresh> m_refresh;
    // Nodes folded per look at the clock: a fold is a fraction of a microsecond at a million keys, about one at ten
    // million.
    base::SlicedJob m_foldSlices{1024, QStringLiteral("pattern folding"), this};
    std::size_t m_foldedFrom = 0; // the first pattern the folding slices have not announced
    // Members whose totals are read per look at the clock: their subtree totals are read all over the store, tens of
    // nanoseconds at a million keys but 2 us at ten million (4,096 a check made slices of 27-31 ms there).
    base::SlicedJob m_refreshSlices{1024, QStringLiteral("pattern totals"), this};
    QTimer m_lateTotals; // totals skipped by a publish are read when the interval ends, publish or not

    base::WorkerJob m_exactBuild{QStringLiteral("keylens exact patterns"), this};
    std::unique_ptr<patterns::PatternTree> m_exactResult; // written by the worker, read after it finished
    // The worker also sums the exact tree's placeholders (a pattern of a million members is a million subtrees:
    // half a second at ten million keys, which the first sort or paint after the swap would spend on the GUI
    // thread). Read again, in slices, if the store changed while it summed (Keyspace::changes).
    std::unordered_map<PatternId, keyspace::SubtreeTotals> m_exactTotals;
};

} // namespace keylens::models
