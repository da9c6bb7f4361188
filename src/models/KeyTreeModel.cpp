#include "models/KeyTreeModel.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "lint/OverlayRules.h"
#include "models/DisplayText.h"
#include "models/FindingsText.h"
#include "models/SortKeys.h"

#include <QDateTime>
#include <QFont>
#include <QThread>

#include <algorithm>

namespace keylens::models {

using keyspace::KeyType;

namespace {

constexpr std::int64_t Never = std::numeric_limits<std::int64_t>::max();
// Parents with more rows than this are re-sorted when the scan ends rather than on every publish: a
// full sort of a 1M-row parent ten times a second would be most of the GUI thread's time.
constexpr std::size_t LiveResortLimit = 20'000;

std::int64_t nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

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
SortEntry nameKey(QByteArrayView segment, NodeId node)
{
    if (isDigits(segment)) {
        std::uint64_t value = 0;
        for (const char c : segment)
            value = value * 10 + std::uint64_t(c - '0');
        return {value, node, 0};
    }
    std::uint64_t prefix = 0;
    for (qsizetype i = 0; i < 8; ++i)
        prefix = (prefix << 8) | (i < segment.size() ? static_cast<unsigned char>(lower(segment[i])) : 0u);
    return {prefix, node, 1};
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

} // namespace

KeyTreeModel::KeyTreeModel(QObject* parent)
    : QAbstractItemModel(parent)
{}

KeyTreeModel::~KeyTreeModel() = default;

void KeyTreeModel::setKeyspace(const keyspace::Keyspace* keyspace)
{
    beginResetModel();
    m_keyspace = keyspace;
    m_publishedNodes = keyspace ? keyspace->nodeCount() : 1;
    m_rows.clear();
    m_cachedRows = nullptr;
    m_deferred.clear();
    m_announced.clear();
    m_clock.start();
    m_rowNumber.assign(m_publishedNodes, 0);
    m_hasChildren.clear();
    if (keyspace)
        markParents(1, m_publishedNodes);
    m_lengths.clear();
    m_deleted.clear();
    m_libraries = nullptr;
    m_visibility.clear();
    m_filterMatches = 0;
    if (isFiltering())
        applyFilterToNewNodes(1, m_publishedNodes, nullptr);
    endResetModel();
}

bool KeyTreeModel::isVisible(NodeId node) const
{
    return !isFiltering() || m_visibility[node] != 0;
}

bool KeyTreeModel::hasVisibleChildren(NodeId node) const
{
    if (isFiltering())
        return m_visibility[node] & MatchesBelow;
    return (m_hasChildren[node >> 6] >> (node & 63)) & 1;
}

void KeyTreeModel::markParents(std::size_t from, std::size_t to)
{
    m_hasChildren.resize((to + 63) / 64, 0);
    for (std::size_t node = std::max<std::size_t>(from, 1); node < to; ++node) {
        const NodeId parent = m_keyspace->parent(NodeId(node));
        m_hasChildren[parent >> 6] |= std::uint64_t(1) << (parent & 63);
    }
}

const KeyTreeModel::Rows& KeyTreeModel::rowsOf(NodeId parent) const
{
    // A view lays out a parent's rows one index() at a time: remember the last parent asked about.
    // (Pointers into an unordered_map stay valid until the element is erased; every erase resets this.)
    if (parent == m_cachedParent && m_cachedRows)
        return *m_cachedRows;
    if (auto it = m_rows.find(parent); it != m_rows.end()) {
        m_cachedParent = parent;
        m_cachedRows = &it->second;
        return it->second;
    }
    Rows rows;
    if (m_keyspace && hasVisibleChildren(parent)) {
        rows = m_keyspace->children(parent);
        std::erase_if(rows, [this](NodeId child) { return child >= m_publishedNodes || !isVisible(child); });
        sortRows(rows);
    }
    setRowNumbers(rows);
    return m_rows.emplace(parent, std::move(rows)).first->second;
}

void KeyTreeModel::setRowNumbers(const Rows& rows) const
{
    if (m_rowNumber.size() < m_publishedNodes)
        m_rowNumber.resize(m_publishedNodes, 0);
    for (std::size_t i = 0; i < rows.size(); ++i)
        m_rowNumber[rows[i]] = std::uint32_t(i);
}

NodeId KeyTreeModel::nodeOf(const QModelIndex& index) const
{
    return index.isValid() ? NodeId(index.internalId()) : keyspace::Keyspace::root();
}

QModelIndex KeyTreeModel::indexForRow(NodeId node, int column) const
{
    if (node == keyspace::Keyspace::root())
        return {};
    return createIndex(int(m_rowNumber[node]), column, quintptr(node));
}

QModelIndex KeyTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!m_keyspace || row < 0 || column < 0 || column >= ColumnCount || parent.column() > 0)
        return {};
    const Rows& rows = rowsOf(nodeOf(parent));
    if (std::size_t(row) >= rows.size())
        return {};
    return createIndex(row, column, quintptr(rows[std::size_t(row)]));
}

