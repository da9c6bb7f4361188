#include "ui/KeyTreeDelegate.h"

#include "models/KeyTreeModel.h"
#include "ui/OverlayColours.h"

#include <QApplication>
#include <QHeaderView>
#include <QPainter>
#include <QProxyStyle>
#include <QStyleFactory>
#include <QStyleOptionHeader>
#include <QTreeView>

namespace keylens::ui {

using models::KeyTreeModel;

namespace {

void drawBadge(QPainter* painter, const QRect& rect, const QString& label, const QColor& colour)
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    painter->setBrush(colour);
    painter->drawRoundedRect(rect, 3, 3);
    QFont font = painter->font();
    font.setPointSizeF(font.pointSizeF() * 0.75);
    font.setBold(true);
    painter->setFont(font);
    painter->setPen(Qt::white);
    painter->drawText(rect, Qt::AlignCenter, label);
    painter->restore();
}

// Qt's header draws an up arrow for a descending sort (QHeaderView maps descending to SortUp); on Linux and
// macOS a column sorted biggest first shows an arrow pointing down. This style swaps the two for the trees.
class SortArrowStyle : public QProxyStyle
{
public:
    using QProxyStyle::QProxyStyle;

    void drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                       const QWidget* widget) const override
    {
        if (element == PE_IndicatorHeaderArrow) {
            if (const auto* header = qstyleoption_cast<const QStyleOptionHeader*>(option)) {
                QStyleOptionHeader swapped = *header;
                if (header->sortIndicator == QStyleOptionHeader::SortUp)
                    swapped.sortIndicator = QStyleOptionHeader::SortDown;
                else if (header->sortIndicator == QStyleOptionHeader::SortDown)
                    swapped.sortIndicator = QStyleOptionHeader::SortUp;
                QProxyStyle::drawPrimitive(element, &swapped, painter, widget);
                return;
            }
        }
        QProxyStyle::drawPrimitive(element, option, painter, widget);
    }
};

} // namespace

void KeyTreeDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    // Only the Name and TTL cells show overlays; the other four need not ask the model for them.
    const bool showsOverlays = index.column() == KeyTreeModel::NameColumn || index.column() == KeyTreeModel::TtlColumn;
    const int overlays = showsOverlays ? index.data(KeyTreeModel::OverlayRole).toInt() : 0;
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);

    if (index.column() == KeyTreeModel::MemoryColumn) {
        // Background and selection first, then the bar, then the text on top.
        const QString text = opt.text;
        opt.text.clear();
        QStyle* style = opt.widget ? opt.widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
        // The bar's length is the share of the parent, its colour the share of the whole keyspace. It stays left
        // of the figure, so the figure is never half on the bar and half off it.
        const double fraction = index.data(KeyTreeModel::MemoryFractionRole).toDouble();
        const int textWidth = opt.fontMetrics.horizontalAdvance(text);
        QRect bar = opt.rect.adjusted(2, 3, -(textWidth + 12), -3);
        bar.setWidth(std::max(fraction > 0 ? 2 : 0, int(std::max(0, bar.width()) * std::clamp(fraction, 0.0, 1.0))));
        QColor heat = overlay::memoryHeat(index.data(KeyTreeModel::MemoryOfTotalRole).toDouble(), opt.palette);
        if (opt.state & QStyle::State_Selected) {
            // Over the highlight, a light bar keeps its length readable.
            heat = opt.palette.color(QPalette::HighlightedText);
            heat.setAlphaF(0.35f);
        }
        painter->fillRect(bar, heat);
        painter->setPen(
            opt.palette.color(opt.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text));
        painter->drawText(opt.rect.adjusted(4, 0, -6, 0), Qt::AlignRight | Qt::AlignVCenter, text);
        return;
    }

    if (index.column() == KeyTreeModel::FindingsColumn) {
        const int worst = index.data(KeyTreeModel::WorstFindingRole).toInt();
        if (worst < 0) {
            QStyledItemDelegate::paint(painter, option, index);
            return;
        }
        // A tint of the worst severity under the count, and a dot of it at the left, so the colour reads
        // even on a selected row.
        const QColor colour = overlay::finding(worst);
        if (!(opt.state & QStyle::State_Selected)) {
            QColor tint = colour;
            tint.setAlphaF(worst == 0 ? 0.12f : 0.25f);
            painter->fillRect(opt.rect, tint);
        }
        QStyledItemDelegate::paint(painter, opt, index);
        const int diameter = std::max(6, opt.rect.height() / 3);
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setPen(Qt::NoPen);
        painter->setBrush(colour);
        painter->drawEllipse(QRect(opt.rect.left() + 5, opt.rect.center().y() - diameter / 2, diameter, diameter));
        painter->restore();
        return;
    }

    if (index.column() == KeyTreeModel::TtlColumn) {
        QColor tint;
        if (overlays & KeyTreeModel::NoTtlAmongExpiring)
            tint = overlay::missingTtl();
        else if (overlays & KeyTreeModel::ExpiringSoon)
            tint = overlay::expiringSoon();
        if (tint.isValid() && !(opt.state & QStyle::State_Selected)) {
            // Painted under the item: the base class would reset a backgroundBrush from the model.
            tint.setAlphaF(0.30f);
            painter->fillRect(opt.rect, tint);
        }
        if (overlays & KeyTreeModel::Expired)
            opt.palette.setColor(QPalette::Text, overlay::expired(opt.palette));
        QStyledItemDelegate::paint(painter, opt, index);
        return;
    }

    if (index.column() == KeyTreeModel::NameColumn) {
        // The library whose layout a subtree is, on the row where it starts (not on each of its keys).
        const QString library = index.data(KeyTreeModel::LibraryRole).toString();
        const bool libraryStarts =
            !library.isEmpty() && index.parent().data(KeyTreeModel::LibraryRole).toString() != library;
        if (!(overlays & KeyTreeModel::BigKey) && !libraryStarts) {
            QStyledItemDelegate::paint(painter, option, index);
            return;
        }
        QStyledItemDelegate::paint(painter, option, index);
        int right = opt.rect.right() - 2;
        if (overlays & KeyTreeModel::BigKey) {
            const int badgeWidth = opt.fontMetrics.horizontalAdvance(QStringLiteral("BIG")) + 8;
            drawBadge(painter, QRect(right - badgeWidth, opt.rect.top() + 3, badgeWidth, opt.rect.height() - 6),
                      QStringLiteral("BIG"), overlay::bigKey());
            right -= badgeWidth + 4;
        }
        if (libraryStarts) {
            const int badgeWidth = int(opt.fontMetrics.horizontalAdvance(library) * 0.8) + 10;
            drawBadge(painter, QRect(right - badgeWidth, opt.rect.top() + 3, badgeWidth, opt.rect.height() - 6),
                      library, overlay::library());
        }
        return;
    }
    QStyledItemDelegate::paint(painter, option, index);
}

QSize KeyTreeDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    if (index.column() == KeyTreeModel::NameColumn)
        size.rwidth() += option.fontMetrics.horizontalAdvance(QStringLiteral("BIG")) + 12;
    size.setHeight(std::max(size.height(), option.fontMetrics.height() + 6));
    return size;
}

void setUpKeyTreeView(QTreeView& view)
{
    view.setItemDelegate(new KeyTreeDelegate(&view));
    view.setUniformRowHeights(true); // the view then never measures a million rows
    view.setSortingEnabled(true);
    view.setAlternatingRowColors(true);
    // A long name shows its distinctive end too (`…:session:8f2c`), the whole of it in the tooltip.
    view.setTextElideMode(Qt::ElideMiddle);
    view.setSelectionMode(QAbstractItemView::SingleSelection);
    QHeaderView* header = view.header();
    auto* arrows = new SortArrowStyle(QStyleFactory::create(QApplication::style()->name()));
    arrows->setParent(header);
    header->setStyle(arrows);
    header->setSortIndicator(models::TreeColumns::MemoryColumn, Qt::DescendingOrder);
    header->setStretchLastSection(true);
    header->setSectionsMovable(true);
    // The same widths in both trees, so that switching between them keeps every column in its place.
    header->resizeSection(models::TreeColumns::NameColumn, 220);
    header->resizeSection(models::TreeColumns::KeysColumn, 80);
    header->resizeSection(models::TreeColumns::MemoryColumn, 170); // the bar beside the figure, not under it
    header->resizeSection(models::TreeColumns::ShareColumn, 85);
    header->resizeSection(models::TreeColumns::TtlColumn, 120);
    header->resizeSection(models::TreeColumns::FindingsColumn, 95);
    header->resizeSection(models::TreeColumns::TypeColumn, 200);
}

} // namespace keylens::ui
