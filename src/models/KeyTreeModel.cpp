#include "models/KeyTreeModel.h"

#include "keyspace/GlobPass.h"
#include "lint/OverlayRules.h"
#include "models/FindingsText.h"

#include <QDateTime>
#include <QFont>
#include <QThread>

#include <algorithm>
#include <unordered_set>

namespace keylens::models {

using keyspace::KeyType;

namespace {

std::int64_t nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace

KeyTreeModel::KeyTreeModel(QObject* parent)
    : RowTreeModel(parent)
{}

KeyTreeModel::~KeyTreeModel()
{
    waitForWorkerSort();
}

void KeyTreeModel::setKeyspace(const keyspace::Keyspace* keyspace)
{
    waitForWorkerSort(); // it reads the store that may be about to go
    beginResetModel();
    m_keyspace = keyspace;
    m_publishedNodes = keyspace ? keyspace->nodeCount() : 1;
    forgetRows();
    m_rowNumber = {};
    m_rowNumber.resize(m_publishedNodes);
    m_hasChildren.clear();
    if (keyspace)
        markParents(1, m_publishedNodes);
    m_lengths.clear();
    m_deleted.clear();
    m_left.clear();
    m_libraries = nullptr;
    m_storeComplete = false;
    m_vanished.clear();
    m_vanishedUnder.clear();
    m_vanishedRowNumber.clear();
    m_visibility = {};
    m_matchingBelow = {};
    m_filterMatches = 0;
    if (isFiltering())
        markAllMatches();
    endResetModel();
}

bool KeyTreeModel::isVisible(NodeId node) const
{
    return (m_left.empty() || m_left.count(node) == 0) && (!isFiltering() || m_visibility[node] != 0);
}

bool KeyTreeModel::mayHaveChildren(RowId row) const
{
    if (isVanishedRow(row))
        return false; // its vanished children are not listed on their own
    const auto node = NodeId(row);
    if (isFiltering())
        return m_visibility[node] & MatchesBelow;
    return ((m_hasChildren[node >> 6] >> (node & 63)) & 1) || hasVanishedUnder(node);
}

bool KeyTreeModel::hasVanishedUnder(NodeId node) const
{
    return !m_vanishedUnder.empty() && !isFiltering() && m_vanishedUnder.count(node) != 0;
}

RowTreeModel::RowId KeyTreeModel::parentRow(RowId row) const
{
    return isVanishedRow(row) ? RowId(vanishedOf(row).parent) : RowId(m_keyspace->parent(NodeId(row)));
}

QByteArrayView KeyTreeModel::nameOf(RowId row) const
{
    return isVanishedRow(row) ? QByteArrayView(vanishedOf(row).name) : m_keyspace->segment(NodeId(row));
}

void KeyTreeModel::storeRowNumber(RowId row, std::uint32_t number) const
{
    if (isVanishedRow(row))
        m_vanishedRowNumber[std::size_t(row & 0xffffffffu)] = number;
    else
        m_rowNumber[row] = number;
}

std::uint32_t KeyTreeModel::rowNumber(RowId row) const
{
    return isVanishedRow(row) ? m_vanishedRowNumber[std::size_t(row & 0xffffffffu)] : m_rowNumber[row];
}

void KeyTreeModel::markParents(std::size_t from, std::size_t to)
{
    m_hasChildren.resize((to + 63) / 64, 0);
    for (std::size_t node = std::max<std::size_t>(from, 1); node < to; ++node) {
        const NodeId parent = m_keyspace->parent(NodeId(node));
        m_hasChildren[parent >> 6] |= std::uint64_t(1) << (parent & 63);
    }
}

KeyTreeModel::Rows KeyTreeModel::childRows(RowId parent) const
{
    Rows rows;
    // 10 MB for a million rows, allocated once rather than doubling (fresh memory is slow to fault in). Not under
    // a filter, which may show a few of them: the rows are kept as long as the parent is.
    if (!isFiltering())
        rows.reserve(m_keyspace->stats(NodeId(parent)).childCount);
    m_keyspace->forEachChild(NodeId(parent), [&](NodeId child) {
        if (child < m_publishedNodes && isVisible(child))
            rows.push_back(child);
    });
    if (hasVanishedUnder(NodeId(parent))) {
        const std::vector<RowId>& vanished = m_vanishedUnder.at(NodeId(parent));
        rows.insert(rows.end(), vanished.begin(), vanished.end()); // pinned last, see isPinnedLast()
    }
    return rows;
}

NodeId KeyTreeModel::nodeOf(const QModelIndex& index) const
{
    if (!index.isValid())
        return keyspace::Keyspace::root();
    return isVanishedRow(index.internalId()) ? keyspace::InvalidNode : NodeId(index.internalId());
}

QModelIndex KeyTreeModel::indexOfNode(NodeId node, int column)
{
    if (!m_keyspace || node >= m_publishedNodes || !isVisible(node))
        return {};
    return revealRow(node, column);
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
    if (isFiltering()) { // of the parent's matching keys, as the Keys cell counts them
        const MatchingSum parentSum = matchingSumOf(parent);
        const MatchingSum sum = matchingSumOf(node);
        if (parentSum.bytes > 0)
            return double(sum.bytes) / double(parentSum.bytes);
        return parentSum.keys > 0 ? double(sum.keys) / double(parentSum.keys) : 0.0;
    }
    if (const std::uint64_t parentMemory = keyspace::subtreeMemory(*m_keyspace, parent))
        return double(keyspace::subtreeMemory(*m_keyspace, node)) / double(parentMemory);
    const std::uint64_t parentKeys = keyspace::subtreeKeys(*m_keyspace, parent);
    return parentKeys > 0 ? double(keyspace::subtreeKeys(*m_keyspace, node)) / double(parentKeys) : 0.0;
}

int KeyTreeModel::overlaysOf(NodeId node, std::int64_t now) const
{
    const Totals totals = totalsOf(node);
    int overlays = totalsOverlays(totals, now); // not measured, expiring soon: as any row
    if (m_deleted.count(node))
        overlays |= Deleted;
    // A leaf key whose expiry has passed (a soonest expiry of a namespace says nothing of the next one).
    if (totals.keysWithTtl > 0 && totals.soonestExpiryMs <= now && m_keyspace->isKey(node) &&
        !m_keyspace->hasChildren(node))
        overlays |= Expired;
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
    if (m_keyspace->hasChildren(node) && m_keyspace->isKey(node))
        overlays |= KeyAndNamespace;
    return overlays;
}

RowFacts KeyTreeModel::factsOfVanished(RowId row) const
{
    const Comparison::Vanished& vanished = vanishedOf(row);
    return goneRowFacts(vanished.name, vanished.path, vanished.before);
}

RowFacts KeyTreeModel::factsOf(RowId rowId, FactsWanted wanted) const
{
    if (isVanishedRow(rowId))
        return factsOfVanished(rowId);
    const auto node = NodeId(rowId);
    RowFacts row;
    row.name = m_keyspace->segment(node);
    row.totals = totalsOf(node);
    row.isKey = m_keyspace->isKey(node);
    row.isLeafKey = row.isKey && !m_keyspace->hasChildren(node);
    if (row.isLeafKey) {
        const keyspace::KeyInfo info = m_keyspace->keyInfo(node);
        row.expiresAtMs = info.expiresAtMs;
        row.access = info.access;
    }
    if (isFiltering()) {
        row.matchingKeys = std::int64_t(matchingKeysOf(node));
        row.matchingMemory = matchingMemoryOf(node);
    }
    if (m_writeRates && m_writeRates->isCounting()) {
        row.writesLastMinute = m_writeRates->lastMinute(node, nowMs());
        row.writesPerSecond = m_writeRates->perSecond(node, nowMs());
    }
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

QVariant KeyTreeModel::rowData(RowId row, int role) const
{
    if (isVanishedRow(row))
        return goneRowData(role, vanishedOf(row).path);
    const auto node = NodeId(row);
    switch (role) {
    case Qt::FontRole:
        if (m_deleted.count(node)) {
            QFont font;
            font.setStrikeOut(true);
            return font;
        }
        return {};
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
    case WriteHistoryRole:
        return m_writeRates ? QVariant::fromValue(m_writeRates->history(node, nowMs())) : QVariant();
    case MemoryOfTotalRole: {
        const std::uint64_t total = keyspace::subtreeMemory(*m_keyspace, keyspace::Keyspace::root());
        return total ? double(keyspace::subtreeMemory(*m_keyspace, node)) / double(total) : 0.0;
    }
    case OverlayRole:
        return overlaysOf(node, nowMs());
    case ColdShareRole: {
        const std::optional<double> share = totalsOf(node).coldShare();
        return share ? QVariant(*share) : QVariant();
    }
    case WorstFindingRole:
        return totalsOf(node).worstFinding();
    case LibraryRole: {
        const lint::LibraryInfo* library = libraryOf(node);
        return library ? QString::fromLatin1(library->id) : QString();
    }
    }
    return {};
}

// ---- sorting ----

RowDelta KeyTreeModel::rowDelta(RowId row) const
{
    if (!m_storeComplete)
        return {RowDelta::Pending}; // a namespace half scanned would show as shrunk
    if (isVanishedRow(row))
        return comparison()->ofGone(vanishedOf(row).before, *m_keyspace);
    return comparison()->ofNamespace(*m_keyspace, NodeId(row));
}

RowDelta KeyTreeModel::deltaOfNode(NodeId node) const
{
    if (!comparison() || !m_keyspace || node >= m_keyspace->nodeCount())
        return {};
    return m_storeComplete ? comparison()->ofNamespace(*m_keyspace, node) : RowDelta{RowDelta::Pending};
}

bool KeyTreeModel::comparesMemory() const
{
    return comparison() && m_keyspace && comparison()->memoryComparedWith(*m_keyspace);
}

void KeyTreeModel::comparisonChanged()
{
    // The vanished rows come and go: a reset (the window puts back what was open by path, as for a filter).
    waitForWorkerSort();
    beginResetModel();
    forgetRows();
    m_vanished.clear();
    m_vanishedUnder.clear();
    m_vanishedRowNumber.clear();
    listVanished(false);
    endResetModel();
}

void KeyTreeModel::listVanished(bool announce)
{
    if (!comparison() || !m_keyspace || !m_storeComplete || !m_vanished.empty())
        return;
    m_vanished = comparison()->vanishedFrom(*m_keyspace);
    m_vanishedRowNumber.assign(m_vanished.size(), 0);
    for (std::size_t i = 0; i < m_vanished.size(); ++i)
        m_vanishedUnder[m_vanished[i].parent].push_back(VanishedBit | RowId(i));
    if (!announce || isFiltering())
        return;
    std::unordered_map<RowId, Rows> added;
    for (const auto& [parent, rows] : m_vanishedUnder) {
        if (isMaterialised(parent))
            added[parent] = rows;
        else if (parent != keyspace::Keyspace::root() && isMaterialised(m_keyspace->parent(parent)))
            childrenAppeared(parent);
    }
    announceRows(added);
}

SortEntry KeyTreeModel::sortEntry(RowId row, int column, std::int64_t now) const
{
    if (isVanishedRow(row))
        return {}; // pinned last: never sorted
    // The lean accessors where they do: a sort of a million rows builds no Totals for keys or memory.
    const auto node = NodeId(row);
    switch (column) {
    case KeysColumn:
        return {keyspace::subtreeKeys(*m_keyspace, node), 0, 0};
    case MemoryColumn:
    case ShareColumn:
        return {keyspace::subtreeMemory(*m_keyspace, node), 0, 0};
    case WritesColumn:
        // Not live: by memory, as the pattern tree sorts the column it does not fill (the two trees order alike).
        if (m_writeRates && m_writeRates->isCounting())
            return {m_writeRates->lastMinute(node, now), 0, 0};
        return totalsSortEntry(totalsOf(node), column, now);
    default:
        return totalsSortEntry(totalsOf(node), column, now);
    }
}

// ---- live updates ----

void KeyTreeModel::markMatch(NodeId node, std::vector<NodeId>* newlyVisible)
{
    if (m_visibility[node] & Matches)
        return;
    ++m_filterMatches;
    // Every ancestor counts it, for its "3 of 18,776", and its memory.
    const MatchingSum sum = matchingSumOfKey(node);
    for (NodeId n = node; n != keyspace::Keyspace::root();) {
        n = m_keyspace->parent(n);
        m_matchingBelow[m_keyspace->namespaceIndex(n)] += sum;
    }
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
    m_matchingBelow.resize(m_keyspace->namespaceCount());
    for (std::size_t node = from; node < to; ++node) {
        if (m_keyspace->isKey(NodeId(node)) && matchesFilter(NodeId(node)))
            markMatch(NodeId(node), newlyVisible);
    }
}

KeyTreeModel::MatchingSum KeyTreeModel::matchingSumOfKey(NodeId key) const
{
    if (!m_keyspace->isKey(key))
        return {};
    const keyspace::KeyInfo info = m_keyspace->keyInfo(key);
    return info.memoryMeasured ? MatchingSum{1, 0, info.memoryBytes} : MatchingSum{1, 1, 0};
}

KeyTreeModel::MatchingSum KeyTreeModel::matchingSumOf(NodeId node) const
{
    MatchingSum sum;
    if (node < m_visibility.size() && (m_visibility[node] & Matches))
        sum = matchingSumOfKey(node);
    const std::uint32_t index = m_keyspace->namespaceIndex(node);
    if (index < m_matchingBelow.size())
        sum += m_matchingBelow[index];
    return sum;
}

keyspace::MemoryFigure KeyTreeModel::matchingMemoryOf(NodeId node) const
{
    if (!isFiltering())
        return keyspace::memoryFigureOf(totalsOf(node));
    const MatchingSum sum = matchingSumOf(node);
    return {sum.bytes, sum.keys, sum.unmeasured};
}

std::uint64_t KeyTreeModel::matchingKeysOf(NodeId node) const
{
    if (!isFiltering())
        return keyspace::subtreeKeys(*m_keyspace, node);
    return matchingSumOf(node).keys;
}

bool KeyTreeModel::matchesFindingsFilter(NodeId key) const
{
    if (!m_findingsFilter.enabled)
        return true;
    const std::uint32_t rules = m_keyspace->findingRules(key);
    return m_findingsFilter.rule < 0 ? rules != 0 : (rules >> m_findingsFilter.rule & 1);
}

bool KeyTreeModel::matchesFilter(NodeId key) const
{
    if (!matchesFindingsFilter(key))
        return false;
    if (m_filter.isEmpty())
        return true;
    // Most keys are ruled out by their last segment alone, without reading every ancestor's segment (at ten
    // million keys, those scattered reads are nearly all of a filter's time).
    if (!m_filter.lastSegmentMayMatch(m_keyspace->segment(key), m_keyspace->delimiters(),
                                      m_keyspace->parent(key) == keyspace::Keyspace::root()))
        return false;
    return m_filter.matches(m_keyspace->path(key));
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
    columnsChanged(FindingsColumn, FindingsColumn);
}

void KeyTreeModel::resetFilter()
{
    // A new filter changes which rows exist almost everywhere: a reset is honest and cheaper than
    // thousands of remove/insert signals. The window keeps the expansion by path across it.
    beginResetModel();
    forgetRows();
    // Freed, not only emptied: 5 bytes per node stayed allocated after a filter was cleared.
    m_visibility = {};
    m_matchingBelow = {};
    m_filterMatches = 0;
    if (m_keyspace && isFiltering())
        markAllMatches();
    endResetModel();
}

void KeyTreeModel::markAllMatches()
{
    const std::size_t count = m_publishedNodes;
    m_visibility.assign(count, 0);
    if (count <= 1)
        return;
    m_matchingBelow.assign(m_keyspace->namespaceCount(), {});
    if (m_filter.isEmpty()) {
        for (NodeId node = 1; node < count; ++node)
            m_visibility[node] = m_keyspace->isKey(node) ? Matches : 0;
    } else {
        keyspace::markGlobMatches(*m_keyspace, m_filter, m_visibility, Matches);
    }
    // Children come after their parents in node order, so one pass backwards hands every count up to the root
    // without a walk up from each match.
    for (NodeId node = NodeId(count - 1); node >= 1; --node) {
        if ((m_visibility[node] & Matches) && !matchesFindingsFilter(node))
            m_visibility[node] &= ~Matches;
        const bool self = m_visibility[node] & Matches;
        m_filterMatches += self ? 1 : 0;
        MatchingSum matching = self ? matchingSumOfKey(node) : MatchingSum{};
        const std::uint32_t index = m_keyspace->namespaceIndex(node);
        if (index != keyspace::InvalidNode)
            matching += m_matchingBelow[index];
        if (matching.keys != 0) {
            const NodeId parent = m_keyspace->parent(node);
            m_matchingBelow[m_keyspace->namespaceIndex(parent)] += matching;
            m_visibility[parent] |= MatchesBelow;
        }
    }
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
    m_rowNumber.resize(nodeCount);

    // Group them by parent; only parents a view has seen need to hear about them. A row that was a plain key and got
    // its first child gets its expand arrow: children are listed newest first, so the first child a node ever had is
    // the one without a next sibling. (Under a filter, a row that starts to show children is inserted fresh and
    // asked anyway.) Counting each parent's new children and comparing with its child count instead took 3-11 ms of
    // every publish at ten million keys, most new keys being grandchildren of an open namespace.
    std::unordered_map<RowId, Rows> added;
    for (const NodeId node : candidates) {
        const NodeId parent = m_keyspace->parent(node);
        if (isMaterialised(parent))
            added[parent].push_back(node);
        else if (!isFiltering() && parent < oldPublished && m_keyspace->nextSibling(node) == keyspace::InvalidNode &&
                 parent != keyspace::Keyspace::root() && isMaterialised(m_keyspace->parent(parent)))
            childrenAppeared(parent);
    }
    announceRows(added);
    // Aggregates changed everywhere keys landed. (Complete first: the last sort is by the Δ the rows have then.)
    m_storeComplete = m_storeComplete || final;
    refreshRows(final);
    if (final)
        listVanished(true);
}

void KeyTreeModel::setLength(NodeId node, std::uint64_t length)
{
    m_lengths[node] = length;
    if (node < m_publishedNodes)
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
    if (node < m_publishedNodes)
        rowChanged(node);
}

void KeyTreeModel::keysEdited(const std::vector<NodeId>& nodes, bool removed)
{
    std::unordered_set<NodeId> rows;
    for (const NodeId node : nodes) {
        if (node == keyspace::InvalidNode || node >= m_publishedNodes)
            continue;
        if (removed)
            m_deleted.insert(node);
        else
            m_deleted.erase(node);
        // Ancestors up to the first one already repainted: the rest of the chain is on its way.
        for (NodeId row = node; row != keyspace::InvalidNode && rows.insert(row).second; row = m_keyspace->parent(row))
            ;
    }
    for (const NodeId row : rows)
        rowChanged(row);
}

void KeyTreeModel::setWriteRates(const WriteRates* rates)
{
    m_writeRates = rates;
    columnsChanged(WritesColumn, WritesColumn);
}

void KeyTreeModel::refreshWriteRates()
{
    if (!m_keyspace)
        return;
    if (sortColumn() == WritesColumn)
        refreshRows(false); // re-sorts the parents shown (a big one at the end only, as during a scan)
    else
        columnsChanged(WritesColumn, WritesColumn);
}

void KeyTreeModel::keysLeft(const std::vector<NodeId>& nodes)
{
    std::unordered_map<RowId, std::unordered_set<RowId>> leaving; // by parent
    std::vector<NodeId> stay;
    for (const NodeId key : nodes) {
        if (key == keyspace::InvalidNode || key >= m_publishedNodes)
            continue;
        m_deleted.erase(key);
        NodeId node = key;
        while (node != keyspace::Keyspace::root() && m_left.count(node) == 0 &&
               keyspace::subtreeKeys(*m_keyspace, node) == 0) {
            m_left.insert(node);
            leaving[m_keyspace->parent(node)].insert(node);
            node = m_keyspace->parent(node);
        }
        stay.push_back(node);
    }
    for (const auto& [parent, rows] : leaving) {
        if (m_left.count(NodeId(parent)) == 0) // a parent that left takes its rows with it
            removeChildRows(parent, rows);
    }
    for (const auto& [parent, rows] : leaving) {
        for (const RowId row : rows)
            forgetParent(row);
    }
    keysEdited(stay, false); // repaints them and their ancestors
}

void KeyTreeModel::keysReturned(const std::vector<NodeId>& nodes)
{
    if (m_left.empty())
        return;
    for (NodeId node : nodes) {
        while (node != keyspace::InvalidNode && node >= m_publishedNodes)
            node = m_keyspace->parent(node); // a new key: publish() announces it, under its first published ancestor
        std::vector<NodeId> back;            // from the node up to the last ancestor that had left
        for (; node != keyspace::InvalidNode && m_left.count(node) != 0; node = m_keyspace->parent(node))
            back.push_back(node);
        for (auto it = back.rbegin(); it != back.rend(); ++it) {
            m_left.erase(*it);
            const NodeId parent = m_keyspace->parent(*it);
            if (isMaterialised(parent))
                announceRows({{parent, Rows{*it}}});
        }
    }
}

QByteArray KeyTreeModel::pathOf(const QModelIndex& index) const
{
    if (isVanished(index))
        return {}; // not a node: nothing to reopen by path
    const NodeId node = nodeOf(index);
    return m_keyspace && node != keyspace::InvalidNode ? m_keyspace->path(node) : QByteArray();
}

QModelIndex KeyTreeModel::indexOfPath(QByteArrayView path, bool namespaceOnly)
{
    if (!m_keyspace)
        return {};
    const NodeId node = m_keyspace->find(path);
    if (node == keyspace::InvalidNode || (namespaceOnly && !m_keyspace->hasChildren(node)))
        return {};
    return indexOfNode(node);
}

} // namespace keylens::models