QModelIndex KeyTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    return indexForRow(m_keyspace->parent(nodeOf(child)));
}

int KeyTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!m_keyspace || parent.column() > 0)
        return 0;
    return int(rowsOf(nodeOf(parent)).size());
}

int KeyTreeModel::columnCount(const QModelIndex& parent) const
{
    return parent.column() > 0 ? 0 : ColumnCount;
}

bool KeyTreeModel::hasChildren(const QModelIndex& parent) const
{
    if (!m_keyspace || parent.column() > 0)
        return false;
    const NodeId node = nodeOf(parent);
    // Asking must not materialise: a view asks this for every visible row, and a row may stand for a
    // namespace of a million keys that nobody expands.
    if (!hasVisibleChildren(node))
        return false; // most rows are keys: one array lookup, no hash lookup
    if (auto it = m_rows.find(node); it != m_rows.end())
        return !it->second.empty();
    return true;
}

Qt::ItemFlags KeyTreeModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable;
}

QModelIndex KeyTreeModel::indexOfNode(NodeId node, int column)
{
    if (!m_keyspace || node >= m_publishedNodes || !isVisible(node))
        return {};
    std::vector<NodeId> chain;
    for (NodeId n = node; n != keyspace::Keyspace::root(); n = m_keyspace->parent(n))
        chain.push_back(n);
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        rowsOf(m_keyspace->parent(*it));
        flushDeferred(m_keyspace->parent(*it)); // a row still waiting to be announced has no row number yet
    }
    return indexForRow(node, column);
}

// ---- totals, overlays and display ----

KeyTreeModel::Totals KeyTreeModel::totalsOf(NodeId node) const
{
    return keyspace::subtreeTotals(*m_keyspace, node);
}

double KeyTreeModel::memoryFraction(NodeId node) const
{
    // Painted for every row on screen: the sort keys' lean accessors, not two whole Totals.
    const NodeId parent = m_keyspace->parent(node);
    if (const std::uint64_t parentMemory = memoryOf(parent))
        return double(memoryOf(node)) / double(parentMemory);
    const std::uint64_t parentKeys = keysOf(parent);
    return parentKeys > 0 ? double(keysOf(node)) / double(parentKeys) : 0.0;
}

