#include "ui/TreeViewState.h"

#include "models/KeyTreeModel.h"

#include <QTreeView>

namespace keylens::ui {

namespace {
// A parent with more rows than this is an id level; nobody keeps rows of it expanded one by one.
constexpr int MaxRowsLookedAt = 10'000;
} // namespace

void TreeViewState::clear()
{
    m_expanded.clear();
    m_current.reset();
    m_hadExpanded = false;
}

void TreeViewState::add(const TreeViewState& other)
{
    m_expanded.insert(m_expanded.end(), other.m_expanded.begin(), other.m_expanded.end());
    if (!m_current)
        m_current = other.m_current;
    m_hadExpanded = m_hadExpanded || other.m_hadExpanded;
}

void TreeViewState::capture(const QTreeView& tree, const models::KeyTreeModel& model)
{
    clear();
    std::vector<QModelIndex> stack{QModelIndex()};
    while (!stack.empty()) {
        const QModelIndex parent = stack.back();
        stack.pop_back();
        if (parent.isValid())
            m_expanded.push_back(model.pathOf(parent));
        // Only look inside what is expanded: a collapsed parent's children were never materialised.
        const int rows = model.rowCount(parent);
        for (int row = 0; row < rows && row < MaxRowsLookedAt; ++row) {
            const QModelIndex child = model.index(row, 0, parent);
            if (tree.isExpanded(child))
                stack.push_back(child);
        }
    }
    m_hadExpanded = !m_expanded.empty();
    if (const QModelIndex current = tree.currentIndex(); current.isValid())
        m_current = model.pathOf(current);
}

void TreeViewState::reapply(QTreeView& tree, models::KeyTreeModel& model)
{
    if (!isPending())
        return;
    std::erase_if(m_expanded, [&](const QByteArray& path) {
        const QModelIndex index = model.indexOfPath(path, true);
        if (!index.isValid())
            return false; // not here yet, filtered out, or not published yet
        tree.expand(index);
        return true;
    });
    if (m_current) {
        const QModelIndex index = model.indexOfPath(*m_current);
        if (index.isValid()) {
            tree.setCurrentIndex(index);
            tree.scrollTo(index);
            m_current.reset();
        }
    }
}

} // namespace keylens::ui
