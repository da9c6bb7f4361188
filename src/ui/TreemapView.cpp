#include "ui/TreemapView.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "models/DisplayText.h"
#include "models/EstimatedMemory.h"
#include "models/KeyspaceView.h"
#include "ui/OverlayColours.h"

#include <QHash>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace keylens::ui {

using models::displayText;

TreemapView::TreemapView(const models::KeyspaceView& keyspace, QWidget* parent)
    : QWidget(parent)
    , m_keyspace(keyspace)
    , m_layout(new models::TreemapLayout(keyspace, this))
{
    setMinimumSize(200, 150);
    setMouseTracking(false);
    connect(m_layout, &models::TreemapLayout::laidOut, this, qOverload<>(&QWidget::update));
    // The map laid out, or half laid out, names nodes of the store that went (or patterns of its pattern tree).
    connect(&keyspace, &models::KeyspaceView::storeReplaced, this, &TreemapView::reset);
}

bool TreemapView::hasStore() const
{
    return m_layout->hasStore();
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
    m_layout->setPatterns(patterns);
    reset();
}

bool TreemapView::showsPatterns() const
{
    return m_layout->showsPatterns();
}

QString TreemapView::labelOf(std::uint32_t id) const
{
    return displayText(keyspace::displayBytes(m_layout->labelOf(id)));
}

QString TreemapView::shownName() const
{
    if (!hasStore() || m_shown == keyspace::RootNode)
        return tr("All keys");
    return displayText(keyspace::displayBytes(m_layout->nameOf(m_shown)));
}

keyspace::SubtreeTotals TreemapView::shownTotals() const
{
    return hasStore() ? m_layout->totalsOf(m_shown) : keyspace::SubtreeTotals{};
}

void TreemapView::setShownNode(std::uint32_t node)
{
    if (!hasStore())
        return;
    if (!m_layout->exists(node) || (node != keyspace::RootNode && !m_layout->hasChildren(node)))
        return;
    m_shown = node;
    invalidate();
    Q_EMIT shownNodeChanged();
}

