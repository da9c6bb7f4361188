#include "ui/ColumnFitter.h"

#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>
#include <QTreeView>

#include <algorithm>

namespace keylens::ui {

ColumnFitter::ColumnFitter(QTreeView* view, int fillingColumn, std::vector<Column> columns)
    : QObject(view)
    , m_view(view)
    , m_filling(fillingColumn)
    , m_columns(std::move(columns))
    , m_hiddenHere(m_columns.size(), false)
    , m_userSized(m_columns.size(), false)
{
    QHeaderView* header = view->header();
    header->setStretchLastSection(false);
    m_viewport = view->viewport();
    m_viewport->installEventFilter(this);
    connect(header, &QHeaderView::sectionResized, this, [this](int logicalIndex, int, int newSize) {
        if (m_fitting)
            return;
        // The user's width: what the column wants and needs from now on (the filling column may still grow).
        for (std::size_t i = 0; i < m_columns.size(); ++i) {
            if (m_columns[i].logicalIndex != logicalIndex)
                continue;
            m_columns[i].minimum = newSize;
            m_columns[i].preferred = std::max(m_columns[i].preferred, newSize);
            if (logicalIndex != m_filling)
                m_columns[i].preferred = newSize;
            m_userSized[i] = true;
        }
        fit();
    });
    fit();
}

QVariantMap ColumnFitter::userWidths() const
{
    QVariantMap widths;
    for (std::size_t i = 0; i < m_columns.size(); ++i) {
        if (m_userSized[i])
            widths.insert(QString::number(m_columns[i].logicalIndex), m_columns[i].minimum);
    }
    return widths;
}

void ColumnFitter::setUserWidths(const QVariantMap& widths)
{
    for (std::size_t i = 0; i < m_columns.size(); ++i) {
        const QVariant width = widths.value(QString::number(m_columns[i].logicalIndex));
        if (!width.isValid() || width.toInt() <= 0)
            continue;
        m_columns[i].minimum = width.toInt();
        m_columns[i].preferred =
            m_columns[i].logicalIndex == m_filling ? std::max(m_columns[i].preferred, width.toInt()) : width.toInt();
        m_userSized[i] = true;
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
    for (std::size_t i = 0; i < m_columns.size(); ++i) {
        const bool shown = m_hiddenHere[i] || !header->isSectionHidden(m_columns[i].logicalIndex);
        widths.push_back(shown ? m_columns[i].preferred : 0);
        wanted += widths.back();
    }
    const int available = m_view->viewport()->width();
    // Give way in order until the columns fit, or every one is down to its least width.
    int excess = wanted - available;
    for (std::size_t i = 0; i < m_columns.size() && excess > 0; ++i) {
        if (widths[i] == 0)
            continue;
        // A column that may go goes whole: a sliver of it would say nothing.
        const int give = m_columns[i].minimum == 0
                             ? widths[i]
                             : std::min(excess, widths[i] - std::min(widths[i], m_columns[i].minimum));
        widths[i] -= give;
        excess -= give;
        if (widths[i] == 0)
            m_hiddenHere[i] = true;
    }
    m_fitting = true;
    for (std::size_t i = 0; i < m_columns.size(); ++i) {
        int width = widths[i];
        if (m_hiddenHere[i]) {
            // Hidden here, or shown again now that there is room.
            header->setSectionHidden(m_columns[i].logicalIndex, width == 0);
            m_hiddenHere[i] = width == 0;
        }
        if (width == 0)
            continue;
        // What is left over goes to the filling column.
        if (m_columns[i].logicalIndex == m_filling && excess < 0)
            width -= excess;
        if (header->sectionSize(m_columns[i].logicalIndex) != width)
            header->resizeSection(m_columns[i].logicalIndex, width);
    }
    m_fitting = false;
}

} // namespace keylens::ui
