#include "models/RowTreeModel.h"

#include "base/SideTask.h"
#include "models/DeltaCells.h"
#include "models/EstimatedMemory.h"
#include "models/FindingsText.h"

#include <QDateTime>
#include <QThread>

#include <algorithm>
#include <optional>

namespace keylens::models {

namespace {

constexpr std::int64_t Never = std::numeric_limits<std::int64_t>::max();

bool isDigits(QByteArrayView bytes)
{
    return !bytes.isEmpty() && bytes.size() <= 19 &&
           std::all_of(bytes.begin(), bytes.end(), [](char c) { return c >= '0' && c <= '9'; });
}

char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
}

// Names sort naturally: ids as numbers (2 before 10) ahead of words; words case-insensitively, so
// `User` and `user` sit together and the inconsistency shows.
SortEntry nameKey(QByteArrayView segment)
{
    if (isDigits(segment)) {
        std::uint64_t value = 0;
        for (const char c : segment)
            value = value * 10 + std::uint64_t(c - '0');
        return {value, 0, 0};
    }
    std::uint64_t prefix = 0;
    for (qsizetype i = 0; i < 8; ++i)
        prefix = (prefix << 8) | (i < segment.size() ? static_cast<unsigned char>(lower(segment[i])) : 0u);
    return {prefix, 0, 1};
}

int compareNames(QByteArrayView a, QByteArrayView b)
{
    const qsizetype n = std::min(a.size(), b.size());
    for (qsizetype i = 0; i < n; ++i) {
        const auto x = static_cast<unsigned char>(lower(a[i]));
        const auto y = static_cast<unsigned char>(lower(b[i]));
        if (x != y)
            return x < y ? -1 : 1;
    }
    if (a.size() != b.size())
        return a.size() < b.size() ? -1 : 1;
    return a.compare(b) < 0 ? -1 : (a == b ? 0 : 1);
}

// Rows from which a sort computes its keys on two threads: below it, starting a thread costs more than it saves.
constexpr std::size_t ParallelKeysFrom = 100'000;

// SortEntry carries 32 bits of a row: the rows a parent sorts share the rest (their kind, in the pattern tree).
constexpr RowTreeModel::RowId LowBits = 0xffffffffu;

} // namespace

RowTreeModel::RowTreeModel(QObject* parent)
    : QAbstractItemModel(parent)
{
    m_clock.start();
    m_pagesTurn.setStep([this] { showWantedPages(); });
}

RowTreeModel::~RowTreeModel()
{
    Q_ASSERT(!m_workerSort.isRunning()); // the subclass waited: the worker calls its sortEntry()
}

// ---- the rows ----

RowTreeModel::Parent* RowTreeModel::materialised(RowId parent) const
{
    // A view lays out a parent's rows one index() at a time: remember the last parent asked about.
    // (Pointers into an unordered_map stay valid until the element is erased; forgetRows() resets this.)
    if (parent == m_cachedParent && m_cached)
        return m_cached;
    auto it = m_parents.find(parent);
    if (it == m_parents.end())
        return nullptr;
    m_cachedParent = parent;
    m_cached = &it->second;
    return m_cached;
}

const RowTreeModel::Parent& RowTreeModel::parentOf(RowId parent) const
{
    if (Parent* known = materialised(parent))
        return *known;
    Parent entry;
    if (hasSource() && mayHaveChildren(parent)) {
        entry.rows = childRows(parent);
        entry.fixedOrder = pageSize(parent) != 0;
        if (!entry.fixedOrder)
            sortRows(entry.rows);
    }
    entry.shown = std::min(entry.rows.size(), pageOf(parent, entry));
    entry.version = ++m_rowVersions;
    storeRowNumbers(entry.rows);
    return m_parents.emplace(parent, std::move(entry)).first->second;
}

std::size_t RowTreeModel::pageOf(RowId parent, const Parent& entry) const
{
    if (const std::size_t own = pageSize(parent))
        return own;
    // A row pinned last is seen only with all the others: hiding the rows before it would take it from a view.
    if (!entry.rows.empty() && isPinnedLast(entry.rows.back()))
        return std::numeric_limits<std::size_t>::max();
    return RowPage;
}

