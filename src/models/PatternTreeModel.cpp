#include "models/PatternTreeModel.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "lint/LibraryLayouts.h"
#include "lint/OverlayRules.h"
#include "models/DisplayText.h"
#include "models/FindingsText.h"

#include <QDateTime>
#include <QThread>

#include <algorithm>

namespace keylens::models {

using keyspace::NodeId;
using patterns::PatternTree;

namespace {

constexpr std::int64_t Never = std::numeric_limits<std::int64_t>::max();
// While a scan runs, rows are put back in order at most this often: a resort is a layout change that
// makes the view lay out every open row again.
constexpr qint64 LiveResortIntervalMs = 1000;
// While a scan runs, totals are read again (and announced) at most this often: a placeholder of 200,000
// members sums 200,000 subtrees for it.
constexpr qint64 LiveTotalsIntervalMs = 1000;
// Parents with more rows hear of changed totals only when the scan ends.
constexpr std::size_t LiveRefreshLimit = 20'000;

std::int64_t nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace

PatternTreeModel::PatternTreeModel(QObject* parent)
    : QAbstractItemModel(parent)
{
    m_sinceResort.start();
    m_sinceTotals.start();
    m_lateTotals.setSingleShot(true);
    m_lateTotals.setObjectName(QStringLiteral("pattern totals"));
    connect(&m_lateTotals, &QTimer::timeout, this, [this] { announceTotals(false); });
}

PatternTreeModel::~PatternTreeModel()
{
    waitForExactTree();
}

void PatternTreeModel::waitForExactTree()
{
    if (!m_exactBuild)
        return;
    ++m_builds; // its result, if its signal is queued already, is dropped
    // It reads the store that is about to go: stopped, it returns within one level's split.
    m_cancelBuild.store(true, std::memory_order_relaxed);
    m_exactBuild->wait();
    m_cancelBuild.store(false, std::memory_order_relaxed);
    m_exactBuild = nullptr; // deleted by its own finished handler, or with this model
    m_exactResult.reset();
}

void PatternTreeModel::setKeyspace(const keyspace::Keyspace* keyspace)
{
    Q_ASSERT(thread() == QThread::currentThread());
    waitForExactTree(); // it reads the store that is about to go
    beginResetModel();
    m_keyspace = keyspace;
    m_storeFinal = false;
    m_libraries = nullptr;
    m_tree.reset();
    forgetRows();
    endResetModel();
}

void PatternTreeModel::setActive(bool active)
{
    m_active = active;
    if (active && m_keyspace && (!m_tree || (m_storeFinal && m_tree->isLive() && !m_exactBuild)))
        publish(m_storeFinal);
}

void PatternTreeModel::setLibraries(const lint::LibraryLayouts* libraries)
{
    // No signal: the session sets them just before its final publish(), which repaints every row.
    m_libraries = libraries;
}

void PatternTreeModel::refreshTotals()
{
    announceTotals(true);
}

void PatternTreeModel::announceTotals(bool all)
{
    m_lateTotals.stop();
    m_totals.clear();
    m_sinceTotals.restart();
    for (const auto& [pattern, rows] : m_rows) {
        // A tree view visits every row of a dataChanged range: a parent of many rows hears it only at the end.
        if (!all && rows.size() > LiveRefreshLimit)
            continue;
        // From the Keys column: a range over the Name column makes a tree view ask every row's
        // hasChildren() again, and the names do not change.
        const QModelIndex parent = patternIndex(pattern, NameColumn);
        const int count = int(rows.size());
        if (count > 0)
            Q_EMIT dataChanged(index(0, KeysColumn, parent), index(count - 1, TypeColumn, parent));
    }
}

// ---- structure ----

void PatternTreeModel::forgetRows()
{
    m_lateTotals.stop();
    m_rows.clear();
    m_rowOf.clear();
    m_members.clear();
    m_withMembersRow.clear();
    m_totals.clear();
}

bool PatternTreeModel::hasMembersRow(PatternId pattern) const
{
    return m_withMembersRow.count(pattern) != 0;
}

const std::vector<PatternTreeModel::PatternId>& PatternTreeModel::rowsOf(PatternId pattern) const
{
    if (auto it = m_rows.find(pattern); it != m_rows.end())
        return it->second;
    std::vector<PatternId> rows = m_tree->children(pattern);
    sortPatterns(rows);
    if (m_rowOf.size() < m_tree->size())
        m_rowOf.resize(m_tree->size(), 0);
    for (std::size_t i = 0; i < rows.size(); ++i)
        m_rowOf[rows[i]] = std::uint32_t(i);
    if (pattern != PatternTree::Root && m_tree->members(pattern).size() > 1)
        m_withMembersRow.insert(pattern);
    return m_rows.emplace(pattern, std::move(rows)).first->second;
}

PatternTreeModel::Members& PatternTreeModel::membersOf(PatternId pattern) const
{
    if (auto it = m_members.find(pattern); it != m_members.end())
        return it->second;
    Members members;
    members.nodes = m_tree->members(pattern);
    std::vector<std::pair<std::uint64_t, NodeId>> bySize;
    bySize.reserve(members.nodes.size());
    for (const NodeId node : members.nodes)
        bySize.emplace_back(~keyspace::subtreeMemory(*m_keyspace, node), node); // biggest first, then oldest
    std::sort(bySize.begin(), bySize.end());
    for (std::size_t i = 0; i < bySize.size(); ++i)
        members.nodes[i] = bySize[i].second;
    members.shown = std::min<std::size_t>(members.nodes.size(), MemberPage);
    return m_members.emplace(pattern, std::move(members)).first->second;
}

QModelIndex PatternTreeModel::patternIndex(PatternId pattern, int column) const
{
    if (pattern == PatternTree::Root)
        return {};
    return createIndex(int(m_rowOf[pattern]), column, encode(RowKind::Pattern, pattern));
}

QModelIndex PatternTreeModel::membersIndex(PatternId pattern, int column) const
{
    return createIndex(int(rowsOf(pattern).size()), column, encode(RowKind::Members, pattern));
}

PatternTreeModel::RowKind PatternTreeModel::kindOf(const QModelIndex& index) const
{
    return index.isValid() ? kindOfId(index.internalId()) : RowKind::Pattern;
}

PatternTreeModel::PatternId PatternTreeModel::patternOf(const QModelIndex& index) const
{
    if (!index.isValid())
        return PatternTree::Root;
    const std::uint32_t id = idOf(index.internalId());
    return kindOf(index) == RowKind::Member ? m_tree->patternOf(id) : id;
}

NodeId PatternTreeModel::nodeOf(const QModelIndex& index) const
{
    return index.isValid() && kindOf(index) == RowKind::Member ? idOf(index.internalId()) : keyspace::InvalidNode;
}

PatternTreeModel::PatternId PatternTreeModel::patternOfNode(NodeId node) const
{
    return m_tree && node < m_tree->foldedNodes() ? m_tree->patternOf(node) : PatternTree::Root;
}

QModelIndex PatternTreeModel::indexOfPattern(PatternId pattern, int column)
{
    if (!m_tree || pattern == PatternTree::Root || pattern >= m_tree->size())
        return {};
    std::vector<PatternId> chain;
    for (PatternId at = pattern; at != PatternTree::Root; at = m_tree->parent(at))
        chain.push_back(at);
    for (auto it = chain.rbegin(); it != chain.rend(); ++it)
        rowsOf(m_tree->parent(*it));
    return patternIndex(pattern, column);
}

QModelIndex PatternTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!m_tree || row < 0 || column < 0 || column >= ColumnCount || parent.column() > 0)
        return {};
    switch (kindOf(parent)) {
    case RowKind::Pattern: {
        const PatternId pattern = patternOf(parent);
        const std::vector<PatternId>& rows = rowsOf(pattern);
        if (std::size_t(row) < rows.size())
            return createIndex(row, column, encode(RowKind::Pattern, rows[std::size_t(row)]));
        if (std::size_t(row) == rows.size() && hasMembersRow(pattern))
            return createIndex(row, column, encode(RowKind::Members, pattern));
        return {};
    }
    case RowKind::Members: {
        const Members& members = membersOf(idOf(parent.internalId()));
        if (std::size_t(row) >= members.shown)
            return {};
        return createIndex(row, column, encode(RowKind::Member, members.nodes[std::size_t(row)]));
    }
    case RowKind::Member:
        return {};
    }
    return {};
}