int KeyTreeModel::overlaysOf(NodeId node, std::int64_t now) const
{
    int overlays = 0;
    const Totals totals = totalsOf(node);
    if (m_deleted.count(node))
        overlays |= Deleted;
    if (totals.keysMemoryUnmeasured > 0)
        overlays |= MemoryUnmeasured;
    if (totals.keysWithTtl > 0 && totals.soonestExpiryMs != Never) {
        // A soonest expiry that has passed says nothing of the next one: no "expiring soon" for it.
        if (totals.soonestExpiryMs <= now && m_keyspace->isKey(node) && !m_keyspace->hasChildren(node))
            overlays |= Expired;
        else if (totals.soonestExpiryMs > now && totals.soonestExpiryMs - now <= 60'000)
            overlays |= ExpiringSoon;
    }
    if (m_keyspace->isKey(node)) {
        const keyspace::KeyInfo info = m_keyspace->keyInfo(node);
        // A key's length decides once asked (after the scan, or by the details pane); until then a
        // string's MEMORY USAGE stands in for it, and a collection is not judged.
        if (auto it = m_lengths.find(node); it != m_lengths.end()) {
            if (lint::isBigKey(info.type, it->second))
                overlays |= BigKey;
        } else if (lint::isBigStringKey(info, m_keyspace->pathLength(node))) {
            overlays |= BigKey;
        }
        const NodeId parent = m_keyspace->parent(node);
        if (parent != keyspace::Keyspace::root() && lint::lacksTtlAmongExpiring(info, m_keyspace->stats(parent)))
            overlays |= NoTtlAmongExpiring;
    }
    if (m_keyspace->hasChildren(node) && lint::hasKeysLackingTtlAmongExpiring(m_keyspace->stats(node)))
        overlays |= NoTtlAmongExpiring;
    return overlays;
}

RowFacts KeyTreeModel::factsOf(NodeId node, FactsWanted wanted) const
{
    RowFacts row;
    row.name = m_keyspace->segment(node);
    row.totals = totalsOf(node);
    row.isKey = m_keyspace->isKey(node);
    row.isLeafKey = row.isKey && !m_keyspace->hasChildren(node);
    if (row.isLeafKey)
        row.expiresAtMs = m_keyspace->keyInfo(node).expiresAtMs;
    if (wanted.memoryFraction)
        row.memoryFraction = memoryFraction(node);
    if (wanted.overlays)
        row.overlays = overlaysOf(node, nowMs());
    if (wanted.toolTip) {
        row.library = libraryOf(node);
        row.path = m_keyspace->path(node);
        if (row.isKey)
            row.keyFindings = findingsOfKey(*m_keyspace, node);
    }
    return row;
}

QVariant KeyTreeModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_keyspace)
        return {};
    const NodeId node = nodeOf(index);
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return rowDisplay(factsOf(node, factsWanted(role, column)), column, nowMs());
    case Qt::ToolTipRole:
        return rowToolTip(factsOf(node, factsWanted(role, column)), column, nowMs());
    case Qt::TextAlignmentRole:
        return rowAlignment(column);
    case Qt::FontRole:
        if (m_deleted.count(node)) {
            QFont font;
            font.setStrikeOut(true);
            return font;
        }
        return {};
    case SortRole:
        return rowSortValue(factsOf(node, factsWanted(role, column)), column);
    case NodeRole:
        return qulonglong(node);
    case KeyBytesRole:
        return m_keyspace->isKey(node) ? m_keyspace->path(node) : QByteArray();
    case PathRole:
        return m_keyspace->path(node);
    case IsKeyRole:
        return m_keyspace->isKey(node);
    case MemoryFractionRole:
        return memoryFraction(node);
    case OverlayRole:
        return overlaysOf(node, nowMs());
    case WorstFindingRole:
        return totalsOf(node).worstFinding();
    case LibraryRole: {
        const lint::LibraryInfo* library = libraryOf(node);
        return library ? QString::fromLatin1(library->id) : QString();
    }
    }
    return {};
}

QVariant KeyTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return treeHeaderData(section, orientation, role);
}

// ---- sorting ----