const RowTreeModel::Rows& RowTreeModel::rowsOf(RowId parent) const
{
    return parentOf(parent).rows;
}

void RowTreeModel::storeRowNumbers(const Rows& rows, std::size_t from) const
{
    for (std::size_t i = from; i < rows.size(); ++i)
        storeRowNumber(rows[i], std::uint32_t(i));
}

QModelIndex RowTreeModel::indexOfRow(RowId row, int column) const
{
    if (row == RootRow)
        return {};
    return createIndex(int(rowNumber(row)), column, row);
}

QModelIndex RowTreeModel::revealRow(RowId row, int column)
{
    if (!hasSource() || row == RootRow)
        return {};
    std::vector<RowId> chain{row}; // the row, its parent, …, the root
    for (RowId at = parentRow(row); at != RootRow; at = parentRow(at))
        chain.push_back(at);
    chain.push_back(RootRow);
    // From the top: each row must be shown in its parent before its own rows can be.
    for (std::size_t i = chain.size() - 1; i > 0; --i) {
        const Parent& entry = parentOf(chain[i]);
        const RowId child = chain[i - 1];
        const std::uint32_t number = rowNumber(child);
        if (number >= entry.rows.size() || entry.rows[number] != child)
            return {}; // filtered out, or not published yet
        showRowsUpTo(chain[i], std::size_t(number) + 1);
    }
    return indexOfRow(row, column);
}

bool RowTreeModel::isRow(RowId row) const
{
    // Materialised parent, and really among its shown rows: filtered out, or on a page not fetched yet, a row
    // has no index.
    if (row == RootRow)
        return false;
    const Parent* parent = materialised(parentRow(row));
    if (!parent)
        return false;
    const std::uint32_t number = rowNumber(row);
    return number < parent->shown && parent->rows[number] == row;
}

void RowTreeModel::forgetRows()
{
    m_parents.clear();
    m_cached = nullptr;
    m_repainted.clear();
    m_asked.clear();
    m_askedCached = nullptr;
    m_pagesWanted.clear();
    m_arrived.clear();
    m_clock.restart();
}

// ---- QAbstractItemModel ----

QModelIndex RowTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasSource() || row < 0 || column < 0 || column >= ColumnCount || parent.column() > 0)
        return {};
    const Parent& entry = parentOf(rowOf(parent));
    if (std::size_t(row) >= entry.shown)
        return {};
    return createIndex(row, column, entry.rows[std::size_t(row)]);
}

QModelIndex RowTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    return indexOfRow(parentRow(rowOf(child)));
}

int RowTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!hasSource() || parent.column() > 0)
        return 0;
    return int(parentOf(rowOf(parent)).shown);
}

int RowTreeModel::columnCount(const QModelIndex& parent) const
{
    return parent.column() > 0 ? 0 : ColumnCount;
}

bool RowTreeModel::hasChildren(const QModelIndex& parent) const
{
    if (!hasSource() || parent.column() > 0)
        return false;
    const RowId row = rowOf(parent);
    // Asking must not materialise: see mayHaveChildren().
    if (!mayHaveChildren(row))
        return false;
    if (const Parent* entry = materialised(row))
        return entry->shown != 0;
    return true;
}

bool RowTreeModel::hasMoreRows(const QModelIndex& parent) const
{
    const Parent* entry = materialised(rowOf(parent));
    return entry && entry->shown < entry->rows.size();
}

void RowTreeModel::showMoreRows(const QModelIndex& parent)
{
    if (!hasSource() || !hasMoreRows(parent))
        return;
    const RowId row = rowOf(parent);
    const Parent& entry = *materialised(row);
    const std::size_t page = pageOf(row, entry);
    showRowsUpTo(row, entry.rows.size() - entry.shown > page ? entry.shown + page : entry.rows.size());
}

void RowTreeModel::showWantedPages()
{
    for (const RowId parent : std::exchange(m_pagesWanted, {})) {
        if (parent == RootRow || isRow(parent))
            showMoreRows(indexOfRow(parent));
    }
}