QModelIndex PatternTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    const std::uint32_t id = idOf(child.internalId());
    switch (kindOf(child)) {
    case RowKind::Pattern:
        return patternIndex(m_tree->parent(id), NameColumn);
    case RowKind::Members:
        return patternIndex(id, NameColumn);
    case RowKind::Member:
        return membersIndex(m_tree->patternOf(id), NameColumn);
    }
    return {};
}

int PatternTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!m_tree || parent.column() > 0)
        return 0;
    switch (kindOf(parent)) {
    case RowKind::Pattern: {
        const PatternId pattern = patternOf(parent);
        return int(rowsOf(pattern).size()) + (hasMembersRow(pattern) ? 1 : 0);
    }
    case RowKind::Members:
        return int(membersOf(idOf(parent.internalId())).shown);
    case RowKind::Member:
        return 0;
    }
    return 0;
}

int PatternTreeModel::columnCount(const QModelIndex& parent) const
{
    return parent.column() > 0 ? 0 : ColumnCount;
}

bool PatternTreeModel::hasChildren(const QModelIndex& parent) const
{
    if (!m_tree || parent.column() > 0)
        return false;
    switch (kindOf(parent)) {
    case RowKind::Pattern: {
        // Without materialising: a view asks this of every row it lays out.
        const PatternId pattern = patternOf(parent);
        return !m_tree->children(pattern).empty() ||
               (pattern != PatternTree::Root && m_tree->members(pattern).size() > 1);
    }
    case RowKind::Members:
        return true;
    case RowKind::Member:
        return false;
    }
    return false;
}