void KeyTreeModel::sortRows(Rows& rows) const
{
    if (m_sortColumn < 0 || rows.size() < 2)
        return;
    // Sort keys are computed once per row, so a sort orders integers, not QVariants.
    // Visit the rows in node id order: ids follow insertion, so the store's arrays and the segment
    // pool are then read sequentially instead of by cache misses (3x faster for a million rows).
    std::vector<SortEntry> byNode;
    byNode.reserve(rows.size());
    for (const NodeId node : rows)
        byNode.push_back({0, node, 0});
    radixSort(byNode);
    std::vector<SortEntry> entries;
    entries.reserve(rows.size());
    const std::int64_t now = nowMs();
    for (const SortEntry& visit : byNode) {
        const NodeId node = visit.node;
        if (m_sortColumn == NameColumn) {
            entries.push_back(nameKey(m_keyspace->segment(node), node));
            continue;
        }
        switch (m_sortColumn) {
        case KeysColumn:
            entries.push_back({keysOf(node), node, 0});
            break;
        case MemoryColumn:
        case ShareColumn:
            entries.push_back({memoryOf(node), node, 0});
            break;
        case TtlColumn:
            // Soonest expiry first; keys without TTL last. Expired keys count as "now".
            entries.push_back({std::uint64_t(std::max(soonestExpiryOf(node), now)), node, 0});
            break;
        case FindingsColumn:
            entries.push_back({findingsSortKey(totalsOf(node).findings), node, 0});
            break;
        case TypeColumn: {
            const Totals totals = totalsOf(node);
            entries.push_back({totals.keys, node, std::uint8_t(dominantType(totals))});
            break;
        }
        }
    }
    const bool descending = m_sortOrder == Qt::DescendingOrder;
    if (descending) {
        // Biggest first, ties still by node id (so equal rows keep a stable order in both directions).
        // A type sort stays grouped by type in type order; only the counts within a type flip.
        for (SortEntry& entry : entries) {
            entry.key = ~entry.key;
            if (m_sortColumn == NameColumn)
                entry.rank = std::uint8_t(~entry.rank);
        }
    }
    radixSort(entries);
    if (m_sortColumn == NameColumn) {
        // Names that share their first eight bytes: order each such run by the whole name.
        for (std::size_t begin = 0; begin < entries.size();) {
            std::size_t end = begin + 1;
            while (end < entries.size() && entries[end].key == entries[begin].key &&
                   entries[end].rank == entries[begin].rank)
                ++end;
            if (end - begin > 1) {
                std::sort(entries.begin() + qsizetype(begin), entries.begin() + qsizetype(end),
                          [&](const SortEntry& a, const SortEntry& b) {
                              const int c = compareNames(m_keyspace->segment(a.node), m_keyspace->segment(b.node));
                              if (c != 0)
                                  return descending ? c > 0 : c < 0;
                              return a.node < b.node;
                          });
            }
            begin = end;
        }
    }
    for (std::size_t i = 0; i < rows.size(); ++i)
        rows[i] = entries[i].node;
}

std::uint64_t KeyTreeModel::keysOf(NodeId node) const
{
    return keyspace::subtreeKeys(*m_keyspace, node);
}

std::uint64_t KeyTreeModel::memoryOf(NodeId node) const
{
    return keyspace::subtreeMemory(*m_keyspace, node);
}

std::int64_t KeyTreeModel::soonestExpiryOf(NodeId node) const
{
    const keyspace::NamespaceStats& stats = m_keyspace->stats(node);
    std::int64_t soonest = stats.keysWithTtl > 0 ? stats.soonestExpiryMs : Never;
    if (m_keyspace->isKey(node)) {
        const std::int64_t own = m_keyspace->keyInfo(node).expiresAtMs;
        if (keyspace::hasExpiry(own))
            soonest = std::min(soonest, own);
    }
    return soonest;
}