void RowTreeModel::showRowsUpTo(RowId parent, std::size_t count)
{
    Parent& entry = *materialised(parent);
    count = std::min(count, entry.rows.size());
    if (count <= entry.shown)
        return;
    const bool hadRows = entry.shown != 0;
    beginInsertRows(indexOfRow(parent), int(entry.shown), int(count) - 1);
    entry.shown = count;
    endInsertRows();
    if (!hadRows)
        childrenAppeared(parent);
}

QVariant RowTreeModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !hasSource())
        return {};
    const RowId row = rowOf(index);
    const int column = index.column();
    noteAsked(parentRow(row), index.row());
    if (isDeltaColumn(column))
        return deltaData(row, column, role);
    switch (role) {
    case Qt::DisplayRole: {
        QVariant cell =
            rowDisplay(factsOf(row, factsWanted(role, column)), column, QDateTime::currentMSecsSinceEpoch());
        if (m_memoryEstimated && column == MemoryColumn)
            return estimatedCell(cell.toString());
        return cell;
    }
    case Qt::ToolTipRole: {
        QString tip = rowToolTip(factsOf(row, factsWanted(role, column)), column, QDateTime::currentMSecsSinceEpoch());
        if (m_memoryEstimated && (column == MemoryColumn || column == ShareColumn))
            tip += u'\n' + estimatedMemoryNote();
        return tip;
    }
    case SortRole:
        return rowSortValue(factsOf(row, factsWanted(role, column)), column);
    case Qt::TextAlignmentRole:
        return rowAlignment(column);
    }
    return rowData(row, role);
}

QVariant RowTreeModel::deltaData(RowId row, int column, int role) const
{
    const DeltaColumn which = column == DeltaKeysColumn ? DeltaColumn::Keys : DeltaColumn::Memory;
    switch (role) {
    case Qt::DisplayRole:
        return m_comparison ? deltaText(rowDelta(row), which) : QString();
    case Qt::ToolTipRole:
        return m_comparison ? deltaToolTip(rowDelta(row), which, m_comparison->label()) : QString();
    case SortRole: {
        const RowDelta delta = m_comparison ? rowDelta(row) : RowDelta();
        if (delta.kind == RowDelta::Unknown || delta.kind == RowDelta::Pending)
            return {};
        return qlonglong(which == DeltaColumn::Keys ? delta.keysDelta() : delta.memoryDelta());
    }
    case DeltaSignRole:
        return m_comparison ? deltaSign(rowDelta(row), which) : 0;
    case Qt::TextAlignmentRole:
        return rowAlignment(column);
    }
    return rowData(row, role); // the row's font (struck out when gone), its node, its path…
}

void RowTreeModel::setComparison(std::shared_ptr<const Comparison> comparison)
{
    if (comparison == m_comparison)
        return;
    waitForWorkerSort(); // it may be reading the comparison that goes
    m_comparison = std::move(comparison);
    comparisonChanged();
}

void RowTreeModel::comparisonChanged()
{
    columnsChanged(DeltaKeysColumn, DeltaMemoryColumn);
    if (isDeltaColumn(m_sortColumn) && hasSource()) {
        for (const RowId parent : materialisedParents())
            resort(parent);
    }
}

QVariant RowTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (m_memoryEstimated && section == MemoryColumn && orientation == Qt::Horizontal) {
        if (role == Qt::DisplayRole) // short: the column is narrow at 800 px; the tooltip says it in full
            return tr("Memory (est.)");
        if (role == Qt::ToolTipRole)
            return estimatedMemoryNote();
    }
    return treeHeaderData(section, orientation, role);
}

void RowTreeModel::setMemoryEstimated(bool estimated)
{
    if (estimated == m_memoryEstimated)
        return;
    m_memoryEstimated = estimated;
    Q_EMIT headerDataChanged(Qt::Horizontal, MemoryColumn, MemoryColumn);
    columnsChanged(MemoryColumn, MemoryColumn);
}

Qt::ItemFlags RowTreeModel::flags(const QModelIndex& index) const
{
    return index.isValid() ? Qt::ItemIsEnabled | Qt::ItemIsSelectable : Qt::NoItemFlags;
}