void TreemapView::back()
{
    if (hasStore() && m_shown != keyspace::RootNode)
        setShownNode(m_layout->parentOf(m_shown));
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

void TreemapView::setGrowth(DeltaOf deltaOf)
{
    m_deltaOf = std::move(deltaOf);
    update();
}

void TreemapView::invalidate()
{
    m_layout->clear();
    m_dirty = true;
    update();
}

void TreemapView::startLayout()
{
    m_dirty = false;
    m_layout->start(m_shown, QRectF(rect()).adjusted(1, 1, -1, -1));
}

const std::vector<TreemapView::Tile>& TreemapView::tiles()
{
    if (m_dirty)
        startLayout();
    m_layout->finish();
    return m_layout->tiles();
}

double TreemapView::lastLayoutMs() const
{
    return m_layout->lastLayoutMs();
}

double TreemapView::longestSliceMs() const
{
    return m_layout->longestSliceMs();
}

bool TreemapView::isLayingOut() const
{
    return m_layout->isLayingOut();
}

void TreemapView::resizeEvent(QResizeEvent*)
{
    invalidate();
}

QColor TreemapView::colourOf(const Tile& tile) const
{
    if (tile.node == keyspace::InvalidNode)
        return palette().color(QPalette::Mid);
    if (m_colouring == Colouring::Growth)
        return growthColourOf(tile);
    if (m_colouring == Colouring::Cold) {
        const std::optional<double> share = m_layout->totalsOf(tile.node).coldShare();
        if (!share)
            return QColor(0xd4, 0xd4, 0xd4).lighter(100 + tile.depth * 4); // not measured: no colour claims anything
        const QColor read(0xe6, 0xd8, 0xc4);
        const QColor cold = overlay::cold();
        const double t = std::clamp(*share, 0.0, 1.0);
        const auto mix = [t](int a, int b) { return int(std::lround(a + (b - a) * t)); };
        return QColor(mix(read.red(), cold.red()), mix(read.green(), cold.green()), mix(read.blue(), cold.blue()))
            .lighter(100 + tile.depth * 6);
    }
    if (m_colouring == Colouring::WorstFinding) {
        const int worst = m_layout->totalsOf(tile.node).worstFinding();
        if (worst < 0)
            return QColor(0xc8, 0xd8, 0xc8).lighter(100 + tile.depth * 6);
        return overlay::finding(worst).lighter(120 + tile.depth * 10);
    }
    // A hue per top-level namespace, the same in every session: its name's hash.
    const int hue = int(qHash(labelOf(tile.topLevel)) % 360);
    return QColor::fromHsv(hue, std::max(40, 110 - tile.depth * 20), std::min(245, 200 + tile.depth * 15));
}

QColor TreemapView::growthColourOf(const Tile& tile) const
{
    const QColor unknown(0xd4, 0xd4, 0xd4); // not listed then: no colour claims anything
    if (!m_deltaOf)
        return unknown;
    const models::RowDelta delta = m_deltaOf(tile.node);
    const QColor grew = overlay::growth(palette());
    const QColor shrank = overlay::shrinkage(palette());
    if (delta.kind == models::RowDelta::New)
        return grew;
    if (delta.kind != models::RowDelta::Compared)
        return unknown;
    // The ratio of now to then on a log scale: doubled (or more) is the full red, halved the full green.
    const bool memory = delta.memoryCompared && delta.memoryBefore > 0;
    const double before = double(memory ? delta.memoryBefore : delta.keysBefore);
    const double now = double(memory ? delta.memoryNow : delta.keysNow);
    if (before <= 0)
        return now > 0 ? grew : unknown;
    const double change = std::clamp(std::log2(std::max(now, 1.0) / before), -1.0, 1.0);
    const QColor towards = change >= 0 ? grew : shrank;
    const double weight = 0.15 + 0.85 * std::abs(change); // a small change still shows its direction
    const QColor neutral(0xee, 0xee, 0xee);
    return QColor::fromRgbF(float(neutral.redF() + (towards.redF() - neutral.redF()) * weight),
                            float(neutral.greenF() + (towards.greenF() - neutral.greenF()) * weight),
                            float(neutral.blueF() + (towards.blueF() - neutral.blueF()) * weight))
        .lighter(100 + tile.depth * 6);
}

void TreemapView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    // A few milliseconds of layout per paint; the rest in slices, painting what is there meanwhile
    // (parents first, so the big picture comes first).
    if (m_dirty)
        startLayout();
    const std::vector<Tile>& tiles = m_layout->tiles();
    if (tiles.empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter,
                         m_layout->hasKeys() ? tr("No memory measured here") : tr("No keys yet"));
        return;
    }
    const QFontMetrics metrics = fontMetrics();
    const QColor border = palette().color(QPalette::Base);
    for (const Tile& tile : tiles) {
        painter.fillRect(tile.rect, colourOf(tile));
        painter.setPen(border);
        painter.drawRect(tile.rect);
        // Labels where they fit: the name, then the memory when there is room for a second line.
        const QString name = tile.node == keyspace::InvalidNode ? tr("%1 others").arg(tile.others) : labelOf(tile.node);
        const QRectF text = tile.rect.adjusted(3, 1, -3, -1);
        if (text.width() < metrics.horizontalAdvance(QStringLiteral("abc")) || text.height() < metrics.height())
            continue;
        painter.setPen(Qt::black);
        QString memory = displayText(keyspace::formatBytes(tile.memoryBytes));
        if (m_keyspace.memoryEstimated())
            memory = models::estimatedCell(memory);
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
        if (text.height() >= 2 * metrics.height() + models::TreemapLayout::HeaderHeight)
            painter.drawText(text.adjusted(0, metrics.height(), 0, 0), Qt::AlignLeft | Qt::AlignTop, memory);
    }
    for (const Tile& tile : tiles) {
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
        if (showsPatterns())
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
