#include "ui/PatternView.h"

#include "models/PatternTreeModel.h"
#include "ui/KeyTreeDelegate.h"

#include <QHeaderView>

namespace keylens::ui {

using models::PatternTreeModel;

PatternView::PatternView(PatternTreeModel* model, QWidget* parent)
    : QTreeView(parent)
    , m_model(model)
{
    setModel(model);
    setUpKeyTreeView(*this);
    connect(selectionModel(), &QItemSelectionModel::currentChanged, this, &PatternView::announceCurrent);
    // A reset (the exact tree replaced the live one) keeps what was open and selected where it still is:
    // remembered by pattern text as the user opens and selects (at the reset the view has let go).
    connect(this, &QTreeView::expanded, this, [this](const QModelIndex& index) { remember(index, true); });
    connect(this, &QTreeView::collapsed, this, [this](const QModelIndex& index) { remember(index, false); });
    // The row of a pattern's members has a name and no figures: it spans the row, so that "26,299 members, biggest
    // first" is not cut to "26,299 me…est first" in the Name column of a narrow window.
    connect(model, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex& parent, int first, int last) {
        for (int row = first; row <= last; ++row)
            spanIfMembers(m_model->index(row, 0, parent));
    });
    connect(this, &QTreeView::expanded, this, [this](const QModelIndex& index) {
        if (const int rows = m_model->rowCount(index); rows > 0)
            spanIfMembers(m_model->index(rows - 1, 0, index)); // pinned last
    });
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        restoreState();
        announceCurrent(currentIndex());
    });
}

void PatternView::spanIfMembers(const QModelIndex& index)
{
    if (index.isValid() && m_model->kindOf(index) == PatternTreeModel::RowKind::Members)
        setFirstColumnSpanned(index.row(), index.parent(), true);
}

void PatternView::announceCurrent(const QModelIndex& current)
{
    // A pattern gone since the scan compared with is nothing of this scan's to show (as a vanished namespace).
    if (!current.isValid() || m_model->kindOf(current) == PatternTreeModel::RowKind::Gone) {
        Q_EMIT nothingSelected();
        return;
    }
    m_current = m_model->tree()->text(m_model->patternOf(current));
    switch (m_model->kindOf(current)) {
    case PatternTreeModel::RowKind::Gone:
        return;
    case PatternTreeModel::RowKind::Member:
        Q_EMIT nodeSelected(m_model->nodeOf(current));
        return;
    case PatternTreeModel::RowKind::Members:
    case PatternTreeModel::RowKind::Pattern: {
        const auto pattern = m_model->patternOf(current);
        const auto& members = m_model->tree()->members(pattern);
        if (members.size() == 1)
            Q_EMIT nodeSelected(members.front());
        else
            Q_EMIT patternSelected(pattern);
        return;
    }
    }
}

void PatternView::remember(const QModelIndex& index, bool expanded)
{
    if (m_model->kindOf(index) != PatternTreeModel::RowKind::Pattern || m_restoring)
        return;
    const QByteArray text = index.data(PatternTreeModel::PathRole).toByteArray();
    std::erase(m_expanded, text);
    if (expanded)
        m_expanded.push_back(text);
}

void PatternView::restoreState()
{
    if (!m_model->tree())
        return;
    m_restoring = true;
    // Parents were opened before their children: in this order each one's row exists when it is opened.
    for (const QByteArray& text : m_expanded) {
        if (const auto pattern = m_model->tree()->find(text))
            expand(m_model->indexOfPattern(*pattern));
    }
    m_restoring = false;
    if (!m_current.isEmpty() && !selectPattern(m_current))
        selectBiggest();
}

bool PatternView::selectPattern(const QByteArray& text)
{
    if (!m_model->tree())
        return false;
    const std::optional<patterns::PatternTree::PatternId> pattern = m_model->tree()->find(text);
    if (!pattern || *pattern == patterns::PatternTree::Root)
        return false;
    const QModelIndex index = m_model->indexOfPattern(*pattern);
    for (QModelIndex parent = index.parent(); parent.isValid(); parent = parent.parent())
        expand(parent);
    scrollTo(index);
    setCurrentIndex(index);
    return true;
}

void PatternView::selectBiggest()
{
    if (currentIndex().isValid() || m_model->rowCount() == 0)
        return;
    const QModelIndex first = m_model->index(0, 0);
    expand(first);
    setCurrentIndex(first);
}

} // namespace keylens::ui
