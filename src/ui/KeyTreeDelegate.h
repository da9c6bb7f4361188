#pragma once

#include <QStyledItemDelegate>

class QFontMetrics;
class QTreeView;

namespace keylens::ui {

// Makes a view of a key tree (the raw or the pattern model: they have the same columns) look and behave the
// same as the other: this delegate, the column widths, memory first and biggest first, one row selected.
// The columns are fitted to the view's width by the ColumnFitter it returns (the view owns it).
class ColumnFitter;
ColumnFitter* setUpKeyTreeView(QTreeView& view);
// The Δ Keys and Δ Memory columns, while the window compares with an earlier scan.
void showDeltaColumns(QTreeView& view, bool shown);
// The Writes/s column, shown while the tree follows the server live.
void showWritesColumn(QTreeView& view, bool shown);

// A cell of parts joined by " · " ("hash 71% · set 14% · list 11%", "76.3% · 4m 22s") cut between its parts to fit
// `width` ("hash 71% · set 14% · …"), never inside a figure; a first part too wide for it is elided as any text. The
// cell's tooltip says it whole.
QString fitBetweenParts(const QString& text, const QFontMetrics& metrics, int width);

// Draws the key tree's overlays from the model's roles (so it works on any model that gives them):
// the memory bar and its heat in the Memory column, a BIG badge beside big keys' names, and the TTL
// state as a tinted chip in the TTL column.
class KeyTreeDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace keylens::ui