bool PatternTreeModel::canFetchMore(const QModelIndex& parent) const
{
    // Not while a reset or an insertion is announced: rows inserted then would nest one change in another.
    if (!m_tree || m_announcingReset || m_fetching || kindOf(parent) != RowKind::Members)
        return false;
    const Members& members = membersOf(idOf(parent.internalId()));
    return members.shown < members.nodes.size();
}

void PatternTreeModel::fetchMore(const QModelIndex& parent)
{
    if (!canFetchMore(parent))
        return;
    Members& members = membersOf(idOf(parent.internalId()));
    const std::size_t more = std::min<std::size_t>(members.nodes.size(), members.shown + MemberPage);
    m_fetching = true; // whoever hears of the insertion and asks for more waits for it to end
    beginInsertRows(parent, int(members.shown), int(more) - 1);
    members.shown = more;
    endInsertRows();
    m_fetching = false;
}

Qt::ItemFlags PatternTreeModel::flags(const QModelIndex& index) const
{
    return index.isValid() ? Qt::ItemIsEnabled | Qt::ItemIsSelectable : Qt::NoItemFlags;
}

// ---- totals and cells ----

keyspace::SubtreeTotals PatternTreeModel::totalsOf(PatternId pattern) const
{
    if (pattern == PatternTree::Root)
        return keyspace::subtreeTotals(*m_keyspace, keyspace::Keyspace::root());
    const std::vector<NodeId>& members = m_tree->members(pattern);
    if (members.size() == 1)
        return keyspace::subtreeTotals(*m_keyspace, members.front());
    // A placeholder of 100,000 members: summed once per publish, when a view asks.
    if (auto it = m_totals.find(pattern); it != m_totals.end())
        return it->second;
    return m_totals.emplace(pattern, m_tree->totals(pattern)).first->second;
}