void KeyTreeModel::reorder(NodeId parent, Rows newRows)
{
    const QModelIndex parentIndex = indexForRow(parent);
    const QList<QPersistentModelIndex> parents =
        parentIndex.isValid() ? QList<QPersistentModelIndex>{parentIndex} : QList<QPersistentModelIndex>{};
    Q_EMIT layoutAboutToBeChanged(parents, QAbstractItemModel::VerticalSortHint);

    QModelIndexList from;
    for (const QModelIndex& index : persistentIndexList()) {
        if (index.isValid() && m_keyspace->parent(nodeOf(index)) == parent)
            from << index;
    }
    Rows& rows = m_rows[parent];
    rows = std::move(newRows);
    setRowNumbers(rows);
    QModelIndexList to;
    to.reserve(from.size());
    for (const QModelIndex& index : std::as_const(from))
        to << indexForRow(nodeOf(index), index.column());
    changePersistentIndexList(from, to);

    Q_EMIT layoutChanged(parents, QAbstractItemModel::VerticalSortHint);
}

void KeyTreeModel::sort(int column, Qt::SortOrder order)
{
    Q_ASSERT(thread() == QThread::currentThread());
    if (column >= ColumnCount)
        return;
    // QTreeView::sortByColumn sorts, and so does the header's signal it triggers: the second call
    // finds nothing to do unless totals moved in between.
    if (column == m_sortColumn && order == m_sortOrder && !m_orderMayBeStale)
        return;
    m_orderMayBeStale = false;
    m_sortColumn = column;
    m_sortOrder = order;
    if (!m_keyspace)
        return;
    for (const NodeId parent : materialisedParents())
        resort(parent);
}

std::vector<NodeId> KeyTreeModel::materialisedParents() const
{
    // A copy: the signals a re-sort emits let views ask for rows, which can materialise new parents
    // and rehash m_rows under a loop over it.
    std::vector<NodeId> parents;
    parents.reserve(m_rows.size());
    for (const auto& [parent, rows] : m_rows) {
        if (!rows.empty())
            parents.push_back(parent);
    }
    return parents;
}

void KeyTreeModel::resort(NodeId parent)
{
    Rows sorted = m_rows[parent];
    sortRows(sorted);
    if (sorted != m_rows[parent])
        reorder(parent, std::move(sorted));
}

// ---- live updates ----

void KeyTreeModel::appendRows(NodeId parent, const Rows& added)
{
    Rows& rows = m_rows[parent];
    const int first = int(rows.size());
    beginInsertRows(indexForRow(parent), first, first + int(added.size()) - 1);
    rows.insert(rows.end(), added.begin(), added.end());
    for (std::size_t i = std::size_t(first); i < rows.size(); ++i)
        m_rowNumber[rows[i]] = std::uint32_t(i);
    endInsertRows();
    // publish() puts them in sort order next, in one layout change per parent.
}

void KeyTreeModel::flushDeferred(NodeId parent)
{
    auto it = m_deferred.find(parent);
    if (it == m_deferred.end())
        return;
    Rows nodes = std::move(it->second);
    m_deferred.erase(it);
    if (nodes.empty())
        return;
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    appendRows(parent, nodes);
}

void KeyTreeModel::markMatch(NodeId node, std::vector<NodeId>* newlyVisible)
{
    if (m_visibility[node] & Matches)
        return;
    ++m_filterMatches;
    if (m_visibility[node] == 0 && newlyVisible)
        newlyVisible->push_back(node);
    m_visibility[node] |= Matches;
    for (NodeId n = node; n != keyspace::Keyspace::root();) {
        const NodeId parent = m_keyspace->parent(n);
        if (m_visibility[parent] & MatchesBelow)
            break;
        if (m_visibility[parent] == 0 && newlyVisible && parent != keyspace::Keyspace::root())
            newlyVisible->push_back(parent);
        m_visibility[parent] |= MatchesBelow;
        n = parent;
    }
}

void KeyTreeModel::applyFilterToNewNodes(std::size_t from, std::size_t to, std::vector<NodeId>* newlyVisible)
{
    m_visibility.resize(to, 0);
    for (std::size_t node = from; node < to; ++node) {
        if (m_keyspace->isKey(NodeId(node)) && matchesFilter(NodeId(node)))
            markMatch(NodeId(node), newlyVisible);
    }
}

