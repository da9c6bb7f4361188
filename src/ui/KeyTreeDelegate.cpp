#include "ui/KeyTreeDelegate.h"

#include "lint/LibraryLayouts.h"
#include "models/KeyTreeModel.h"
#include "ui/ColumnFitter.h"
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

// The item as the style draws it, from an option already filled (and changed: its text, its elide mode).
void drawItem(QPainter* painter, const QStyleOptionViewItem& option)
{
    QStyle* style = option.widget ? option.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &option, painter, option.widget);
}

// The width the style gives an item's text: its rect less a margin each side (QCommonStyle's SE_ItemViewItemText).
int textRoom(const QStyleOptionViewItem& option)
{
    QStyle* style = option.widget ? option.widget->style() : QApplication::style();
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, option.widget) + 1;
    return option.rect.width() - 2 * margin;
}

// Its text cut between its parts (see fitBetweenParts), then drawn.
void drawCutBetweenParts(QPainter* painter, QStyleOptionViewItem& option)
{
    option.text = fitBetweenParts(option.text, option.fontMetrics, textRoom(option));
    option.textElideMode = Qt::ElideRight; // the first part alone, if it is too wide
    drawItem(painter, option);
}

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
        drawItem(painter, opt);
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
        // In a column too narrow for both (a small window), the count wins: the tint still tells the severity.
        const int textWidth = opt.fontMetrics.horizontalAdvance(index.data().toString());
        if (5 + diameter + 4 + textWidth + 6 > opt.rect.width())
            return;
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
        // "76.3% · 4m 22s" reads from its start; its column is as wide as its cells unless the user narrowed it.
        drawCutBetweenParts(painter, opt);
        return;
    }

    if (index.column() == KeyTreeModel::WritesColumn) {
        // The last five minutes as a line left of the figure, scaled to the row's own peak: its shape says whether
        // the writes are steady, rising or a burst; the figure says how many.
        const QString text = opt.text;
        opt.text.clear();
        drawItem(painter, opt);
        const QList<float> history = index.data(KeyTreeModel::WriteHistoryRole).value<QList<float>>();
        const float peak = history.isEmpty() ? 0.0f : *std::max_element(history.begin(), history.end());
        const int textWidth = opt.fontMetrics.horizontalAdvance(text);
        const QRect line = opt.rect.adjusted(3, 4, -(textWidth + 10), -4);
        if (peak > 0 && line.width() >= 20 && history.size() > 1) {
            QPolygonF points;
            for (qsizetype i = 0; i < history.size(); ++i)
                points << QPointF(line.left() + double(line.width()) * double(i) / double(history.size() - 1),
                                  line.bottom() - double(line.height()) * double(history[i] / peak));
            painter->save();
            painter->setRenderHint(QPainter::Antialiasing);
            QColor ink = (opt.state & QStyle::State_Selected) ? opt.palette.color(QPalette::HighlightedText)
                                                              : overlay::writes(opt.palette);
            painter->setPen(QPen(ink, 1.3));
            painter->drawPolyline(points);
            painter->restore();
        }
        painter->setPen(
            opt.palette.color((opt.state & QStyle::State_Selected) ? QPalette::HighlightedText : QPalette::Text));
        painter->drawText(opt.rect.adjusted(0, 0, -4, 0), Qt::AlignRight | Qt::AlignVCenter, text);
        return;
    }

    if (index.column() == KeyTreeModel::ColdColumn) {
        // The more of the row's memory is cold, the icier the cell: a namespace that is all cold stands out.
        const QVariant share = index.data(KeyTreeModel::ColdShareRole);
        if (share.isValid() && share.toDouble() > 0 && !(opt.state & QStyle::State_Selected)) {
            QColor tint = overlay::cold();
            tint.setAlphaF(float(0.12 + 0.33 * std::clamp(share.toDouble(), 0.0, 1.0)));
            painter->fillRect(opt.rect, tint);
        }
        drawCutBetweenParts(painter, opt);
        return;
    }

    if (index.column() == KeyTreeModel::NameColumn) {
        // The library whose layout a subtree is, on the row where it starts (not on each of its keys).
        const QString library = index.data(KeyTreeModel::LibraryRole).toString();
        const bool libraryStarts =
            !library.isEmpty() && index.parent().data(KeyTreeModel::LibraryRole).toString() != library;
        const bool keyAndNamespace = overlays & KeyTreeModel::KeyAndNamespace;
        if (!(overlays & KeyTreeModel::BigKey) && !libraryStarts && !keyAndNamespace) {
            QStyledItemDelegate::paint(painter, option, index);
            return;
        }
        // The badges sit at the right and the name is elided short of them, so they never cover it. The
        // library's badge is left out when the column is too narrow for it and some of the name.
        const int bigWidth =
            overlays & KeyTreeModel::BigKey ? opt.fontMetrics.horizontalAdvance(QStringLiteral("BIG")) + 8 : 0;
        // A namespace that is a key too says so: its value is one tab of the details pane.
        const int keyWidth = keyAndNamespace ? opt.fontMetrics.horizontalAdvance(QStringLiteral("KEY")) + 8 : 0;
        // The badge says what the library's keys are for beside its name: `bullmq · queue`, `django-cache · cache`.
        const lint::LibraryInfo* info = libraryStarts ? lint::findLibrary(library.toLatin1()) : nullptr;
        const QString badge =
            info ? library + QStringLiteral(" · ") + QString::fromLatin1(lint::roleName(info->role)) : library;
        int libraryWidth = libraryStarts ? int(opt.fontMetrics.horizontalAdvance(badge) * 0.8) + 10 : 0;
        const int nameRoom = opt.fontMetrics.horizontalAdvance(QStringLiteral("session")) + 8;
        if (opt.rect.width() < bigWidth + keyWidth + libraryWidth + nameRoom)
            libraryWidth = 0;
        const int badges =
            (bigWidth ? bigWidth + 4 : 0) + (keyWidth ? keyWidth + 4 : 0) + (libraryWidth ? libraryWidth + 4 : 0);
        const int textRoom = std::max(0, opt.rect.width() - badges - 8);
        if (opt.fontMetrics.horizontalAdvance(opt.text) > textRoom)
            opt.text = opt.fontMetrics.elidedText(opt.text, Qt::ElideMiddle, textRoom);
        drawItem(painter, opt);
        int right = opt.rect.right() - 2;
        if (bigWidth) {
            drawBadge(painter, QRect(right - bigWidth, opt.rect.top() + 3, bigWidth, opt.rect.height() - 6),
                      QStringLiteral("BIG"), overlay::bigKey());
            right -= bigWidth + 4;
        }
        if (keyWidth) {
            drawBadge(painter, QRect(right - keyWidth, opt.rect.top() + 3, keyWidth, opt.rect.height() - 6),
                      QStringLiteral("KEY"), overlay::keyAndNamespace());
            right -= keyWidth + 4;
        }
        if (libraryWidth) {
            drawBadge(painter, QRect(right - libraryWidth, opt.rect.top() + 3, libraryWidth, opt.rect.height() - 6),
                      badge, overlay::library());
        }
        return;
    }
    if (KeyTreeModel::isDeltaColumn(index.column())) {
        // Growth in red, shrinkage in green, no change faint: what moved stands out (selected rows keep the
        // selection's text colour).
        const int sign = index.data(KeyTreeModel::DeltaSignRole).toInt();
        if (!(opt.state & QStyle::State_Selected))
            opt.palette.setColor(QPalette::Text, sign > 0   ? overlay::growth(opt.palette)
                                                 : sign < 0 ? overlay::shrinkage(opt.palette)
                                                            : overlay::expired(opt.palette));
        drawItem(painter, opt);
        return;
    }
    if (index.column() == KeyTreeModel::TypeColumn) {
        // The type mix reads from its biggest share ("hash 71% · string 29%"), cut between types: "string 1…" said a
        // share that was not there.
        drawCutBetweenParts(painter, opt);
        return;
    }
    QStyledItemDelegate::paint(painter, option, index);
}

