#include "ui/TreemapView.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/SubtreeTotals.h"
#include "keyspace/Units.h"
#include "models/DisplayText.h"
#include "models/PatternTreeModel.h"
#include "models/TimeSlice.h"
#include "ui/OverlayColours.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <deque>
#include <limits>

namespace keylens::ui {

using keyspace::NodeId;
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

} // namespace

TreemapView::TreemapView(QWidget* parent)
    : QWidget(parent)
{
    setMinimumSize(200, 150);
    setMouseTracking(false);
    m_slices.setObjectName(QStringLiteral("treemap layout"));
    m_slices.setInterval(0);
    connect(&m_slices, &QTimer::timeout, this, [this] {
        if (layoutStep(models::SliceMs))
            m_slices.stop();
        update();
    });
}

void TreemapView::setStore(const keyspace::Keyspace* store)
{
    m_store = store;
    m_shown = keyspace::Keyspace::root();
    m_selected = keyspace::InvalidNode;
    invalidate();
    Q_EMIT shownNodeChanged(m_shown);
}

void TreemapView::setPatterns(const models::PatternTreeModel* patterns)
{
    m_patterns = patterns && patterns->tree() ? patterns : nullptr;
    m_shown = keyspace::Keyspace::root(); // the root of both trees
    m_selected = keyspace::InvalidNode;
    invalidate();
    Q_EMIT shownNodeChanged(m_shown);
}

template<typename Callback> void TreemapView::forEachChild(std::uint32_t id, Callback&& onChild) const
{
    if (m_patterns) {
        for (const patterns::PatternTree::PatternId child : m_patterns->tree()->children(id))
            onChild(child, m_patterns->totalsOf(child).memoryBytes);
        return;
    }
    m_store->forEachChild(id, [&](NodeId child) { onChild(child, keyspace::subtreeMemory(*m_store, child)); });
}

bool TreemapView::hasChildren(std::uint32_t id) const
{
    return m_patterns ? !m_patterns->tree()->children(id).empty() : m_store->hasChildren(id);
}

std::uint32_t TreemapView::parentOf(std::uint32_t id) const
{
    return m_patterns ? m_patterns->tree()->parent(id) : m_store->parent(id);
}

QString TreemapView::labelOf(std::uint32_t id) const
{
    return displayText(
        keyspace::displayBytes(m_patterns ? QByteArrayView(m_patterns->tree()->label(id)) : m_store->segment(id)));
}

int TreemapView::worstFindingOf(std::uint32_t id) const
{
    return (m_patterns ? m_patterns->totalsOf(id) : keyspace::subtreeTotals(*m_store, id)).worstFinding();
}

QString TreemapView::shownName() const
{
    if (!m_store || m_shown == keyspace::Keyspace::root())
        return QStringLiteral("All keys");
    if (m_patterns)
        return displayText(keyspace::displayBytes(m_patterns->tree()->text(m_shown)));
    return displayText(keyspace::displayBytes(m_store->namespacePrefix(m_shown))) + u'*';
}

keyspace::SubtreeTotals TreemapView::shownTotals() const
{
    if (!m_store)
        return {};
    return m_patterns ? m_patterns->totalsOf(m_shown) : keyspace::subtreeTotals(*m_store, m_shown);
}

void TreemapView::setShownNode(NodeId node)
{
    if (!m_store)
        return;
    const bool valid = m_patterns ? node < m_patterns->tree()->size() : node < m_store->nodeCount();
    if (!valid || (node != keyspace::Keyspace::root() && !hasChildren(node)))
        return;
    m_shown = node;
    invalidate();
    Q_EMIT shownNodeChanged(node);
}

void TreemapView::back()
{
    if (m_store && m_shown != keyspace::Keyspace::root())
        setShownNode(parentOf(m_shown));
}

void TreemapView::setSelected(NodeId node)
{
    m_selected = node;
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
    m_slices.stop();
    m_pending.clear();
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
    m_layoutMs = 0;
    if (m_store && m_store->keyCount() > 0)
        m_pending.push_back({m_shown, QRectF(rect()).adjusted(1, 1, -1, -1), 0, keyspace::InvalidNode});
}

