#pragma once

#include <QObject>
#include <QTimer>
#include <QVariantMap>

#include <vector>

class QTreeView;

namespace keylens::ui {

// Fits a tree's columns to its width. Every column has the width it wants and the least it can live with; one
// column (the name) takes whatever is left over. When the view narrows, columns give way in a given order, each
// down to its least width. A column whose least width is 0 says what another shows too: it is hidden while there is
// no room for it. Where even the least widths do not fit, the columns that can be squeezed further go down to their
// last resort (`lastResort`: the name, elided in its middle; the memory bar), and then the columns with a rank
// (`hideRank`, 1 first) go whole, so that the others are in sight and whole: at 800 px the tree scrolled sideways and
// showed "75," of "75,123". Only when that is not enough does the view scroll sideways. A column the user resizes keeps
// the width given to it (the filling column: as its least); showing or hiding a column is not resizing it.
//
// A column of figures (`whole`) is never narrower than its widest cell on screen: a figure cut to "26,2…,582" says
// nothing. What the rows on screen need is measured a moment after they change (a publish, a scroll, an expansion)
// (and each second, for the cells that change with the clock) and only widens a column until the model resets (a new
// scan, a filter), so that scrolling does not make the columns jump.
class ColumnFitter : public QObject
{
    Q_OBJECT
public:
    struct Column
    {
        int logicalIndex;
        int preferred;
        int minimum;
        bool whole = false; // figures: at least as wide as its cells on screen (see above)
        int hideRank = 0;   // gone whole, in this order, where the least widths do not fit; 0: never
        int lastResort = 0; // a narrower least width, where the least widths do not fit; 0: none
    };

    // `columns` in the order they give way, the filling column first among them.
    ColumnFitter(QTreeView* view, int fillingColumn, std::vector<Column> columns);

    void fit();
    // The widest cell on screen of each whole column, measured now (fit() follows when one widened).
    void measureContent();

    // The widths the user gave columns, by logical index, to keep between sessions; and a header state restored
    // without its widths counting as the user's.
    QVariantMap userWidths() const;
    void setUserWidths(const QVariantMap& widths);
    void restoreHeaderState(const QByteArray& state);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Fitted
    {
        Column column;
        bool userSized = false;
        bool hiddenHere = false; // hidden by fit(), not by the user: shown again when there is room
        int content = 0;         // a whole column's widest cell so far (since the last reset)
    };
    // The user's width: what the column wants and needs from now on (the filling column may still grow).
    void takeUserWidth(Fitted& fitted, int width) const;
    static int preferredOf(const Fitted& fitted);
    static int minimumOf(const Fitted& fitted);
    void contentMayHaveChanged();

    QTreeView* m_view;
    QWidget* m_viewport;
    int m_filling;
    std::vector<Fitted> m_columns;
    bool m_fitting = false;
    QTimer m_contentCheck;
    QTimer m_clockCheck; // cells that change with time alone
};

} // namespace keylens::ui
