#include "ui/TreemapView.h"

#include "base/TimeSlice.h"
#include "keyspace/KeyEscape.h"
#include "keyspace/SubtreeTotals.h"
#include "keyspace/Units.h"
#include "models/DisplayText.h"
#include "models/KeyspaceView.h"
#include "models/PatternTreeModel.h"
#include "ui/OverlayColours.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <deque>
#include <limits>

namespace keylens::ui {

using models::displayText;

namespace {

constexpr double HeaderHeight = 15; // a namespace's name strip above its children
constexpr double NestAbove = 28;    // a namespace this big on both sides shows its children

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

TreemapView::TreemapView(const models::KeyspaceView& keyspace, QWidget* parent)
    : QWidget(parent)
    , m_keyspace(keyspace)
{
    setMinimumSize(200, 150);
    setMouseTracking(false);
    // The map laid out, or half laid out, names nodes of the store that goes.
    connect(&keyspace, &models::KeyspaceView::storeReplaced, this, [this] {
        if (!m_patterns)
            reset();
    });
}

bool TreemapView::hasStore() const
{
    return m_keyspace.hasStore();
}

void TreemapView::reset()
{
    m_shown = keyspace::RootNode; // the root of both trees
    m_selected = keyspace::InvalidNode;
    invalidate();
    Q_EMIT shownNodeChanged();
}

void TreemapView::setPatterns(const models::PatternTreeModel* patterns)
{
    m_patterns = patterns && patterns->tree() ? patterns : nullptr;
    reset();
}

bool TreemapView::hasChildren(std::uint32_t id) const
{
    return m_patterns ? !m_patterns->tree()->children(id).empty() : m_keyspace.hasChildren(m_keyspace.ref(id));
}

std::uint32_t TreemapView::parentOf(std::uint32_t id) const
{
    return m_patterns ? m_patterns->tree()->parent(id) : m_keyspace.parent(m_keyspace.ref(id)).node;
}

QString TreemapView::labelOf(std::uint32_t id) const
{
    return displayText(keyspace::displayBytes(m_patterns ? QByteArrayView(m_patterns->tree()->label(id))
                                                         : QByteArrayView(m_keyspace.segment(m_keyspace.ref(id)))));
}

int TreemapView::worstFindingOf(std::uint32_t id) const
{
    return (m_patterns ? m_patterns->totalsOf(id) : m_keyspace.totals(m_keyspace.ref(id))).worstFinding();
}

QString TreemapView::shownName() const
{
    if (!hasStore() || m_shown == keyspace::RootNode)
        return tr("All keys");
    if (m_patterns)
        return displayText(keyspace::displayBytes(m_patterns->tree()->text(m_shown)));
    return displayText(keyspace::displayBytes(m_keyspace.namespacePrefix(m_keyspace.ref(m_shown)))) + u'*';
}

keyspace::SubtreeTotals TreemapView::shownTotals() const
{
    if (!hasStore())
        return {};
    return m_patterns ? m_patterns->totalsOf(m_shown) : m_keyspace.totals(m_keyspace.ref(m_shown));
}

void TreemapView::setShownNode(std::uint32_t node)
{
    if (!hasStore())
        return;
    const bool valid = m_patterns ? node < m_patterns->tree()->size() : !m_keyspace.ref(node).isNull();
    if (!valid || (node != keyspace::RootNode && !hasChildren(node)))
        return;
    m_shown = node;
    invalidate();
    Q_EMIT shownNodeChanged();
}

void TreemapView::back()
{
    if (hasStore() && m_shown != keyspace::RootNode)
        setShownNode(parentOf(m_shown));
}

void TreemapView::setSelected(models::NodeRef node)
{
    m_selected = m_keyspace.nodeOf(node);
    update();
}

void TreemapView::setColouring(Colouring colouring)
{
    m_colouring = colouring;
    update();
}

void TreemapView::invalidate()
{
    // What is half laid out may name nodes or patterns that are gone (a new store, a new pattern tree).
    m_slices.cancel();
    m_pending.clear();
    m_gathered = {};
    m_dirty = true;
    update();
}

const std::vector<TreemapView::Tile>& TreemapView::tiles()
{
    if (m_dirty || !m_pending.empty())
        layout();
    return m_tiles;
}

void TreemapView::resizeEvent(QResizeEvent*)
{
    invalidate();
}

void TreemapView::startLayout()
{
    m_dirty = false;
    m_tiles.clear();
    m_pending.clear();
    m_gathered = {};
    m_layoutMs = 0;
    m_longestSliceMs = 0;
    if (m_keyspace.keyCount() > 0)
        m_pending.push_back({m_shown, QRectF(rect()).adjusted(1, 1, -1, -1), 0, keyspace::InvalidNode});
}

void TreemapView::layout()
{
    if (m_dirty)
        startLayout();
    m_slices.cancel();
    layoutStep(std::numeric_limits<qint64>::max());
}

void TreemapView::Gathered::keepBiggest(std::size_t count)
{
    if (biggest.size() <= count)
        return;
    std::nth_element(biggest.begin(), biggest.begin() + qsizetype(count), biggest.end(), biggerFirst);
    for (std::size_t i = count; i < biggest.size(); ++i)
        rest += biggest[i].first;
    restCount += biggest.size() - count;
    biggest.resize(count);
}

bool TreemapView::gatherChildren(const QElapsedTimer& clock, qint64 budgetMs)
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
    while (gathered.cursor != keyspace::InvalidNode) {
        for (std::uint32_t n = 0; n < ChildrenPerCheck && gathered.cursor != keyspace::InvalidNode; ++n) {
            const models::NodeRef child = m_keyspace.ref(gathered.cursor);
            add(gathered.cursor, m_keyspace.subtreeMemory(child));
            gathered.cursor = m_keyspace.nextSibling(child).node;
        }
        if (gathered.cursor != keyspace::InvalidNode && clock.elapsed() >= budgetMs)
            return false;
    }
    return true;
}

bool TreemapView::layoutStep(qint64 budgetMs)
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

QColor TreemapView::colourOf(const Tile& tile) const
{
    if (tile.node == keyspace::InvalidNode)
        return palette().color(QPalette::Mid);
    if (m_colouring == Colouring::WorstFinding) {
        const int worst = worstFindingOf(tile.node);
        if (worst < 0)
            return QColor(0xc8, 0xd8, 0xc8).lighter(100 + tile.depth * 6);
        return overlay::finding(worst).lighter(120 + tile.depth * 10);
    }
    // A hue per top-level namespace, the same in every session: its name's hash.
    const int hue = int(qHash(labelOf(tile.topLevel)) % 360);
    return QColor::fromHsv(hue, std::max(40, 110 - tile.depth * 20), std::min(245, 200 + tile.depth * 15));
}

void TreemapView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    // A few milliseconds of layout per paint; the rest in slices, painting what is there meanwhile
    // (parents first, so the big picture comes first).
    if (m_dirty) {
        startLayout();
        if (!layoutStep(base::SliceMs)) {
            // The layout keeps its own clock: one step is a slice, and each slice shows what it laid out.
            m_slices.start(
                [this](std::size_t) {
                    const bool done = layoutStep(base::SliceMs);
                    update();
                    return done;
                },
                {});
        }
    }
    if (m_tiles.empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter,
                         hasStore() && m_keyspace.keyCount() > 0 ? tr("No memory measured here") : tr("No keys yet"));
        return;
    }
    const QFontMetrics metrics = fontMetrics();
    const QColor border = palette().color(QPalette::Base);
    for (const Tile& tile : m_tiles) {
        painter.fillRect(tile.rect, colourOf(tile));
        painter.setPen(border);
        painter.drawRect(tile.rect);
        // Labels where they fit: the name, then the memory when there is room for a second line.
        const QString name = tile.node == keyspace::InvalidNode ? tr("%1 others").arg(tile.others) : labelOf(tile.node);
        const QRectF text = tile.rect.adjusted(3, 1, -3, -1);
        if (text.width() < metrics.horizontalAdvance(QStringLiteral("abc")) || text.height() < metrics.height())
            continue;
        painter.setPen(Qt::black);
        const QString memory = displayText(keyspace::formatBytes(tile.memoryBytes));
        if (tile.nested) {
            // Its children cover everything below the header strip: name and memory share that one line, or
            // the name alone where both do not fit.
            const QString both = name + QStringLiteral("  ") + memory;
            painter.drawText(text, Qt::AlignLeft | Qt::AlignTop,
                             metrics.horizontalAdvance(both) <= text.width()
                                 ? both
                                 : metrics.elidedText(name, Qt::ElideRight, int(text.width())));
            continue;
        }
        painter.drawText(text, Qt::AlignLeft | Qt::AlignTop,
                         metrics.elidedText(name, Qt::ElideRight, int(text.width())));
        if (text.height() >= 2 * metrics.height() + HeaderHeight)
            painter.drawText(text.adjusted(0, metrics.height(), 0, 0), Qt::AlignLeft | Qt::AlignTop, memory);
    }
    for (const Tile& tile : m_tiles) {
        if (tile.node == m_selected) {
            painter.setPen(QPen(palette().color(QPalette::Highlight), 3));
            painter.drawRect(tile.rect.adjusted(1, 1, -1, -1));
        }
    }
}

const TreemapView::Tile* TreemapView::tileAt(QPointF point)
{
    const std::vector<Tile>& all = tiles();
    // The deepest tile under the point: children come after their parents.
    for (auto it = all.rbegin(); it != all.rend(); ++it) {
        if (it->rect.contains(point))
            return &*it;
    }
    return nullptr;
}

void TreemapView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::BackButton) {
        back();
        return;
    }
    if (event->button() != Qt::LeftButton)
        return;
    if (const Tile* tile = tileAt(event->position()); tile && tile->node != keyspace::InvalidNode) {
        m_selected = tile->node;
        update();
        if (m_patterns)
            Q_EMIT patternActivated(tile->node);
        else
            Q_EMIT nodeActivated(m_keyspace.ref(tile->node));
    }
}

void TreemapView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (const Tile* tile = tileAt(event->position()); tile && tile->node != keyspace::InvalidNode)
        setShownNode(tile->node);
}

} // namespace keylens::ui