void RowTreeModel::noteAsked(RowId parent, int row) const
{
    if (parent != m_askedParent || !m_askedCached) {
        m_askedCached = &m_asked[parent]; // (references into an unordered_map survive a rehash)
        m_askedParent = parent;
    }
    m_askedCached->first = std::min(m_askedCached->first, std::uint32_t(row));
    m_askedCached->last = std::max(m_askedCached->last, std::uint32_t(row));
    // The last row a view has: it is showing the end of what it was given, so the next page follows (not
    // from inside its paint).
    const Parent* entry = materialised(parent);
    if (entry && std::size_t(row) + 1 == entry->shown && entry->shown < entry->rows.size()) {
        m_pagesWanted.insert(parent);
        m_pagesTurn.post();
    }
}

void RowTreeModel::shownRowsChanged(RowId parent, int firstColumn, int lastColumn)
{
    const Parent& entry = *materialised(parent);
    std::size_t first = 0;
    std::size_t last = entry.shown - 1;
    if (entry.shown > RepaintAllLimit) {
        const auto asked = m_asked.find(parent);
        if (asked == m_asked.end())
            return; // none of its rows is on screen
        first = asked->second.first;
        last = std::min(last, std::size_t(asked->second.last));
        if (m_askedCached == &asked->second)
            m_askedCached = nullptr;
        m_asked.erase(asked);
        if (first > last)
            return;
    }
    Q_EMIT dataChanged(indexOfRow(entry.rows[first], firstColumn), indexOfRow(entry.rows[last], lastColumn));
}

// ---- order ----

SortEntry RowTreeModel::totalsSortEntry(const keyspace::SubtreeTotals& totals, int column, std::int64_t nowMs)
{
    switch (column) {
    case KeysColumn:
        return {totals.keys, 0, 0};
    case TtlColumn:
        // Soonest expiry first; keys without TTL last. Expired keys count as "now".
        return {std::uint64_t(std::max(totals.keysWithTtl > 0 ? totals.soonestExpiryMs : Never, nowMs)), 0, 0};
    case FindingsColumn:
        return {findingsSortKey(totals.findings), 0, 0};
    case TypeColumn:
        // Grouped by type in type order; only the counts within a type flip with the order.
        return {totals.keys, 0, std::uint8_t(dominantType(totals))};
    case ColdColumn:
        return {totals.coldMemoryBytes, 0, 0};
    default:
        return {totals.memoryBytes, 0, 0};
    }
}

SortEntry RowTreeModel::deltaKey(RowId row, int column) const
{
    if (!m_comparison)
        return {0, 0, 1};
    return deltaSortEntry(rowDelta(row), column == DeltaKeysColumn ? DeltaColumn::Keys : DeltaColumn::Memory);
}