const lint::LibraryInfo* PatternTreeModel::libraryOf(RowKind kind, std::uint32_t id) const
{
    if (!m_libraries)
        return nullptr;
    // A pattern is its members' library: they share a layout.
    return m_libraries->libraryOf(*m_keyspace, kind == RowKind::Member ? id : m_tree->members(id).front());
}

RowFacts PatternTreeModel::factsOfPattern(PatternId pattern, FactsWanted wanted) const
{
    RowFacts row;
    row.name = m_tree->label(pattern);
    row.totals = totalsOf(pattern);
    const std::vector<NodeId>& members = m_tree->members(pattern);
    row.members = members.size();
    if (wanted.memoryFraction) {
        const keyspace::SubtreeTotals parent = totalsOf(m_tree->parent(pattern));
        row.memoryFraction = parent.memoryBytes ? double(row.totals.memoryBytes) / double(parent.memoryBytes)
                             : parent.keys      ? double(row.totals.keys) / double(parent.keys)
                                                : 0.0;
    }
    if (members.size() == 1 && m_keyspace->isKey(members.front())) {
        row.isKey = true;
        row.isLeafKey = !m_keyspace->hasChildren(members.front());
        row.expiresAtMs = m_keyspace->keyInfo(members.front()).expiresAtMs;
    }
    if (wanted.overlays)
        row.overlays = totalsOverlays(row.totals, nowMs());
    if (wanted.toolTip) {
        row.library = libraryOf(RowKind::Pattern, pattern);
        row.path = m_tree->text(pattern);
        for (std::size_t i = 0; i < members.size() && i < 3; ++i)
            row.examples << m_keyspace->path(members[i]);
    }
    return row;
}

RowFacts PatternTreeModel::factsOfMember(NodeId node, FactsWanted wanted) const
{
    RowFacts row;
    row.path = m_keyspace->path(node); // a member shows its whole path: its level alone repeats
    row.name = row.path;
    row.totals = keyspace::subtreeTotals(*m_keyspace, node);
    row.isKey = m_keyspace->isKey(node);
    row.isLeafKey = row.isKey && !m_keyspace->hasChildren(node);
    if (row.isLeafKey)
        row.expiresAtMs = m_keyspace->keyInfo(node).expiresAtMs;
    if (wanted.memoryFraction) {
        const keyspace::SubtreeTotals pattern = totalsOf(m_tree->patternOf(node));
        row.memoryFraction = pattern.memoryBytes ? double(row.totals.memoryBytes) / double(pattern.memoryBytes) : 0.0;
    }
    if (wanted.overlays) {
        row.overlays = totalsOverlays(row.totals, nowMs());
        if (row.isKey && lint::isBigStringKey(m_keyspace->keyInfo(node), m_keyspace->pathLength(node)))
            row.overlays |= BigKey;
    }
    if (wanted.toolTip) {
        row.library = libraryOf(RowKind::Member, node);
        if (row.isKey)
            row.keyFindings = findingsOfKey(*m_keyspace, node);
    }
    return row;
}

