#include "models/TreemapLayout.h"

#include "base/TimeSlice.h"
#include "keyspace/Keyspace.h"
#include "models/KeyspaceView.h"
#include "models/PatternTreeModel.h"

#include <QElapsedTimer>

#include <algorithm>
#include <limits>

namespace keylens::models {

namespace {

// Squarified layout (Bruls, Huizing, van Wijk): rows of rectangles along the shorter side, each row
// closed when adding one more would make its worst aspect ratio worse. `areas` are sorted biggest first
// and add up to the rectangle's area.
std::vector<QRectF> squarify(const std::vector<double>& areas, QRectF rect)
{
    std::vector<QRectF> out(areas.size());
    std::size_t i = 0;
    while (i < areas.size()) {
        const double side = std::min(rect.width(), rect.height());
        if (side <= 0)
            break;
        const auto worst = [side](double sum, double biggest, double smallest) {
            return std::max(side * side * biggest / (sum * sum), sum * sum / (side * side * smallest));
        };
        double sum = areas[i];
        double ratio = worst(sum, areas[i], areas[i]);
        std::size_t end = i + 1;
        while (end < areas.size()) {
            const double next = worst(sum + areas[end], areas[i], areas[end]);
            if (next > ratio)
                break;
            sum += areas[end];
            ratio = next;
            ++end;
        }
        const double thickness = sum / side;
        double offset = 0;
        const bool column = rect.width() >= rect.height(); // the row stands along the left side
        for (std::size_t k = i; k < end; ++k) {
            const double length = areas[k] / thickness;
            out[k] = column ? QRectF(rect.left(), rect.top() + offset, thickness, length)
                            : QRectF(rect.left() + offset, rect.top(), length, thickness);
            offset += length;
        }
        if (column)
            rect.setLeft(rect.left() + thickness);
        else
            rect.setTop(rect.top() + thickness);
        i = end;
    }
    return out;
}

// Bigger memory first; equal ones by id, so a layout is the same every time.
bool biggerFirst(const std::pair<std::uint64_t, std::uint32_t>& a, const std::pair<std::uint64_t, std::uint32_t>& b)
{
    return a.first != b.first ? a.first > b.first : a.second < b.second;
}

} // namespace

TreemapLayout::TreemapLayout(const KeyspaceView& keyspace, QObject* parent)
    : QObject(parent)
    , m_keyspace(keyspace)
{
    connect(&keyspace, &KeyspaceView::storeReplaced, this, &TreemapLayout::clear);
}

void TreemapLayout::setPatterns(const PatternTreeModel* patterns)
{
    m_patterns = patterns && patterns->tree() ? patterns : nullptr;
    clear();
}

bool TreemapLayout::hasStore() const
{
    return m_keyspace.hasStore();
}

bool TreemapLayout::hasKeys() const
{
    return m_keyspace.keyCount() > 0;
}

bool TreemapLayout::exists(std::uint32_t id) const
{
    return m_patterns ? id < m_patterns->tree()->size() : !m_keyspace.ref(id).isNull();
}

bool TreemapLayout::hasChildren(std::uint32_t id) const
{
    return m_patterns ? !m_patterns->tree()->children(id).empty() : m_keyspace.hasChildren(m_keyspace.ref(id));
}

std::uint32_t TreemapLayout::parentOf(std::uint32_t id) const
{
    return m_patterns ? m_patterns->tree()->parent(id) : m_keyspace.parent(m_keyspace.ref(id)).node;
}

QByteArray TreemapLayout::labelOf(std::uint32_t id) const
{
    return m_patterns ? m_patterns->tree()->label(id) : m_keyspace.segment(m_keyspace.ref(id));
}

QByteArray TreemapLayout::nameOf(std::uint32_t id) const
{
    return m_patterns ? m_patterns->tree()->text(id) : m_keyspace.namespacePrefix(m_keyspace.ref(id)) + '*';
}

keyspace::SubtreeTotals TreemapLayout::totalsOf(std::uint32_t id) const
{
    return m_patterns ? m_patterns->totalsOf(id) : m_keyspace.totals(m_keyspace.ref(id));
}

void TreemapLayout::clear()
{
    // What is half laid out may name nodes or patterns that are gone (a new store, a new pattern tree).
    m_slices.cancel();
    m_tiles.clear();
    m_pending.clear();
    m_gathered = {};
}

void TreemapLayout::start(std::uint32_t shown, QRectF rect)
{
    clear();
    m_layoutMs = 0;
    m_longestSliceMs = 0;
    if (!hasKeys() || !exists(shown))
        return;
    m_pending.push_back({shown, rect, 0, keyspace::InvalidNode});
    if (layoutStep(base::SliceMs))
        return;
    // The layout keeps its own clock: one step is a slice, and each slice shows what it laid out.
    m_slices.start(
        [this](std::size_t) {
            const bool done = layoutStep(base::SliceMs);
            Q_EMIT laidOut();
            return done;
        },
        {});
}

void TreemapLayout::finish()
{
    m_slices.cancel();
    layoutStep(std::numeric_limits<qint64>::max());
}

void TreemapLayout::Gathered::keepBiggest(std::size_t count)
{
    if (biggest.size() <= count)
        return;
    std::nth_element(biggest.begin(), biggest.begin() + qsizetype(count), biggest.end(), biggerFirst);
    for (std::size_t i = count; i < biggest.size(); ++i)
        rest += biggest[i].first;
    restCount += biggest.size() - count;
    biggest.resize(count);
}

bool TreemapLayout::gatherChildren(const QElapsedTimer& clock, qint64 budgetMs)
{
    const std::uint32_t parent = m_pending.front().node;
    Gathered& gathered = m_gathered;
    const auto add = [&](std::uint32_t child, std::uint64_t memory) {
        if (memory == 0)
            return;
        gathered.total += memory;
        gathered.biggest.emplace_back(memory, child);
        // Amortised: a partition every MaxChildren children keeps the candidates bounded.
        if (gathered.biggest.size() >= 2 * MaxChildren)
            gathered.keepBiggest(MaxChildren);
    };
    if (!gathered.started) {
        gathered = {};
        gathered.started = true;
        gathered.cursor = m_patterns ? 0 : m_keyspace.firstChild(m_keyspace.ref(parent)).node;
    }
    // The clock is read every few thousand children: reading it per child would cost more than the child.
    constexpr std::uint32_t ChildrenPerCheck = 4096;
    if (m_patterns) {
        const std::vector<patterns::PatternTree::PatternId>& children = m_patterns->tree()->children(parent);
        while (gathered.cursor < children.size()) {
            const std::size_t end = std::min<std::size_t>(children.size(), gathered.cursor + ChildrenPerCheck);
            for (; gathered.cursor < end; ++gathered.cursor) {
                const patterns::PatternTree::PatternId child = children[gathered.cursor];
                add(child, m_patterns->totalsOf(child).memoryBytes);
            }
            if (gathered.cursor < children.size() && clock.elapsed() >= budgetMs)
                return false;
        }
        return true;
    }
    // The store itself, not the view's checked answers: a parent of a million children asks this a million times, and
    // the layout is dropped with the store (clear() on storeReplaced), so its ids are the current store's.
    const keyspace::Keyspace& store = *m_keyspace.store();
    while (gathered.cursor != keyspace::InvalidNode) {
        for (std::uint32_t n = 0; n < ChildrenPerCheck && gathered.cursor != keyspace::InvalidNode; ++n) {
            add(gathered.cursor, keyspace::subtreeMemory(store, gathered.cursor));
            gathered.cursor = store.nextSibling(gathered.cursor);
        }
        if (gathered.cursor != keyspace::InvalidNode && clock.elapsed() >= budgetMs)
            return false;
    }
    return true;
}

bool TreemapLayout::layoutStep(qint64 budgetMs)
{
    QElapsedTimer clock;
    clock.start();
    // Breadth first, so parents come before their children (painting order) without recursion. A parent's
    // children are gathered in steps, so even one of a million children never holds a slice much longer.
    while (!m_pending.empty() && clock.elapsed() < budgetMs) {
        if (!gatherChildren(clock, budgetMs))
            break; // the next slice goes on with this parent
        const Pending at = m_pending.front();
        m_pending.pop_front();
        Gathered gathered = std::exchange(m_gathered, {});
        if (gathered.biggest.empty())
            continue;
        // The biggest MaxChildren by memory; the rest share one tile.
        gathered.keepBiggest(MaxChildren);
        std::sort(gathered.biggest.begin(), gathered.biggest.end(), biggerFirst);
        const std::vector<std::pair<std::uint64_t, std::uint32_t>>& children = gathered.biggest;
        const std::size_t shown = children.size();
        const double area = at.rect.width() * at.rect.height();
        std::vector<double> areas;
        areas.reserve(shown + 1);
        for (std::size_t i = 0; i < shown; ++i)
            areas.push_back(area * double(children[i].first) / double(gathered.total));
        if (gathered.rest > 0)
            areas.push_back(area * double(gathered.rest) / double(gathered.total));
        const std::vector<QRectF> rects = squarify(areas, at.rect);
        for (std::size_t i = 0; i < rects.size(); ++i) {
            const QRectF& tileRect = rects[i];
            if (tileRect.width() < MinimumSide || tileRect.height() < MinimumSide)
                continue;
            Tile tile;
            tile.rect = tileRect;
            tile.depth = at.depth;
            if (i < shown) {
                tile.node = children[i].second;
                tile.memoryBytes = children[i].first;
                tile.topLevel = at.depth == 0 ? tile.node : at.topLevel;
            } else {
                tile.memoryBytes = gathered.rest;
                tile.others = gathered.restCount;
                tile.topLevel = at.topLevel;
            }
            tile.nested = tile.node != keyspace::InvalidNode && hasChildren(tile.node) &&
                          tileRect.width() >= NestAbove && tileRect.height() >= NestAbove;
            m_tiles.push_back(tile);
            if (tile.nested)
                m_pending.push_back(
                    {tile.node, tileRect.adjusted(2, HeaderHeight, -2, -2), at.depth + 1, tile.topLevel});
        }
    }
    const double sliceMs = double(clock.nsecsElapsed()) / 1e6;
    m_layoutMs += sliceMs;
    m_longestSliceMs = std::max(m_longestSliceMs, sliceMs);
    return m_pending.empty();
}

} // namespace keylens::models