QString fitBetweenParts(const QString& text, const QFontMetrics& metrics, int width)
{
    if (metrics.horizontalAdvance(text) <= width)
        return text;
    static const QString separator = QStringLiteral(" · ");
    const QStringList parts = text.split(separator);
    const QString more = separator + QStringLiteral("…");
    QString fitted = parts.front();
    for (qsizetype i = 1; i < parts.size(); ++i) {
        const QString longer = fitted + separator + parts[i];
        // The last part need not leave room for "…" after it.
        if (metrics.horizontalAdvance(i + 1 == parts.size() ? longer : longer + more) > width)
            break;
        fitted = longer;
    }
    if (fitted.size() == text.size())
        return fitted;
    // The first part alone when "…" has no room after it (the tooltip has the rest).
    return metrics.horizontalAdvance(fitted + more) <= width ? fitted + more : fitted;
}

QSize KeyTreeDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    if (index.column() == KeyTreeModel::NameColumn)
        size.rwidth() += option.fontMetrics.horizontalAdvance(QStringLiteral("BIG")) + 12;
    size.setHeight(std::max(size.height(), option.fontMetrics.height() + 6));
    return size;
}

void showDeltaColumns(QTreeView& view, bool shown)
{
    using models::TreeColumns;
    QHeaderView* header = view.header();
    header->setSectionHidden(TreeColumns::DeltaKeysColumn, !shown);
    header->setSectionHidden(TreeColumns::DeltaMemoryColumn, !shown);
    // Beside Memory, where the eye already is: at 800 px the columns after it scroll out of sight, and while comparing
    // the change is what is looked for.
    if (shown) {
        for (const int column : {TreeColumns::DeltaMemoryColumn, TreeColumns::DeltaKeysColumn}) {
            const int after = header->visualIndex(TreeColumns::MemoryColumn) + 1;
            if (header->visualIndex(column) != after)
                header->moveSection(header->visualIndex(column), after);
        }
    }
    if (auto* fitter = view.findChild<ColumnFitter*>(QString(), Qt::FindDirectChildrenOnly))
        fitter->fit();
}

