#include "ui/ColumnFitter.h"

#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>
#include <QTreeView>

#include <algorithm>

namespace keylens::ui {

namespace {

constexpr int ContentSlack = 4;

} // namespace

ColumnFitter::ColumnFitter(QTreeView* view, int fillingColumn, std::vector<Column> columns)
    : QObject(view)
    , m_view(view)
    , m_filling(fillingColumn)
{
    for (const Column& column : columns)
        m_columns.push_back({column});
    QHeaderView* header = view->header();
    header->setStretchLastSection(false);
    m_viewport = view->viewport();
    m_viewport->installEventFilter(this);
    connect(header, &QHeaderView::sectionResized, this, [this](int logicalIndex, int oldSize, int newSize) {
        if (m_fitting)
            return;
        if (oldSize == 0 || newSize == 0) {
            // Shown or hidden (the Δ columns while comparing, Writes while live), not sized by the user: taken as the
            // user's, the Δ columns kept the header's 100 px default and pushed the tree past its edge at 800 px.
            fit();
            return;
        }
        for (Fitted& fitted : m_columns) {
            if (fitted.column.logicalIndex == logicalIndex)
                takeUserWidth(fitted, newSize);
        }
        fit();
    });
    // The cells on screen change with the rows (a publish every 100 ms during a scan), what is scrolled to and what is
    // open: measured once they settle, not on each.
    m_contentCheck.setSingleShot(true);
    m_contentCheck.setInterval(150);
    connect(&m_contentCheck, &QTimer::timeout, this, &ColumnFitter::measureContent);
    if (QAbstractItemModel* model = view->model()) {
        connect(model, &QAbstractItemModel::modelReset, this, [this] {
            for (Fitted& fitted : m_columns)
                fitted.content = 0; // a new scan or filter: its own figures
            contentMayHaveChanged();
        });
        connect(model, &QAbstractItemModel::dataChanged, this, &ColumnFitter::contentMayHaveChanged);
        connect(model, &QAbstractItemModel::rowsInserted, this, &ColumnFitter::contentMayHaveChanged);
        connect(model, &QAbstractItemModel::layoutChanged, this, &ColumnFitter::contentMayHaveChanged);
    }
    connect(view, &QTreeView::expanded, this, &ColumnFitter::contentMayHaveChanged);
    connect(view->verticalScrollBar(), &QScrollBar::valueChanged, this, &ColumnFitter::contentMayHaveChanged);
    // Some cells change with the clock and no signal: a TTL counts down, a namespace's soonest expiry passes ("100.0% ·
    // some expired" came a minute after the scan, cut in a column measured for "100.0% · 59s").
    m_clockCheck.setInterval(1000);
    connect(&m_clockCheck, &QTimer::timeout, this, [this] {
        if (m_viewport->isVisible())
            measureContent();
    });
    m_clockCheck.start();
    fit();
}

void ColumnFitter::contentMayHaveChanged()
{
    if (!m_contentCheck.isActive())
        m_contentCheck.start();
}

void ColumnFitter::measureContent()
{
    QHeaderView* header = m_view->header();
    std::vector<int> widest(m_columns.size(), 0);
    bool any = false;
    for (std::size_t i = 0; i < m_columns.size(); ++i)
        any = any || (m_columns[i].column.whole && !header->isSectionHidden(m_columns[i].column.logicalIndex));
    if (!any || !m_view->model())
        return;
    // The rows on screen, top to bottom (tens of them: a size hint each, as the view's paint asks for their text).
    const int bottom = m_viewport->height();
    for (QModelIndex row = m_view->indexAt(QPoint(0, 0)); row.isValid(); row = m_view->indexBelow(row)) {
        if (m_view->visualRect(row).top() >= bottom)
            break;
        for (std::size_t i = 0; i < m_columns.size(); ++i) {
            const Fitted& fitted = m_columns[i];
            if (!fitted.column.whole || header->isSectionHidden(fitted.column.logicalIndex))
                continue;
            if (m_view->isFirstColumnSpanned(row.row(), row.parent()))
                continue; // a row with a name only (a pattern's "N members")
            const QModelIndex cell = row.siblingAtColumn(fitted.column.logicalIndex);
            // A little beyond the style's own margins: a cell painted over a bar or beside a dot keeps its figure.
            widest[i] = std::max(widest[i], m_view->sizeHintForIndex(cell).width() + ContentSlack);
        }
    }
    bool widened = false;
    for (std::size_t i = 0; i < m_columns.size(); ++i) {
        if (widest[i] > m_columns[i].content) {
            m_columns[i].content = widest[i];
            widened = widened || !m_columns[i].userSized;
        }
    }
    if (widened)
        fit();
}

int ColumnFitter::preferredOf(const Fitted& fitted)
{
    return fitted.userSized ? fitted.column.preferred : std::max(fitted.column.preferred, fitted.content);
}

int ColumnFitter::minimumOf(const Fitted& fitted)
{
    // One that may go (0) still goes whole; shown, it has its preferred width, its content's at least.
    if (fitted.userSized || fitted.column.minimum == 0)
        return fitted.column.minimum;
    return std::max(fitted.column.minimum, fitted.content);
}

void ColumnFitter::takeUserWidth(Fitted& fitted, int width) const
{
    fitted.column.minimum = width;
    fitted.column.preferred =
        fitted.column.logicalIndex == m_filling ? std::max(fitted.column.preferred, width) : width;
    fitted.userSized = true;
}

QVariantMap ColumnFitter::userWidths() const
{
    QVariantMap widths;
    for (const Fitted& fitted : m_columns) {
        if (fitted.userSized)
            widths.insert(QString::number(fitted.column.logicalIndex), fitted.column.minimum);
    }
    return widths;
}

void ColumnFitter::setUserWidths(const QVariantMap& widths)
{
    for (Fitted& fitted : m_columns) {
        const int width = widths.value(QString::number(fitted.column.logicalIndex)).toInt();
        if (width > 0)
            takeUserWidth(fitted, width);
    }
    fit();
}

void ColumnFitter::restoreHeaderState(const QByteArray& state)
{
    m_fitting = true;
    m_view->header()->restoreState(state);
    m_view->header()->setStretchLastSection(false);
    m_fitting = false;
    fit();
}

bool ColumnFitter::eventFilter(QObject* watched, QEvent* event)
{
    // The viewport as it was when watched: while the view is destroyed its viewport still sends events, and the
    // view is no longer a scroll area to ask for it.
    if (event->type() == QEvent::Resize && watched == m_viewport)
        fit();
    return QObject::eventFilter(watched, event);
}

void ColumnFitter::fit()
{
    QHeaderView* header = m_view->header();
    std::vector<int> widths;
    int wanted = 0;
    for (const Fitted& fitted : m_columns) {
        const bool shown = fitted.hiddenHere || !header->isSectionHidden(fitted.column.logicalIndex);
        widths.push_back(shown ? preferredOf(fitted) : 0);
        wanted += widths.back();
    }
    // Where even the least widths do not fit, the columns that can be squeezed go down to their last resort, and
    // then the ranked columns go whole, lowest rank first, until they do.
    const int room = m_viewport->width();
    std::vector<int> minimums;
    int least = 0;
    std::vector<std::size_t> ranked;
    for (std::size_t i = 0; i < m_columns.size(); ++i) {
        minimums.push_back(minimumOf(m_columns[i]));
        least += widths[i] == 0 ? 0 : minimums[i];
        if (widths[i] > 0 && m_columns[i].column.hideRank > 0)
            ranked.push_back(i);
    }
    for (std::size_t i = 0; i < m_columns.size() && least > room; ++i) {
        const Fitted& fitted = m_columns[i];
        if (widths[i] == 0 || fitted.userSized || fitted.column.lastResort <= 0)
            continue;
        const int squeezed = std::min(minimums[i], std::max(fitted.column.lastResort, fitted.content));
        least -= minimums[i] - squeezed;
        minimums[i] = squeezed;
    }
    std::stable_sort(ranked.begin(), ranked.end(), [this](std::size_t a, std::size_t b) {
        return m_columns[a].column.hideRank < m_columns[b].column.hideRank;
    });
    for (const std::size_t i : ranked) {
        if (least <= room)
            break;
        least -= minimums[i];
        wanted -= widths[i];
        widths[i] = 0;
        m_columns[i].hiddenHere = true;
    }
    // Give way in order until the columns fit, or every one is down to its least width.
    int excess = wanted - room;
    for (std::size_t i = 0; i < m_columns.size() && excess > 0; ++i) {
        if (widths[i] == 0)
            continue;
        // A column that may go goes whole: a sliver of it would say nothing.
        const int minimum = minimums[i];
        const int give = minimum == 0 ? widths[i] : std::min(excess, widths[i] - std::min(widths[i], minimum));
        widths[i] -= give;
        excess -= give;
        if (widths[i] == 0)
            m_columns[i].hiddenHere = true;
    }
    m_fitting = true;
    for (std::size_t i = 0; i < m_columns.size(); ++i) {
        Fitted& fitted = m_columns[i];
        int width = widths[i];
        if (fitted.hiddenHere) {
            // Hidden here, or shown again now that there is room.
            header->setSectionHidden(fitted.column.logicalIndex, width == 0);
            fitted.hiddenHere = width == 0;
        }
        if (width == 0)
            continue;
        // What is left over goes to the filling column.
        if (fitted.column.logicalIndex == m_filling && excess < 0)
            width -= excess;
        if (header->sectionSize(fitted.column.logicalIndex) != width)
            header->resizeSection(fitted.column.logicalIndex, width);
    }
    m_fitting = false;
}

} // namespace keylens::ui