void RowTreeModel::sortRows(Rows& rows, int column, Qt::SortOrder order) const
{
    if (column < 0 || rows.size() < 2)
        return;
    // A pinned row is put back at the end; the others differ in their low 32 bits only. (Set aside by hand:
    // std::stable_partition takes a buffer as big as the rows, and fresh memory is slow to fault in.)
    Rows pinned;
    std::size_t kept = 0;
    for (const RowId row : rows) {
        if (isPinnedLast(row))
            pinned.push_back(row);
        else
            rows[kept++] = row;
    }
    rows.resize(kept);
    if (rows.empty()) {
        mergePinned(rows, {}, pinned, column, order == Qt::DescendingOrder);
        return;
    }
    const RowId highBits = rows.front() & ~LowBits;
    Q_ASSERT(std::all_of(rows.begin(), rows.end(), [highBits](RowId row) { return (row & ~LowBits) == highBits; }));

    // Sort keys are computed once per row, so a sort orders integers, not QVariants. The rows are visited in
    // id order: ids follow insertion, so the store's arrays and the segment pool are then read sequentially
    // instead of by cache misses (3x faster for a million rows).
    std::vector<SortEntry> entries;
    entries.reserve(rows.size());
    for (const RowId row : rows)
        entries.push_back({0, std::uint32_t(row & LowBits), 0});
    std::vector<SortEntry> scratch;
    sortByNode(entries, scratch);
    const std::int64_t now = QDateTime::currentMSecsSinceEpoch();
    const auto fillKeys = [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i) {
            SortEntry& entry = entries[i];
            const RowId row = highBits | entry.node;
            const SortEntry key = column == NameColumn    ? nameKey(nameOf(row))
                                  : isDeltaColumn(column) ? deltaKey(row, column)
                                                          : sortEntry(row, column, now);
            entry.key = key.key;
            entry.rank = key.rank;
        }
    };
    // A million rows' keys are hundreds of milliseconds of cache misses: two threads share them where the
    // subclass allows it (see sortsOnWorker(); nothing writes the source while this thread is busy here).
    if (entries.size() >= ParallelKeysFrom && sortsOnWorker()) {
        base::inTwoHalves(entries.size(), fillKeys);
    } else {
        fillKeys(0, entries.size());
    }
    const bool descending = order == Qt::DescendingOrder;
    if (descending) {
        // Biggest first, ties still by id (so equal rows keep a stable order in both directions).
        // A type sort stays grouped by type in type order; only the counts within a type flip.
        for (SortEntry& entry : entries) {
            entry.key = ~entry.key;
            if (column == NameColumn)
                entry.rank = std::uint8_t(~entry.rank);
        }
    }
    sortByRankAndKey(entries, scratch);
    scratch = {};
    if (column == NameColumn) {
        // Names that share their first eight bytes: order each such run by the whole name.
        for (std::size_t begin = 0; begin < entries.size();) {
            std::size_t end = begin + 1;
            while (end < entries.size() && entries[end].key == entries[begin].key &&
                   entries[end].rank == entries[begin].rank)
                ++end;
            if (end - begin > 1) {
                std::sort(entries.begin() + qsizetype(begin), entries.begin() + qsizetype(end),
                          [&](const SortEntry& a, const SortEntry& b) {
                              const int c = compareNames(nameOf(highBits | a.node), nameOf(highBits | b.node));
                              if (c != 0)
                                  return descending ? c > 0 : c < 0;
                              return a.node < b.node;
                          });
            }
            begin = end;
        }
    }
    for (std::size_t i = 0; i < entries.size(); ++i)
        rows[i] = highBits | entries[i].node;
    mergePinned(rows, entries, pinned, column, descending);
}

void RowTreeModel::mergePinned(Rows& rows, const std::vector<SortEntry>& entries, Rows& pinned, int column,
                               bool descending) const
{
    // A pinned row that takes part in this sort (a namespace gone since the earlier scan, by its change) goes where
    // its key puts it among the sorted rows; the others stay at the end.
    std::vector<std::pair<SortEntry, RowId>> joining;
    Rows last;
    for (const RowId row : pinned) {
        if (!sortsAmongRows(row, column)) {
            last.push_back(row);
            continue;
        }
        SortEntry key = deltaKey(row, column);
        if (descending)
            key.key = ~key.key;
        joining.push_back({key, row});
    }
    std::stable_sort(joining.begin(), joining.end(), [](const auto& a, const auto& b) {
        return std::pair(a.first.rank, a.first.key) < std::pair(b.first.rank, b.first.key);
    });
    if (!joining.empty()) {
        Rows merged;
        merged.reserve(rows.size() + pinned.size());
        std::size_t at = 0;
        for (const auto& [key, row] : joining) {
            // After the rows of an equal key: they were sorted first.
            while (at < rows.size() && std::pair(entries[at].rank, entries[at].key) <= std::pair(key.rank, key.key))
                merged.push_back(rows[at++]);
            merged.push_back(row);
        }
        merged.insert(merged.end(), rows.begin() + qsizetype(at), rows.end());
        rows = std::move(merged);
    }
    rows.insert(rows.end(), last.begin(), last.end());
}