bool KeyTreeModel::matchesFilter(NodeId key) const
{
    if (m_findingsFilter.enabled) {
        const std::uint32_t rules = m_keyspace->findingRules(key);
        if (m_findingsFilter.rule < 0 ? rules == 0 : !(rules >> m_findingsFilter.rule & 1))
            return false;
    }
    return m_filter.isEmpty() || m_filter.matches(m_keyspace->path(key));
}

void KeyTreeModel::setFilter(const keyspace::KeyGlob& filter)
{
    Q_ASSERT(thread() == QThread::currentThread());
    m_filter = filter;
    resetFilter();
}

void KeyTreeModel::setFindingsFilter(FindingsFilter filter)
{
    Q_ASSERT(thread() == QThread::currentThread());
    m_findingsFilter = filter;
    resetFilter();
}

void KeyTreeModel::refreshFindings()
{
    if (!m_keyspace)
        return;
    // Under a findings filter, keys that just got findings must appear: recompute the rows.
    if (m_findingsFilter.enabled) {
        resetFilter();
        return;
    }
    // The Findings column only: a range over the Name column makes a tree view ask every row's
    // hasChildren() again (a parent of 200,000 rows took 60 ms).
    for (const NodeId parent : materialisedParents()) {
        const Rows& rows = m_rows[parent];
        Q_EMIT dataChanged(indexForRow(rows.front(), FindingsColumn), indexForRow(rows.back(), FindingsColumn));
    }
}

void KeyTreeModel::resetFilter()
{
    // A new filter changes which rows exist almost everywhere: a reset is honest and cheaper than
    // thousands of remove/insert signals. The window keeps the expansion by path across it.
    beginResetModel();
    m_rows.clear();
    m_cachedRows = nullptr;
    m_deferred.clear();
    m_visibility.clear();
    m_filterMatches = 0;
    if (m_keyspace && isFiltering())
        applyFilterToNewNodes(1, m_publishedNodes, nullptr);
    endResetModel();
}

