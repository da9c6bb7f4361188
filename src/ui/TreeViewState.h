#pragma once

#include <QByteArray>

#include <optional>
#include <vector>

class QTreeView;

namespace keylens::models {
class KeyTreeModel;
}

namespace keylens::ui {

// What a person opened and selected in the key tree, remembered by path so that it survives what node
// ids do not: a rescan (F5) builds a new store, and a filter change resets the model.
//
// capture() walks only expanded rows, iteratively; reapply() expands and selects what exists by now and
// keeps the rest pending, so during a rescan it is called after every publish and the view comes back
// as the nodes arrive.
class TreeViewState
{
public:
    void capture(const QTreeView& tree, const models::KeyTreeModel& model);
    void reapply(QTreeView& tree, models::KeyTreeModel& model);

    // What `other` remembers too: its expanded rows after this one's, and its current row unless this has one.
    void add(const TreeViewState& other);

    bool isPending() const { return !m_expanded.empty() || m_current.has_value(); }
    bool hasExpanded() const { return m_hadExpanded; }
    void clear();

private:
    std::vector<QByteArray> m_expanded; // parents before their children
    std::optional<QByteArray> m_current;
    bool m_hadExpanded = false;
};

} // namespace keylens::ui