void showWritesColumn(QTreeView& view, bool shown)
{
    using models::TreeColumns;
    QHeaderView* header = view.header();
    if (header->isSectionHidden(TreeColumns::WritesColumn) == !shown)
        return;
    header->setSectionHidden(TreeColumns::WritesColumn, !shown);
    // Beside Keys: which namespaces are written, and how many keys they have, read together.
    if (shown) {
        const int after = header->visualIndex(TreeColumns::KeysColumn) + 1;
        if (header->visualIndex(TreeColumns::WritesColumn) != after)
            header->moveSection(header->visualIndex(TreeColumns::WritesColumn), after);
    }
    if (auto* fitter = view.findChild<ColumnFitter*>(QString(), Qt::FindDirectChildrenOnly))
        fitter->fit();
}

ColumnFitter* setUpKeyTreeView(QTreeView& view)
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
    header->setSectionsMovable(true);
    // Before any column is hidden: QHeaderView keeps a section hidden while the last one stretches at its old width
    // in its length (the three hidden columns made the tree 300 px wider than its columns, scrolling sideways at 1600
    // px). The fitter sizes every column itself.
    header->setStretchLastSection(false);
    showDeltaColumns(view, false);
    header->setSectionHidden(models::TreeColumns::WritesColumn, true);
    // Cold memory beside the TTLs: both say whether a namespace's keys are still needed.
    header->moveSection(header->visualIndex(models::TreeColumns::ColdColumn),
                        header->visualIndex(models::TreeColumns::TtlColumn) + 1);
    // The same widths in both trees, so that switching between them keeps every column in its place, unless their
    // figures need more (`whole`: never cut, "26,299 of 26,582" under a filter, "100.0% · some expired"). The name
    // takes the space there is and gives way first; the type gives way last, as it says what a namespace holds.
    // Where the least widths do not fit (800 px: the details pane keeps 300), the name and the memory bar narrow
    // further, and then whole columns go rather than any being cut at the edge: the type (the details say it), then
    // the TTLs (details, charts), then the findings (the Findings panel), then the writes; Keys, Memory and, while
    // comparing, the Δ columns stay.
    using models::TreeColumns;
    constexpr bool Whole = true;
    return new ColumnFitter(
        &view, TreeColumns::NameColumn,
        {{TreeColumns::NameColumn, 220, 150, false, 0, 120},
         {TreeColumns::ShareColumn, 85, 0, Whole}, // the memory bar's length says it too
         // Details and the treemap's colouring say it too; hidden while there is no room.
         {TreeColumns::ColdColumn, 125, 0, Whole},
         // The number and a line of the last five minutes.
         {TreeColumns::WritesColumn, 130, 90, Whole, 4},
         {TreeColumns::FindingsColumn, 95, 56, Whole, 3},
         {TreeColumns::KeysColumn, 80, 56, Whole},
         {TreeColumns::TtlColumn, 120, 80, Whole, 2},
         {TreeColumns::MemoryColumn, 170, 116, Whole, 0, 96}, // the bar beside the figure, not under it
         {TreeColumns::TypeColumn, 200, 90, false, 1},        // cut between its types, see paint()
         // Shown while the window compares with an earlier scan, and then they matter most:
         // as wide as their figures ("new +26,300", "−371 KiB").
         {TreeColumns::DeltaKeysColumn, 110, 50, Whole},
         {TreeColumns::DeltaMemoryColumn, 110, 60, Whole}});
}

} // namespace keylens::ui