void KeyTreeModel::publish(bool final)
{
    Q_ASSERT(thread() == QThread::currentThread());
    if (!m_keyspace)
        return;
    // The root has no row to send a dataChanged for: a view that asked hasChildren() of an empty root
    // would never ask again, and the tree stayed empty for the whole scan. So the root is materialised
    // (with what it showed until now) before this publish, and its new children arrive as inserted rows.
    rowsOf(keyspace::Keyspace::root());
    const std::size_t oldPublished = m_publishedNodes;
    const std::size_t nodeCount = m_keyspace->nodeCount();
    m_orderMayBeStale = true;
    markParents(oldPublished, nodeCount);

    // The nodes that become rows: new nodes, and under a filter, older ancestors of new matches.
    std::vector<NodeId> candidates;
    if (!isFiltering()) {
        candidates.reserve(nodeCount - oldPublished);
        for (std::size_t node = oldPublished; node < nodeCount; ++node)
            candidates.push_back(NodeId(node));
    } else {
        applyFilterToNewNodes(oldPublished, nodeCount, &candidates);
    }
    m_publishedNodes = nodeCount;
    if (m_rowNumber.size() < nodeCount)
        m_rowNumber.resize(nodeCount, 0);

    // Group them by parent; only parents a view has seen need to hear about them.
    std::unordered_map<NodeId, Rows> added;
    std::unordered_map<NodeId, std::uint32_t> firstChildren; // old rows without rows of their own
    for (const NodeId node : candidates) {
        const NodeId parent = m_keyspace->parent(node);
        if (isMaterialised(parent))
            added[parent].push_back(node);
        else if (parent < oldPublished && parent != keyspace::Keyspace::root() &&
                 isMaterialised(m_keyspace->parent(parent)))
            ++firstChildren[parent];
    }
    // A row that was a plain key and got its first children: a one-cell dataChanged on its name makes
    // a tree view ask hasChildren() again and draw the expand arrow. (A range starting at the Name
    // column would make QTreeView re-ask it for every row of the range: slow on big parents.)
    // (Under a filter, a row that starts to show children is inserted fresh and asked anyway.)
    for (const auto& [row, count] : firstChildren) {
        if (!isFiltering() && m_keyspace->stats(row).childCount == count && isRow(row)) {
            const QModelIndex index = indexForRow(row, NameColumn);
            Q_EMIT dataChanged(index, index);
        }
    }
    const qint64 now = m_clock.elapsed();
    std::unordered_set<NodeId> announced;
    for (auto& [parent, nodes] : added) {
        // A big open parent makes a tree view lay out all its rows again on every insertion: tell it
        // once a second, not ten times (the rows wait in m_deferred; the final publish flushes them).
        Rows& waiting = m_deferred[parent];
        waiting.insert(waiting.end(), nodes.begin(), nodes.end());
        if (!final && m_rows[parent].size() > LiveResortLimit && now - m_announced[parent] < BigParentIntervalMs)
            continue;
        m_announced[parent] = now;
        announced.insert(parent);
        flushDeferred(parent);
    }
    if (final) {
        std::vector<NodeId> waitingParents;
        for (const auto& [parent, nodes] : m_deferred)
            waitingParents.push_back(parent);
        for (const NodeId parent : waitingParents)
            flushDeferred(parent);
    }

    // Aggregates changed everywhere keys landed: one dataChanged per materialised parent, and the
    // parents whose order those changes broke get re-sorted (big ones only at the end).
    for (const NodeId parent : materialisedParents()) {
        const Rows& rows = m_rows[parent];
        // QTreeView answers a dataChanged over a range by visiting every row of it (unless a relayout is
        // pending anyway, as right after an insertion): a big parent hears about changed totals only
        // when it announced rows, once a second, or at the end.
        if (!final && rows.size() > LiveResortLimit && announced.count(parent) == 0)
            continue;
        // Names never change, so a name order only breaks where rows arrived; totals change anywhere.
        const bool orderMayBreak = m_sortColumn > NameColumn || added.count(parent) != 0;
        if (m_sortColumn >= 0 && orderMayBreak && (final || rows.size() <= LiveResortLimit))
            resort(parent);
        const Rows& current = m_rows[parent];
        Q_EMIT dataChanged(indexForRow(current.front(), KeysColumn), indexForRow(current.back(), TypeColumn));
    }
}

bool KeyTreeModel::isRow(NodeId node) const
{
    // Materialised parent, and really among its rows: filtered out, or still waiting in m_deferred,
    // a node has no row number to make an index from.
    if (node >= m_publishedNodes)
        return false;
    auto it = m_rows.find(m_keyspace->parent(node));
    if (it == m_rows.end())
        return false;
    const std::uint32_t number = m_rowNumber[node];
    return number < it->second.size() && it->second[number] == node;
}

void KeyTreeModel::rowChanged(NodeId node)
{
    if (isRow(node))
        Q_EMIT dataChanged(indexForRow(node, NameColumn), indexForRow(node, TypeColumn));
}

void KeyTreeModel::setLength(NodeId node, std::uint64_t length)
{
    m_lengths[node] = length;
    rowChanged(node);
}

void KeyTreeModel::setLibraries(const lint::LibraryLayouts* libraries)
{
    // No signal: a dataChanged over a parent of a million rows makes a tree view visit each of them. The
    // session sets the libraries just before its final publish(), which repaints every row anyway.
    m_libraries = libraries;
}

const lint::LibraryInfo* KeyTreeModel::libraryOf(NodeId node) const
{
    return m_libraries ? m_libraries->libraryOf(*m_keyspace, node) : nullptr;
}

void KeyTreeModel::markDeleted(NodeId node)
{
    m_deleted.insert(node);
    rowChanged(node);
}

} // namespace keylens::models