void TreemapView::layout()
{
    if (m_dirty)
        startLayout();
    m_slices.stop();
    layoutStep(std::numeric_limits<qint64>::max());
}

bool TreemapView::layoutStep(qint64 budgetMs)
{
    QElapsedTimer clock;
    clock.start();
    // Breadth first, so parents come before their children (painting order) without recursion; a parent
    // of a million children is the largest unit of work (a few tens of milliseconds at most).
    std::vector<std::pair<std::uint64_t, NodeId>> children;
    while (!m_pending.empty() && clock.elapsed() < budgetMs) {
        const Pending at = m_pending.front();
        m_pending.pop_front();
        children.clear();
        forEachChild(at.node, [&](std::uint32_t child, std::uint64_t memory) {
            if (memory > 0)
                children.emplace_back(memory, child);
        });
        if (children.empty())
            continue;
        // The biggest MaxChildren by memory; the rest share one tile.
        const std::size_t shown = std::min(children.size(), MaxChildren);
        std::partial_sort(
            children.begin(), children.begin() + qsizetype(shown), children.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
        std::uint64_t total = 0, rest = 0;
        for (std::size_t i = 0; i < children.size(); ++i) {
            total += children[i].first;
            if (i >= shown)
                rest += children[i].first;
        }
        const double area = at.rect.width() * at.rect.height();
        std::vector<double> areas;
        for (std::size_t i = 0; i < shown; ++i)
            areas.push_back(area * double(children[i].first) / double(total));
        if (rest > 0)
            areas.push_back(area * double(rest) / double(total));
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
                tile.memoryBytes = rest;
                tile.others = children.size() - shown;
                tile.topLevel = at.topLevel;
            }
            m_tiles.push_back(tile);
            if (tile.node != keyspace::InvalidNode && hasChildren(tile.node) && tileRect.width() >= NestAbove &&
                tileRect.height() >= NestAbove)
                m_pending.push_back(
                    {tile.node, tileRect.adjusted(2, HeaderHeight, -2, -2), at.depth + 1, tile.topLevel});
        }
    }
    m_layoutMs += double(clock.nsecsElapsed()) / 1e6;
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
        if (!layoutStep(models::SliceMs))
            m_slices.start();
    }
    if (m_tiles.empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter,
                         m_store ? QStringLiteral("No memory measured here") : QStringLiteral("No keys yet"));
        return;
    }
    const QFontMetrics metrics = fontMetrics();
    const QColor border = palette().color(QPalette::Base);
    for (const Tile& tile : m_tiles) {
        painter.fillRect(tile.rect, colourOf(tile));
        painter.setPen(border);
        painter.drawRect(tile.rect);
        // Labels where they fit: the name, then the memory when there is room for a second line.
        const QString name =
            tile.node == keyspace::InvalidNode ? QStringLiteral("%1 others").arg(tile.others) : labelOf(tile.node);
        const QRectF text = tile.rect.adjusted(3, 1, -3, -1);
        if (text.width() < metrics.horizontalAdvance(QStringLiteral("abc")) || text.height() < metrics.height())
            continue;
        painter.setPen(Qt::black);
        painter.drawText(text, Qt::AlignLeft | Qt::AlignTop,
                         metrics.elidedText(name, Qt::ElideRight, int(text.width())));
        if (text.height() >= 2 * metrics.height() + HeaderHeight)
            painter.drawText(text.adjusted(0, metrics.height(), 0, 0), Qt::AlignLeft | Qt::AlignTop,
                             displayText(keyspace::formatBytes(tile.memoryBytes)));
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
            Q_EMIT nodeActivated(tile->node);
    }
}

void TreemapView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (const Tile* tile = tileAt(event->position()); tile && tile->node != keyspace::InvalidNode)
        setShownNode(tile->node);
}

} // namespace keylens::ui