QVariant PatternTreeModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_tree)
        return {};
    const int column = index.column();
    const RowKind kind = kindOf(index);
    const std::uint32_t id = idOf(index.internalId());
    if (kind == RowKind::Members) {
        const std::size_t count = m_tree->members(id).size();
        if (role == Qt::DisplayRole && column == NameColumn)
            return QStringLiteral("%1 members, biggest first").arg(displayText(keyspace::formatCount(count)));
        if (role == Qt::ToolTipRole)
            return QStringLiteral("The keys and namespaces that %1 stands for, %2 at a time")
                .arg(displayText(keyspace::displayBytes(m_tree->text(id))))
                .arg(MemberPage);
        if (role == PathRole)
            return m_tree->text(id);
        return {};
    }
    const auto facts = [&] {
        const FactsWanted wanted = factsWanted(role, column);
        return kind == RowKind::Pattern ? factsOfPattern(id, wanted) : factsOfMember(id, wanted);
    };
    switch (role) {
    case Qt::DisplayRole:
        return rowDisplay(facts(), column, nowMs());
    case Qt::ToolTipRole:
        return rowToolTip(facts(), column, nowMs());
    case SortRole:
        return rowSortValue(facts(), column);
    case Qt::TextAlignmentRole:
        return rowAlignment(column);
    case NodeRole:
        return qulonglong(kind == RowKind::Member ? id : m_tree->members(id).front());
    case KeyBytesRole:
        return kind == RowKind::Member && m_keyspace->isKey(id) ? m_keyspace->path(id) : QByteArray();
    case PathRole:
        return kind == RowKind::Member ? m_keyspace->path(id) : m_tree->text(id);
    case IsKeyRole:
        return kind == RowKind::Member && m_keyspace->isKey(id);
    case MemoryFractionRole:
        return facts().memoryFraction;
    case OverlayRole:
        return facts().overlays;
    case WorstFindingRole:
        return (kind == RowKind::Pattern ? totalsOf(id) : keyspace::subtreeTotals(*m_keyspace, id)).worstFinding();
    case LibraryRole: {
        const lint::LibraryInfo* library = libraryOf(kind, id);
        return library ? QString::fromLatin1(library->id) : QString();
    }
    }
    return {};
}

QVariant PatternTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return treeHeaderData(section, orientation, role);
}

// ---- order ----

std::uint64_t PatternTreeModel::sortKey(const keyspace::SubtreeTotals& totals) const
{
    switch (m_sortColumn) {
    case KeysColumn:
        return totals.keys;
    case TtlColumn:
        return std::uint64_t(std::max<std::int64_t>(totals.keysWithTtl ? totals.soonestExpiryMs : Never, 0));
    case FindingsColumn:
        return findingsSortKey(totals.findings);
    case TypeColumn:
        return std::uint64_t(dominantType(totals)) << 56 | std::min<std::uint64_t>(totals.keys, (1ull << 56) - 1);
    default:
        return totals.memoryBytes;
    }
}

void PatternTreeModel::sortPatterns(std::vector<PatternId>& patterns) const
{
    const bool descending = m_sortOrder == Qt::DescendingOrder;
    if (m_sortColumn == NameColumn) {
        std::stable_sort(patterns.begin(), patterns.end(), [&](PatternId a, PatternId b) {
            const int c = m_tree->label(a).compare(m_tree->label(b), Qt::CaseInsensitive);
            return descending ? c > 0 : c < 0;
        });
        return;
    }
    std::vector<std::pair<std::uint64_t, PatternId>> keyed;
    keyed.reserve(patterns.size());
    for (const PatternId pattern : patterns)
        keyed.emplace_back(sortKey(totalsOf(pattern)), pattern);
    std::stable_sort(keyed.begin(), keyed.end(), [descending](const auto& a, const auto& b) {
        return descending ? a.first > b.first : a.first < b.first;
    });
    for (std::size_t i = 0; i < keyed.size(); ++i)
        patterns[i] = keyed[i].second;
}

void PatternTreeModel::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= ColumnCount)
        return;
    m_sortColumn = column;
    m_sortOrder = order;
    resortAll();
}