void RowTreeModel::reorder(RowId parent, Rows newRows, const std::vector<SortEntry>* numbersByNode)
{
    const QModelIndex parentIndex = indexOfRow(parent);
    const QList<QPersistentModelIndex> parents =
        parentIndex.isValid() ? QList<QPersistentModelIndex>{parentIndex} : QList<QPersistentModelIndex>{};
    Q_EMIT layoutAboutToBeChanged(parents, QAbstractItemModel::VerticalSortHint);

    QModelIndexList from;
    for (const QModelIndex& index : persistentIndexList()) {
        if (index.isValid() && parentRow(rowOf(index)) == parent)
            from << index;
    }
    Parent& entry = *materialised(parent);
    entry.rows = std::move(newRows);
    entry.version = ++m_rowVersions;
    if (numbersByNode && numbersByNode->size() == entry.rows.size() && !entry.rows.empty()) {
        const RowId kind = entry.rows.front() & ~LowBits;
        for (const SortEntry& number : *numbersByNode)
            storeRowNumber(kind | number.node, std::uint32_t(number.key));
    } else {
        storeRowNumbers(entry.rows);
    }
    QModelIndexList to;
    to.reserve(from.size());
    for (const QModelIndex& index : std::as_const(from)) // a row sorted past the pages shown has no index now
        to << (isRow(rowOf(index)) ? indexOfRow(rowOf(index), index.column()) : QModelIndex());
    changePersistentIndexList(from, to);

    Q_EMIT layoutChanged(parents, QAbstractItemModel::VerticalSortHint);
}

void RowTreeModel::resort(RowId parent)
{
    const Parent& entry = *materialised(parent);
    if (entry.fixedOrder)
        return;
    Rows sorted = entry.rows;
    sortRows(sorted);
    if (sorted != entry.rows)
        reorder(parent, std::move(sorted));
}

void RowTreeModel::sort(int column, Qt::SortOrder order)
{
    Q_ASSERT(thread() == QThread::currentThread());
    if (column < 0 || column >= ColumnCount)
        return;
    // QTreeView::sortByColumn sorts, and so does the header's signal it triggers: the second call finds
    // nothing to do unless totals moved in between.
    if (column == m_sortColumn && order == m_sortOrder && !m_orderMayBeStale)
        return;
    m_orderMayBeStale = false;
    m_sortColumn = column;
    m_sortOrder = order;
    if (!hasSource())
        return;
    for (const RowId parent : materialisedParents())
        resort(parent);
}

std::vector<RowTreeModel::RowId> RowTreeModel::materialisedParents() const
{
    // A copy: the signals a re-sort emits let views ask for rows, which can materialise new parents and
    // rehash m_parents under a loop over it.
    std::vector<RowId> parents;
    parents.reserve(m_parents.size());
    for (const auto& [parent, entry] : m_parents) {
        if (entry.shown != 0)
            parents.push_back(parent);
    }
    return parents;
}

// ---- live updates ----

void RowTreeModel::appendRows(RowId parent, const Rows& added)
{
    Parent& entry = *materialised(parent);
    // Before a pinned last row, which stays last.
    std::size_t at = entry.rows.size();
    while (at > 0 && isPinnedLast(entry.rows[at - 1]))
        --at;
    // A view that sees all the rows sees the new ones too, as far as its pages have room: where rows are
    // held back, the new ones come after them.
    const bool allShown = entry.shown == entry.rows.size();
    const std::size_t room = std::max(pageOf(parent, entry), entry.shown);
    const std::size_t seen = !allShown ? 0 : std::min(added.size(), room - std::min(room, entry.shown));
    entry.roomAhead.makeRoom(entry.rows, added.size());
    if (seen != 0)
        beginInsertRows(indexOfRow(parent), int(at), int(at + seen) - 1);
    entry.rows.insert(entry.rows.begin() + qsizetype(at), added.begin(), added.end());
    entry.version = ++m_rowVersions;
    entry.shown += seen;
    storeRowNumbers(entry.rows, at);
    if (seen != 0)
        endInsertRows();
    m_arrived.insert(parent); // refreshRows() puts them in sort order, in one layout change per parent
    if (seen != 0 && entry.shown == seen)
        childrenAppeared(parent);
}

