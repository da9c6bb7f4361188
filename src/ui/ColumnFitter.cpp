#include "ui/ColumnFitter.h"

#include <QEvent>
#include <QHeaderView>
#include <QTreeView>

#include <algorithm>

namespace keylens::ui {

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
    connect(header, &QHeaderView::sectionResized, this, [this](int logicalIndex, int, int newSize) {
        if (m_fitting)
            return;
        for (Fitted& fitted : m_columns) {
            if (fitted.column.logicalIndex == logicalIndex)
                takeUserWidth(fitted, newSize);
        }
        fit();
    });
    fit();
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
        widths.push_back(shown ? fitted.column.preferred : 0);
        wanted += widths.back();
    }
    // Give way in order until the columns fit, or every one is down to its least width.
    int excess = wanted - m_viewport->width();
    for (std::size_t i = 0; i < m_columns.size() && excess > 0; ++i) {
        if (widths[i] == 0)
            continue;
        // A column that may go goes whole: a sliver of it would say nothing.
        const int minimum = m_columns[i].column.minimum;
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