void PatternTreeModel::resortAll()
{
    if (!m_tree || m_rows.empty())
        return;
    m_sinceResort.restart();
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    for (auto& [pattern, rows] : m_rows) {
        sortPatterns(rows);
        for (std::size_t i = 0; i < rows.size(); ++i)
            m_rowOf[rows[i]] = std::uint32_t(i);
    }
    // Pattern rows move; a Members row stays last and its members keep their order.
    QModelIndexList after;
    after.reserve(before.size());
    for (const QModelIndex& index : before) {
        switch (kindOf(index)) {
        case RowKind::Pattern:
            after << patternIndex(idOf(index.internalId()), index.column());
            break;
        case RowKind::Members:
            after << membersIndex(idOf(index.internalId()), index.column());
            break;
        case RowKind::Member:
            after << index;
            break;
        }
    }
    changePersistentIndexList(before, after);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

// ---- live updates ----

void PatternTreeModel::announceNewPatterns(std::size_t firstNew)
{
    if (m_rowOf.size() < m_tree->size())
        m_rowOf.resize(m_tree->size(), 0);
    std::unordered_map<PatternId, std::vector<PatternId>> added;
    for (std::size_t pattern = firstNew; pattern < m_tree->size(); ++pattern) {
        const PatternId parent = m_tree->parent(PatternId(pattern));
        if (m_rows.count(parent))
            added[parent].push_back(PatternId(pattern));
    }
    for (auto& [parent, patterns] : added) {
        std::vector<PatternId>& rows = m_rows[parent];
        const bool wasLeaf = rows.empty() && !hasMembersRow(parent);
        const int first = int(rows.size());
        beginInsertRows(patternIndex(parent, NameColumn), first, first + int(patterns.size()) - 1);
        for (const PatternId pattern : patterns) {
            m_rowOf[pattern] = std::uint32_t(rows.size());
            rows.push_back(pattern);
        }
        endInsertRows();
        if (wasLeaf && parent != PatternTree::Root) {
            const QModelIndex name = patternIndex(parent, NameColumn);
            Q_EMIT dataChanged(name, name); // the view asks hasChildren() again and draws the arrow
        }
    }
    // A pattern shown with one member got more: its members row appears.
    std::vector<PatternId> grown;
    for (const auto& [pattern, rows] : m_rows) {
        if (pattern != PatternTree::Root && !hasMembersRow(pattern) && m_tree->members(pattern).size() > 1)
            grown.push_back(pattern);
    }
    for (const PatternId pattern : grown) {
        const int row = int(m_rows[pattern].size());
        beginInsertRows(patternIndex(pattern, NameColumn), row, row);
        m_withMembersRow.insert(pattern);
        endInsertRows();
    }
}

void PatternTreeModel::publish(bool final)
{
    Q_ASSERT(thread() == QThread::currentThread());
    m_storeFinal = m_storeFinal || final;
    if (!m_keyspace || !m_active)
        return;
    if (!m_tree) {
        beginResetModel();
        m_tree = std::make_unique<PatternTree>(PatternTree::folding(*m_keyspace));
        m_tree->extend(m_keyspace->nodeCount());
        endResetModel();
    } else if (m_tree->isLive()) {
        const std::size_t before = m_tree->size();
        m_tree->extend(m_keyspace->nodeCount());
        announceNewPatterns(before);
        if (final || m_sinceTotals.elapsed() >= LiveTotalsIntervalMs) {
            m_totals.clear();
            if (final || m_sinceResort.elapsed() >= LiveResortIntervalMs)
                resortAll();
            announceTotals(final);
        } else if (!m_lateTotals.isActive()) {
            // No publish may follow (a pause): the totals are read again within the interval anyway.
            m_lateTotals.start(int(LiveTotalsIntervalMs - m_sinceTotals.elapsed()));
        }
    }
    if (final && m_tree->isLive())
        buildExactTree();
}

void PatternTreeModel::buildExactTree()
{
    waitForExactTree();
    const unsigned build = ++m_builds;
    const keyspace::Keyspace* store = m_keyspace;
    QThread* worker = QThread::create([this, store] {
        patterns::PatternTreeOptions options;
        options.cancelled = &m_cancelBuild;
        m_exactResult = std::make_unique<PatternTree>(*store, options);
    });
    worker->setParent(this);
    connect(worker, &QThread::finished, this, [this, worker, build] {
        worker->deleteLater();
        if (m_exactBuild == worker)
            m_exactBuild = nullptr;
        if (build != m_builds || !m_exactResult)
            return;
        beginResetModel();
        m_tree = std::move(m_exactResult);
        forgetRows();
        m_announcingReset = true;
        endResetModel();
        m_announcingReset = false;
        Q_EMIT exactTreeReady();
    });
    m_exactBuild = worker;
    worker->start();
}

} // namespace keylens::models