void RowTreeModel::removeChildRows(RowId parent, const std::unordered_set<RowId>& gone)
{
    Parent* entry = materialised(parent);
    if (!entry || gone.empty())
        return;
    // From the last run to the first, so that each removal names rows as the view knows them at that moment.
    for (std::size_t end = entry->rows.size(); end > 0;) {
        if (gone.count(entry->rows[end - 1]) == 0) {
            --end;
            continue;
        }
        std::size_t begin = end - 1;
        while (begin > 0 && gone.count(entry->rows[begin - 1]) != 0)
            --begin;
        const std::size_t shownEnd = std::min(end, entry->shown);
        const bool seen = begin < shownEnd;
        if (seen)
            beginRemoveRows(indexOfRow(parent), int(begin), int(shownEnd) - 1);
        entry->rows.erase(entry->rows.begin() + qsizetype(begin), entry->rows.begin() + qsizetype(end));
        entry->shown -= seen ? shownEnd - begin : 0;
        entry->version = ++m_rowVersions;
        storeRowNumbers(entry->rows, begin);
        if (seen)
            endRemoveRows();
        end = begin;
    }
    for (const RowId row : gone)
        forgetParent(row);
}

void RowTreeModel::forgetParent(RowId parent)
{
    if (parent == m_cachedParent)
        m_cached = nullptr;
    if (parent == m_askedParent)
        m_askedCached = nullptr;
    m_parents.erase(parent);
    m_asked.erase(parent);
    m_repainted.erase(parent);
    m_pagesWanted.erase(parent);
    m_arrived.erase(parent);
}

void RowTreeModel::announceRows(const std::unordered_map<RowId, Rows>& added)
{
    for (const auto& [parent, rows] : added) {
        const Parent* entry = materialised(parent);
        if (entry && !entry->fixedOrder && !rows.empty())
            appendRows(parent, rows);
    }
}

void RowTreeModel::refreshRows(bool final)
{
    m_orderMayBeStale = true;
    const std::unordered_set<RowId> arrived = std::exchange(m_arrived, {});
    const qint64 now = m_clock.elapsed();
    std::vector<RowId> toSortOnWorker;
    for (const RowId parent : materialisedParents()) {
        Parent& entry = *materialised(parent);
        const bool big = entry.rows.size() > LiveResortLimit;
        // Names never change, so a name order only breaks where rows arrived; totals change anywhere.
        const bool orderMayBreak = m_sortColumn > NameColumn || arrived.count(parent) != 0;
        if (big && !final) {
            if (arrived.count(parent) != 0)
                m_arrived.insert(parent); // still out of order: sorted at the end
            // QTreeView answers a dataChanged over a range by visiting every row of it (unless a relayout is
            // pending anyway, as right after an insertion): a big parent repaints its totals once a second.
            qint64& repainted = m_repainted.try_emplace(parent, now - BigParentIntervalMs).first->second;
            if (now - repainted < BigParentIntervalMs)
                continue;
            repainted = now;
        } else if (orderMayBreak && big && sortsOnWorker()) {
            toSortOnWorker.push_back(parent);
        } else if (orderMayBreak) {
            resort(parent);
        }
        shownRowsChanged(parent, KeysColumn, ColumnCount - 1);
    }
    if (!toSortOnWorker.empty())
        sortOnWorker(toSortOnWorker); // copies the rows into the room made ahead for them, where there is one
    if (final) {
        for (const RowId parent : materialisedParents())
            materialised(parent)->roomAhead.reset(); // nothing more arrives
    }
}

// A re-sort of big parents on a worker: the rows as they stand and the order asked. The order is applied only if both
// still hold when the worker is done (a click on a header meanwhile sorts them on this thread, as ever).
struct RowTreeModel::WorkerSortJob
{
    struct Sorted
    {
        RowId parent;
        std::uint64_t version; // whether the rows still hold is told by their version, not by a second copy
        Rows rows;             // the copy the worker sorts
        bool copied = true;    // false while it is being made, a slice at a time
        // The sorted rows' numbers in node order: stored in that order, the writes go through memory once, where in
        // the rows' order each was a cache miss (1.3 million rows by memory: most of an 84 ms event at 10M keys).
        std::vector<SortEntry> numbersByNode;
    };
    int column;
    Qt::SortOrder order;
    std::vector<Sorted> parents;
};

