#include "models/PatternTreeModel.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "lint/LibraryLayouts.h"
#include "lint/OverlayRules.h"
#include "models/DisplayText.h"
#include "models/FindingsText.h"
#include "models/KeyTreeModel.h"

#include <QDateTime>
#include <QThread>

#include <algorithm>

namespace keylens::models {

using keyspace::NodeId;
using patterns::PatternTree;

namespace {

// While a scan runs, totals are read again, announced and put back in order at most this often: a
// placeholder of 200,000 members sums 200,000 subtrees for it, and a re-sort is a layout change.
constexpr qint64 LiveTotalsIntervalMs = 1000;

// A publish folds this many new nodes at once; more are folded in slices, the rows appearing as they do. A fold is
// a hash lookup and an append, about a microsecond at ten million keys: the 20,000 nodes of a live publish there held
// the GUI thread for 20-34 ms at once, and the view shown after such a scan folds for 4 s.
constexpr std::size_t FoldAtOnce = 4096;

std::int64_t nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace

PatternTreeModel::PatternTreeModel(QObject* parent)
    : RowTreeModel(parent)
{
    m_sinceTotals.start();
    m_lateTotals.setSingleShot(true);
    m_lateTotals.setObjectName(QStringLiteral("pattern totals due"));
    connect(&m_lateTotals, &QTimer::timeout, this, [this] { startTotalsRefresh(m_storeFinal); });
    m_foldSlices.setBetweenSlices([this] {
        announceNewRows(std::exchange(m_foldedFrom, m_tree->size()));
        // In order, as during a scan: totals read again and rows re-sorted once a second while the folding goes on.
        if (!m_refresh && m_sinceTotals.elapsed() >= LiveTotalsIntervalMs)
            startTotalsRefresh(false);
    });
}

PatternTreeModel::~PatternTreeModel()
{
    waitForExactTree();
}

void PatternTreeModel::waitForExactTree()
{
    // It reads the store that is about to go: stopped, it returns within one level's split.
    m_exactBuild.cancel();
    m_exactResult.reset();
    m_exactTotals = {};
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
    forgetTree();
    endResetModel();
}

void PatternTreeModel::forgetTree()
{
    m_foldSlices.cancel();
    m_lateTotals.stop();
    m_refreshSlices.cancel();
    m_refresh.reset();
    forgetRows();
    forgetRowNumbers();
    m_totals.clear();
    m_totalsOfChanges = ~std::uint64_t(0);
    m_gone.clear();
    m_goneUnder.clear();
}

void PatternTreeModel::forgetRowNumbers()
{
    m_patternRow.clear();
    m_membersRow.clear();
    m_memberRow = {};
    m_goneRow.clear();
    m_withoutMembersRow.clear();
    m_matching.clear();
}

void PatternTreeModel::setFilter(const KeyTreeModel* keys)
{
    Q_ASSERT(thread() == QThread::currentThread());
    if (!m_filter && !keys)
        return;
    // Which rows exist changes almost everywhere: a reset, as the key tree's; the view puts back what it can.
    beginResetModel();
    m_filter = keys;
    forgetRows();
    forgetRowNumbers();
    endResetModel();
}

bool PatternTreeModel::isFiltering() const
{
    return m_filter && m_filter->isFiltering();
}

std::uint64_t PatternTreeModel::matchingKeysOf(PatternId pattern) const
{
    if (auto it = m_matching.find(pattern); it != m_matching.end())
        return it->second;
    // The members of a pattern are at one depth: their subtrees do not overlap.
    std::uint64_t keys = 0;
    if (pattern == PatternTree::Root)
        keys = m_filter->matchingKeysOf(keyspace::Keyspace::root());
    else
        for (const NodeId node : m_tree->members(pattern))
            keys += m_filter->matchingKeysOf(node);
    return m_matching.emplace(pattern, keys).first->second;
}

void PatternTreeModel::setActive(bool active)
{
    m_active = active;
    if (!active)
        m_foldSlices.cancel(); // taken up again by the next publish while active
    else if (m_keyspace && (!m_tree || m_tree->isLive()))
        publish(m_storeFinal);
}

void PatternTreeModel::setLibraries(const lint::LibraryLayouts* libraries)
{
    // No signal: the session sets them just before its final publish(), which repaints every row.
    m_libraries = libraries;
}

RowDelta PatternTreeModel::rowDelta(RowId row) const
{
    switch (kindOfRow(row)) {
    case RowKind::Pattern:
        return deltaOfPattern(PatternId(idOf(row)));
    case RowKind::Gone:
        return comparison()->ofGone(goneOf(row).before, *m_keyspace);
    case RowKind::Members:
    case RowKind::Member:
        break;
    }
    return {};
}

void PatternTreeModel::comparisonChanged()
{
    // The gone rows come and go: a reset, as the key tree's (the view opens again what it remembers by text).
    beginResetModel();
    forgetRows();
    forgetRowNumbers();
    m_gone.clear();
    m_goneUnder.clear();
    listGone();
    endResetModel();
}

void PatternTreeModel::listGone()
{
    // Against the exact tree only: the live one folds every id, and its totals are of a store half scanned.
    if (!comparison() || !m_tree || m_tree->isLive() || !m_gone.empty())
        return;
    m_gone = comparison()->gonePatterns(*m_tree);
    for (std::size_t i = 0; i < m_gone.size(); ++i)
        m_goneUnder[m_gone[i].parent].push_back(encode(RowKind::Gone, std::uint32_t(i)));
}

bool PatternTreeModel::hasGoneUnder(PatternId pattern) const
{
    // Not under a filter: a pattern that is gone has no key to match it (the key tree hides its vanished rows so).
    return !m_goneUnder.empty() && !isFiltering() && m_goneUnder.count(pattern) != 0;
}

RowDelta PatternTreeModel::deltaOfPattern(PatternId pattern) const
{
    if (!comparison() || !m_tree || pattern == patterns::PatternTree::Root)
        return {};
    if (!m_storeFinal)
        return {RowDelta::Pending};
    // The row's figures: its whole subtree's.
    const keyspace::SubtreeTotals now = totalsOf(pattern);
    return comparison()->ofPatternSubtree(*m_keyspace, m_tree->text(pattern), m_tree->isPartial(pattern), now.keys,
                                          now.memoryBytes);
}

void PatternTreeModel::refreshTotals()
{
    // Said at the end of every scan, after the exact tree's worker summed the store as it ended.
    if (m_tree && m_keyspace->changes() != m_totalsOfChanges)
        startTotalsRefresh(m_storeFinal);
}

void PatternTreeModel::startTotalsRefresh(bool final)
{
    // Summing the placeholders again is a walk over most of the store (15-20 ms at a million keys): in
    // slices, with the other work of the end of a scan in between.
    m_lateTotals.stop();
    if (m_refresh && !final)
        return; // the one under way reads them
    m_sinceTotals.restart();
    TotalsRefresh refresh;
    refresh.final = final;
    refresh.storeChanges = m_keyspace->changes();
    // Every placeholder, not only those shown: a pattern first shown between two refreshes (a namespace opened as
    // the scan ends) was summed in the paint that showed it, half a second for a million members.
    for (PatternId pattern = 1; pattern < m_tree->size(); ++pattern) {
        if (m_tree->members(pattern).size() > 1)
            refresh.patterns.push_back(pattern);
    }
    m_refresh = std::move(refresh);
    m_refreshSlices.start([this](std::size_t members) { return refreshTotalsStep(members); },
                          [this] {
                              TotalsRefresh done = std::move(*m_refresh);
                              m_refresh.reset();
                              m_totals = std::move(done.totals);
                              m_totalsOfChanges = done.storeChanges;
                              refreshRows(done.final);
                          });
}

bool PatternTreeModel::refreshTotalsStep(std::size_t members)
{
    TotalsRefresh& refresh = *m_refresh;
    while (members > 0 && refresh.next < refresh.patterns.size()) {
        const PatternId pattern = refresh.patterns[refresh.next];
        const std::size_t size = m_tree->members(pattern).size();
        const std::size_t end = std::min(size, refresh.member + members);
        members -= end - refresh.member;
        refresh.sum.add(m_tree->totals(pattern, refresh.member, end));
        refresh.member = end;
        if (refresh.member == size) {
            refresh.totals.emplace(pattern, std::exchange(refresh.sum, {}));
            refresh.member = 0;
            ++refresh.next;
        }
    }
    return refresh.next == refresh.patterns.size();
}

// ---- the rows ----

bool PatternTreeModel::hasMembersRow(PatternId pattern) const
{
    // A partial level's members are listed under the levels that end their segments.
    return pattern != PatternTree::Root && !m_tree->isPartial(pattern) && m_tree->members(pattern).size() > 1;
}

RowTreeModel::RowId PatternTreeModel::parentRow(RowId row) const
{
    const std::uint32_t id = idOf(row);
    switch (kindOfRow(row)) {
    case RowKind::Pattern:
        return encode(RowKind::Pattern, m_tree->parent(id));
    case RowKind::Members:
        return encode(RowKind::Pattern, id);
    case RowKind::Member:
        return encode(RowKind::Members, m_tree->patternOf(id));
    case RowKind::Gone:
        return encode(RowKind::Pattern, m_gone[id].parent);
    }
    return RootRow;
}

bool PatternTreeModel::mayHaveChildren(RowId row) const
{
    const std::uint32_t id = idOf(row);
    switch (kindOfRow(row)) {
    case RowKind::Pattern:
        return !m_tree->children(id).empty() || hasMembersRow(id) || hasGoneUnder(id);
    case RowKind::Members:
        return true;
    case RowKind::Member:
    case RowKind::Gone: // its own gone levels are summed in it, not listed
        return false;
    }
    return false;
}

RowTreeModel::Rows PatternTreeModel::childRows(RowId parent) const
{
    const std::uint32_t id = idOf(parent);
    Rows rows;
    if (kindOfRow(parent) == RowKind::Pattern) {
        for (const PatternId child : m_tree->children(id))
            if (isShown(child))
                rows.push_back(encode(RowKind::Pattern, child));
        if (hasGoneUnder(id)) { // pinned last, see isPinnedLast(), before the members row
            const std::vector<RowId>& gone = m_goneUnder.at(id);
            rows.insert(rows.end(), gone.begin(), gone.end());
        }
        if (hasMembersRow(id))
            rows.push_back(encode(RowKind::Members, id));
        else if (id != PatternTree::Root)
            m_withoutMembersRow.insert(id);
        return rows;
    }
    // The members of a pattern, biggest first (then oldest), as of the first expansion.
    const std::vector<NodeId>& members = m_tree->members(id);
    std::vector<std::pair<std::uint64_t, NodeId>> bySize;
    bySize.reserve(members.size());
    for (const NodeId node : members)
        if (!isFiltering() || m_filter->matchingKeysOf(node) > 0)
            bySize.emplace_back(~keyspace::subtreeMemory(*m_keyspace, node), node);
    std::sort(bySize.begin(), bySize.end());
    rows.reserve(bySize.size());
    for (const auto& entry : bySize)
        rows.push_back(encode(RowKind::Member, entry.second));
    return rows;
}

std::size_t PatternTreeModel::pageSize(RowId parent) const
{
    return kindOfRow(parent) == RowKind::Members ? MemberPage : 0;
}

void PatternTreeModel::storeRowNumber(RowId row, std::uint32_t number) const
{
    const auto grown = [](std::vector<std::uint32_t>& numbers, std::size_t id) -> std::uint32_t& {
        if (numbers.size() <= id)
            numbers.resize(std::max(id + 1, numbers.size() * 2), 0);
        return numbers[id];
    };
    switch (kindOfRow(row)) {
    case RowKind::Pattern:
        grown(m_patternRow, idOf(row)) = number;
        break;
    case RowKind::Members:
        grown(m_membersRow, idOf(row)) = number;
        break;
    case RowKind::Member:
        m_memberRow.resize(std::size_t(idOf(row)) + 1);
        m_memberRow[idOf(row)] = number;
        break;
    case RowKind::Gone:
        grown(m_goneRow, idOf(row)) = number;
        break;
    }
}

std::uint32_t PatternTreeModel::rowNumber(RowId row) const
{
    const std::uint32_t id = idOf(row);
    if (kindOfRow(row) == RowKind::Member)
        return id < m_memberRow.size() ? m_memberRow[id] : 0;
    const std::vector<std::uint32_t>& numbers = kindOfRow(row) == RowKind::Pattern ? m_patternRow
                                                : kindOfRow(row) == RowKind::Gone  ? m_goneRow
                                                                                   : m_membersRow;
    return id < numbers.size() ? numbers[id] : 0;
}

PatternTreeModel::RowKind PatternTreeModel::kindOf(const QModelIndex& index) const
{
    return index.isValid() ? kindOfRow(index.internalId()) : RowKind::Pattern;
}

PatternTreeModel::PatternId PatternTreeModel::patternOf(const QModelIndex& index) const
{
    if (!index.isValid() || kindOf(index) == RowKind::Gone)
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
    return revealRow(encode(RowKind::Pattern, pattern), column);
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
    if (isFiltering()) {
        row.matchingKeys = std::int64_t(matchingKeysOf(pattern));
        for (const NodeId node : members) {
            const keyspace::MemoryFigure memory = m_filter->matchingMemoryOf(node);
            row.matchingMemory.bytes += memory.bytes;
            row.matchingMemory.keys += memory.keys;
            row.matchingMemory.unmeasured += memory.unmeasured;
        }
    }
    if (members.size() == 1 && m_keyspace->isKey(members.front())) {
        row.isKey = true;
        row.isLeafKey = !m_keyspace->hasChildren(members.front());
        const keyspace::KeyInfo info = m_keyspace->keyInfo(members.front());
        row.expiresAtMs = info.expiresAtMs;
        row.access = info.access;
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

RowFacts PatternTreeModel::factsOfGone(RowId row) const
{
    const Comparison::GonePattern& gone = goneOf(row);
    return goneRowFacts(gone.name, gone.text, gone.before);
}

RowFacts PatternTreeModel::factsOfMember(NodeId node, FactsWanted wanted) const
{
    RowFacts row;
    row.path = m_keyspace->path(node); // a member shows its whole path: its level alone repeats
    row.name = row.path;
    row.totals = keyspace::subtreeTotals(*m_keyspace, node);
    row.isKey = m_keyspace->isKey(node);
    row.isLeafKey = row.isKey && !m_keyspace->hasChildren(node);
    if (row.isLeafKey) {
        const keyspace::KeyInfo info = m_keyspace->keyInfo(node);
        row.expiresAtMs = info.expiresAtMs;
        row.access = info.access;
    }
    if (isFiltering()) {
        row.matchingKeys = std::int64_t(m_filter->matchingKeysOf(node));
        row.matchingMemory = m_filter->matchingMemoryOf(node);
    }
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

SortEntry PatternTreeModel::sortEntry(RowId row, int column, std::int64_t now) const
{
    return totalsSortEntry(totalsOf(idOf(row)), column, now);
}

QByteArrayView PatternTreeModel::nameOf(RowId row) const
{
    return kindOfRow(row) == RowKind::Gone ? QByteArrayView(goneOf(row).name)
                                           : QByteArrayView(m_tree->label(idOf(row)));
}

RowFacts PatternTreeModel::factsOf(RowId row, FactsWanted wanted) const
{
    switch (kindOfRow(row)) {
    case RowKind::Pattern:
        return factsOfPattern(idOf(row), wanted);
    case RowKind::Member:
        return factsOfMember(idOf(row), wanted);
    case RowKind::Gone:
        return factsOfGone(row);
    case RowKind::Members:
        break;
    }
    return {};
}

QVariant PatternTreeModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_tree || kindOf(index) != RowKind::Members)
        return RowTreeModel::data(index, role);
    const std::uint32_t pattern = idOf(index.internalId());
    const std::size_t count = m_tree->members(pattern).size();
    if (role == Qt::DisplayRole && index.column() == NameColumn)
        return tr("%1 members, biggest first").arg(displayText(keyspace::formatCount(count)));
    if (role == Qt::ToolTipRole)
        return tr("The keys and namespaces that %1 stands for, %2 at a time")
            .arg(displayText(keyspace::displayBytes(m_tree->text(pattern))))
            .arg(MemberPage);
    if (role == PathRole)
        return m_tree->text(pattern);
    return {};
}

QVariant PatternTreeModel::rowData(RowId row, int role) const
{
    const RowKind kind = kindOfRow(row);
    const std::uint32_t id = idOf(row);
    if (kind == RowKind::Gone)
        return goneRowData(role, goneOf(row).text);
    switch (role) {
    case NodeRole:
        return qulonglong(kind == RowKind::Member ? id : m_tree->members(id).front());
    case KeyBytesRole:
        return kind == RowKind::Member && m_keyspace->isKey(id) ? m_keyspace->path(id) : QByteArray();
    case PathRole:
        return kind == RowKind::Member ? m_keyspace->path(id) : m_tree->text(id);
    case IsKeyRole:
        return kind == RowKind::Member && m_keyspace->isKey(id);
    case MemoryFractionRole:
    case OverlayRole: {
        const RowFacts facts = factsOf(row, factsWanted(role, NameColumn));
        return role == OverlayRole ? QVariant(facts.overlays) : QVariant(facts.memoryFraction);
    }
    case MemoryOfTotalRole: {
        const std::uint64_t total = keyspace::subtreeMemory(*m_keyspace, keyspace::Keyspace::root());
        const std::uint64_t memory =
            kind == RowKind::Pattern ? totalsOf(id).memoryBytes : keyspace::subtreeMemory(*m_keyspace, id);
        return total ? double(memory) / double(total) : 0.0;
    }
    case WorstFindingRole:
        return (kind == RowKind::Pattern ? totalsOf(id) : keyspace::subtreeTotals(*m_keyspace, id)).worstFinding();
    case ColdShareRole: {
        const std::optional<double> share =
            (kind == RowKind::Pattern ? totalsOf(id) : keyspace::subtreeTotals(*m_keyspace, id)).coldShare();
        return share ? QVariant(*share) : QVariant();
    }
    case LibraryRole: {
        const lint::LibraryInfo* library = libraryOf(kind, id);
        return library ? QString::fromLatin1(library->id) : QString();
    }
    }
    return {};
}

// ---- live updates ----

void PatternTreeModel::announceNewRows(std::size_t firstNewPattern)
{
    std::unordered_map<RowId, Rows> added;
    for (std::size_t pattern = firstNewPattern; pattern < m_tree->size(); ++pattern) {
        const RowId parent = encode(RowKind::Pattern, m_tree->parent(PatternId(pattern)));
        if (isMaterialised(parent))
            added[parent].push_back(encode(RowKind::Pattern, PatternId(pattern)));
    }
    // A pattern shown with one member got more: its members row appears.
    for (auto it = m_withoutMembersRow.begin(); it != m_withoutMembersRow.end();) {
        if (hasMembersRow(*it)) {
            added[encode(RowKind::Pattern, *it)].push_back(encode(RowKind::Members, *it));
            it = m_withoutMembersRow.erase(it);
        } else {
            ++it;
        }
    }
    announceRows(added);
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
        endResetModel();
    }
    if (!m_tree->isLive())
        return;
    // The exact tree of a store that stopped growing is built at once, beside the folding.
    if (m_storeFinal && !m_exactBuild.isRunning())
        buildExactTree();
    if (m_foldSlices.isRunning())
        return;
    if (m_keyspace->nodeCount() - m_tree->foldedNodes() > FoldAtOnce) {
        m_foldedFrom = m_tree->size();
        m_foldSlices.start(
            [this](std::size_t nodes) {
                const std::size_t until = std::min(m_keyspace->nodeCount(), m_tree->foldedNodes() + nodes);
                m_tree->extend(until);
                return until == m_keyspace->nodeCount();
            },
            [this] { foldedUp(m_foldedFrom); });
        return;
    }
    const std::size_t before = m_tree->size();
    m_tree->extend(m_keyspace->nodeCount());
    foldedUp(before);
}

void PatternTreeModel::foldedUp(std::size_t firstNewPattern)
{
    announceNewRows(firstNewPattern);
    if (m_storeFinal || m_sinceTotals.elapsed() >= LiveTotalsIntervalMs) {
        startTotalsRefresh(m_storeFinal);
    } else if (!m_lateTotals.isActive() && !m_refresh) {
        // No publish may follow (a pause): the totals are read again within the interval anyway.
        m_lateTotals.start(int(LiveTotalsIntervalMs - m_sinceTotals.elapsed()));
    }
}

void PatternTreeModel::buildExactTree()
{
    waitForExactTree();
    const keyspace::Keyspace* store = m_keyspace;
    const std::uint64_t storeChanges = m_keyspace->changes();
    m_exactBuild.start(
        [this, store] {
            patterns::PatternTreeOptions options;
            options.cancelled = &m_exactBuild.cancelFlag();
            auto tree = std::make_unique<PatternTree>(*store, options);
            std::unordered_map<PatternId, keyspace::SubtreeTotals> totals;
            for (PatternId pattern = 1; pattern < tree->size(); ++pattern) {
                if (m_exactBuild.cancelled())
                    return;
                if (tree->members(pattern).size() > 1)
                    totals.emplace(pattern, tree->totals(pattern));
            }
            m_exactResult = std::move(tree);
            m_exactTotals = std::move(totals);
        },
        [this, storeChanges] {
            if (!m_exactResult)
                return;
            beginResetModel();
            m_tree = std::move(m_exactResult);
            forgetTree();
            listGone();
            m_totals = std::move(m_exactTotals);
            m_totalsOfChanges = storeChanges;
            m_exactTotals = {};
            endResetModel();
            // The store changed while the worker summed (a finding, an edit): read again, in slices.
            if (storeChanges != m_keyspace->changes())
                startTotalsRefresh(m_storeFinal);
            Q_EMIT exactTreeReady();
        });
}

std::vector<QByteArray> PatternTreeModel::memberPaths(patterns::PatternTree::PatternId pattern, std::size_t most) const
{
    std::vector<QByteArray> paths;
    if (!m_keyspace || !tree() || pattern >= tree()->size())
        return paths;
    const std::vector<keyspace::NodeId>& members = tree()->members(pattern);
    for (std::size_t i = 0; i < members.size() && i < most; ++i)
        paths.push_back(m_keyspace->path(members[i]));
    return paths;
}

} // namespace keylens::models
