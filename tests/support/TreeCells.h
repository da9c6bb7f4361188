#pragma once

#include "models/RowPresenter.h"
#include "ui/KeyTreeDelegate.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QStringList>
#include <QStyle>
#include <QTreeView>

namespace keylens::test {

// Every cell on screen of a key tree's figures: as wide as its text asks at most (the delegate's size hint, which is
// the style's margins and the text); the cells cut between their parts (types) keep whole parts. What is cut, as
// "text (width px)"; empty when nothing is.
inline QStringList cutCells(QTreeView* view)
{
    using models::TreeColumns;
    QStringList cut;
    QHeaderView* header = view->header();
    const int bottom = view->viewport()->height();
    const int margin = view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1;
    for (QModelIndex row = view->indexAt(QPoint(0, 0)); row.isValid(); row = view->indexBelow(row)) {
        if (view->visualRect(row).top() >= bottom)
            break;
        if (view->isFirstColumnSpanned(row.row(), row.parent()))
            continue;
        for (int column = 1; column < header->count(); ++column) {
            if (header->isSectionHidden(column))
                continue;
            const QModelIndex cell = row.siblingAtColumn(column);
            const QString text = cell.data().toString();
            if (text.isEmpty())
                continue;
            const int width = header->sectionSize(column);
            if (column == TreeColumns::TypeColumn) {
                // What the delegate paints: whole types, "…" for the rest.
                const QString shown = ui::fitBetweenParts(text, view->fontMetrics(), width - 2 * margin);
                QStringList parts = shown.split(QStringLiteral(" · "));
                if (parts.back() == QStringLiteral("…"))
                    parts.removeLast();
                const QStringList whole = text.split(QStringLiteral(" · "));
                for (const QString& part : parts) {
                    if (!whole.contains(part))
                        cut << QStringLiteral("%1 as %2").arg(text, shown);
                }
                continue;
            }
            if (view->sizeHintForIndex(cell).width() > width)
                cut << QStringLiteral("%1 (%2 px)").arg(text).arg(width);
        }
    }
    return cut;
}

// The shown columns of a tree that end past its viewport's right edge (the user scrolls sideways to read them, or
// reads "75," for "75,123"), as "Header: right edge > viewport width"; empty when every one is in sight.
inline QStringList columnsPastTheEdge(QTreeView* view)
{
    QStringList past;
    QHeaderView* header = view->header();
    const int room = view->viewport()->width();
    for (int column = 0; column < header->count(); ++column) {
        if (header->isSectionHidden(column))
            continue;
        const int right = header->sectionViewportPosition(column) + header->sectionSize(column);
        if (right > room || header->sectionViewportPosition(column) < 0)
            past << QStringLiteral("%1: %2..%3 > %4 px")
                        .arg(view->model()->headerData(column, Qt::Horizontal).toString())
                        .arg(header->sectionViewportPosition(column))
                        .arg(right)
                        .arg(room);
    }
    if (view->horizontalScrollBar()->maximum() > 0)
        past << QStringLiteral("scrolls sideways by %1 px").arg(view->horizontalScrollBar()->maximum());
    if (!past.isEmpty()) { // what each shown column was given
        QStringList widths;
        for (int visual = 0; visual < header->count(); ++visual) {
            const int column = header->logicalIndex(visual);
            if (!header->isSectionHidden(column))
                widths << QStringLiteral("%1 %2")
                              .arg(view->model()->headerData(column, Qt::Horizontal).toString())
                              .arg(header->sectionSize(column));
        }
        past << QStringLiteral("widths: ") + widths.join(QStringLiteral(", "));
    }
    return past;
}

} // namespace keylens::test
