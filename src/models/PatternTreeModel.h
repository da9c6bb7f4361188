#pragma once

#include "keyspace/Keyspace.h"
#include "models/RowPresenter.h"
#include "patterns/PatternTree.h"

#include <QAbstractItemModel>
#include <QElapsedTimer>
#include <QTimer>

#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

class QThread;

namespace keylens::lint {
class LibraryLayouts;
struct LibraryInfo;
} // namespace keylens::lint

namespace keylens::models {

// The key tree folded on its ids (patterns::PatternTree): `user:<int>:profile` is one row for every
// `user:N:profile`. Same columns and cells as the raw tree (RowPresenter.h): a pattern row totals all its
// members' subtrees.
//
// Three kinds of rows:
//   - a pattern; its children are its child patterns, biggest first, then
//   - "N members", when the pattern stands for more than one store node; expanding it pages through
//   - the members themselves (store nodes), biggest first, MemberPage at a time (fetchMore).
//
// Live during a scan: publish() folds the nodes that arrived since the last call (every id folds: see
// PatternTree::folding) and announces new rows and changed totals as the raw tree does. publish(true), at
// the end, builds the exact tree (the thresholds of PatternTreeOptions) on a worker thread and swaps it
// in with a model reset; exactTreeReady() says when. Folding only runs while the model isActive(): a
// window that shows the raw tree pays nothing.
//
// GUI thread only.
class PatternTreeModel : public QAbstractItemModel, public TreeColumns
{
    Q_OBJECT
public:
    using PatternId = patterns::PatternTree::PatternId;
    enum class RowKind { Pattern, Members, Member };
    static constexpr int MemberPage = 200;

    explicit PatternTreeModel(QObject* parent = nullptr);
    ~PatternTreeModel() override;

    // A fresh store (or none): resets the model. The store must outlive the model or the next call.
    void setKeyspace(const keyspace::Keyspace* keyspace);
    const keyspace::Keyspace* keyspace() const { return m_keyspace; }
    // Folding runs (and catches up with the store) only while active: while a view shows this model.
    void setActive(bool active);
    bool isActive() const { return m_active; }
    // Brings the rows up to date with the store; `final` once the store stops growing (see above).
    void publish(bool final = false);
    // Findings or lengths changed: totals are read again. (While a scan runs, publish() reads them again
    // once a second: a placeholder of 200,000 members sums 200,000 subtrees.)
    void refreshTotals();
    void setLibraries(const lint::LibraryLayouts* libraries);
    // The tree shown (live or exact), or none before the first publish of an active model.
    const patterns::PatternTree* tree() const { return m_tree.get(); }
    bool isExact() const { return m_tree && !m_tree->isLive(); }

    RowKind kindOf(const QModelIndex& index) const;
    PatternId patternOf(const QModelIndex& index) const; // a Pattern row's, or the pattern a Members/Member row is of
    keyspace::NodeId nodeOf(const QModelIndex& index) const; // a Member row's store node; InvalidNode otherwise
    QModelIndex indexOfPattern(PatternId pattern, int column = NameColumn);
    PatternId patternOfNode(keyspace::NodeId node) const; // once folded; Root otherwise
    keyspace::SubtreeTotals totalsOf(PatternId pattern) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

Q_SIGNALS:
    void exactTreeReady();

private:
    struct Members
    {
        std::vector<keyspace::NodeId> nodes; // biggest first, as of the first expansion
        std::size_t shown = 0;
    };

    // Internal ids: the kind in the top bits, a pattern or node id below.
    static quintptr encode(RowKind kind, std::uint32_t id) { return quintptr(kind) << 32 | id; }
    static RowKind kindOfId(quintptr id) { return RowKind(id >> 32); }
    static std::uint32_t idOf(quintptr id) { return std::uint32_t(id & 0xffffffffu); }

    void forgetRows(); // within a reset: every row, page and cached total of the tree that goes
    bool hasMembersRow(PatternId pattern) const;
    const std::vector<PatternId>& rowsOf(PatternId pattern) const; // materialises
    Members& membersOf(PatternId pattern) const;                   // materialises, sorted
    QModelIndex patternIndex(PatternId pattern, int column) const;
    QModelIndex membersIndex(PatternId pattern, int column) const;
    void sortPatterns(std::vector<PatternId>& patterns) const;
    std::uint64_t sortKey(const keyspace::SubtreeTotals& totals) const;
    RowFacts factsOfPattern(PatternId pattern, FactsWanted wanted) const;
    RowFacts factsOfMember(keyspace::NodeId node, FactsWanted wanted) const;
    const lint::LibraryInfo* libraryOf(RowKind kind, std::uint32_t id) const;
    void fold(); // live: folds what the store added, a few milliseconds at most
    void announceNewPatterns(std::size_t firstNew);
    void resortAll();
    void announceTotals(bool all); // reads totals again; `all`: also parents of many rows
    void buildExactTree();
    void waitForExactTree();

    const keyspace::Keyspace* m_keyspace = nullptr;
    const lint::LibraryLayouts* m_libraries = nullptr;
    std::unique_ptr<patterns::PatternTree> m_tree;
    bool m_active = false;
    bool m_announcingReset = false; // inside endResetModel(): see canFetchMore()
    bool m_fetching = false;        // inside fetchMore()
    bool m_storeFinal = false;      // the store stopped growing: the exact tree can be built
    int m_sortColumn = MemoryColumn;
    Qt::SortOrder m_sortOrder = Qt::DescendingOrder;

    mutable std::unordered_map<PatternId, std::vector<PatternId>> m_rows;    // materialised patterns
    mutable std::vector<std::uint32_t> m_rowOf;                              // by pattern, valid when its parent is
    mutable std::unordered_map<PatternId, Members> m_members;                // materialised Members rows
    mutable std::unordered_set<PatternId> m_withMembersRow;                  // materialised patterns that show one
    mutable std::unordered_map<PatternId, keyspace::SubtreeTotals> m_totals; // cache, cleared on publish
    QElapsedTimer m_sinceResort;
    QElapsedTimer m_sinceTotals;
    QTimer m_lateTotals; // totals skipped by a publish are read when the interval ends, publish or not

    QThread* m_exactBuild = nullptr;
    std::unique_ptr<patterns::PatternTree> m_exactResult; // written by the worker, read after it finished
    std::atomic<bool> m_cancelBuild{false};
    unsigned m_builds = 0; // a build of an older store is dropped
};

} // namespace keylens::models