void RowTreeModel::sortOnWorker(const std::vector<RowId>& parents)
{
    waitForWorkerSort();
    auto job = std::make_shared<WorkerSortJob>(WorkerSortJob{m_sortColumn, m_sortOrder, {}});
    bool copied = true;
    for (const RowId parent : parents) {
        Parent& entry = *materialised(parent);
        WorkerSortJob::Sorted sorted{parent, entry.version, {}, true, {}};
        if (std::optional<Rows> room = entry.roomAhead.copyIntoRoom(entry.rows)) {
            sorted.rows = std::move(*room);
        } else {
            // No room made ahead (the rows had not grown to three quarters of their buffer yet): a copy at once
            // would clear its fresh pages as it touched them, 25-45 ms for a million rows. A slice at a time
            // instead, the end of the scan waiting for it as for the worker.
            sorted.rows.reserve(entry.rows.size());
            sorted.copied = false;
            copied = false;
        }
        job->parents.push_back(std::move(sorted));
    }
    if (copied) {
        startWorkerSort(std::move(job));
        return;
    }
    m_copyingForSort = std::move(job);
    m_copySlices.start([this](std::size_t rows) { return copyForSortStep(rows); },
                       [this] { startWorkerSort(std::exchange(m_copyingForSort, nullptr)); });
}

bool RowTreeModel::copyForSortStep(std::size_t rows)
{
    auto& parents = m_copyingForSort->parents;
    for (auto it = parents.begin(); it != parents.end(); ++it) {
        if (it->copied)
            continue;
        const Parent* entry = materialised(it->parent);
        if (!entry || entry->version != it->version) {
            parents.erase(it); // its rows changed between two slices (a click on a header): the copy is torn
            return false;
        }
        const std::size_t from = it->rows.size();
        const std::size_t to = std::min(entry->rows.size(), from + rows);
        it->rows.insert(it->rows.end(), entry->rows.begin() + qsizetype(from), entry->rows.begin() + qsizetype(to));
        it->copied = to == entry->rows.size();
        return false;
    }
    return true;
}

void RowTreeModel::startWorkerSort(std::shared_ptr<WorkerSortJob> job)
{
    m_workerSort.start(
        [this, job] {
            for (WorkerSortJob::Sorted& sorted : job->parents) {
                sortRows(sorted.rows, job->column, job->order);
                const RowId kind = sorted.rows.empty() ? 0 : sorted.rows.front() & ~LowBits;
                if (!std::all_of(sorted.rows.begin(), sorted.rows.end(),
                                 [kind](RowId row) { return (row & ~LowBits) == kind; }))
                    continue; // rows of two kinds (a pinned row): stored in the rows' order
                sorted.numbersByNode.reserve(sorted.rows.size());
                for (std::size_t i = 0; i < sorted.rows.size(); ++i)
                    sorted.numbersByNode.push_back({i, std::uint32_t(sorted.rows[i] & LowBits), 0});
                std::vector<SortEntry> scratch;
                sortByNode(sorted.numbersByNode, scratch);
            }
        },
        [this, job] {
            if (job->column == m_sortColumn && job->order == m_sortOrder) {
                for (WorkerSortJob::Sorted& sorted : job->parents) {
                    const Parent* entry = materialised(sorted.parent);
                    if (entry && !entry->fixedOrder && entry->version == sorted.version && entry->rows != sorted.rows)
                        reorder(sorted.parent, std::move(sorted.rows), &sorted.numbersByNode);
                }
            }
            Q_EMIT workerSortApplied();
        });
}

void RowTreeModel::waitForWorkerSort()
{
    m_copySlices.cancel(); // dropped as a worker's order is
    m_copyingForSort.reset();
    m_workerSort.cancel();
}

void RowTreeModel::columnsChanged(int firstColumn, int lastColumn)
{
    // From the given columns only: a range over the Name column makes a tree view ask every row's
    // hasChildren() again (a parent of 200,000 rows took 60 ms).
    for (const RowId parent : materialisedParents())
        shownRowsChanged(parent, firstColumn, lastColumn);
}

void RowTreeModel::rowChanged(RowId row)
{
    if (isRow(row))
        Q_EMIT dataChanged(indexOfRow(row, NameColumn), indexOfRow(row, ColumnCount - 1));
}

void RowTreeModel::childrenAppeared(RowId row)
{
    if (isRow(row)) {
        const QModelIndex name = indexOfRow(row, NameColumn);
        Q_EMIT dataChanged(name, name);
    }
}

} // namespace keylens::models
