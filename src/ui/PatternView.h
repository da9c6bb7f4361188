#pragma once

#include "keyspace/NodeId.h"
#include "patterns/PatternTree.h"

#include <QTreeView>

#include <vector>

namespace keylens::models {
class PatternTreeModel;
}

namespace keylens::ui {

// The key tree folded on its ids: a tree view over a PatternTreeModel, with the raw tree's delegate and
// column layout. It tells the window what was selected: a store node (a member, or a pattern that stands
// for one node only) or a pattern of many.
class PatternView : public QTreeView
{
    Q_OBJECT
public:
    explicit PatternView(models::PatternTreeModel* model, QWidget* parent = nullptr);

    models::PatternTreeModel* patternModel() const { return m_model; }
    // Expands to and selects the pattern with that text (`user:<int>:profile`); false when none has it.
    bool selectPattern(const QByteArray& text);
    // Expands the biggest top-level pattern and selects it, unless the user chose something already.
    void selectBiggest();
    // Says again what is selected (the window shows this view again and its details follow it).
    void announceSelection() { announceCurrent(currentIndex()); }

Q_SIGNALS:
    void nodeSelected(keylens::keyspace::NodeId node);
    void patternSelected(keylens::patterns::PatternTree::PatternId pattern);
    void nothingSelected();

private:
    void announceCurrent(const QModelIndex& current);
    void spanIfMembers(const QModelIndex& index);
    // Across a reset (the exact tree replacing the live one at the end of a scan): what was open and
    // selected, by pattern text.
    void remember(const QModelIndex& index, bool expanded);
    void restoreState();

    models::PatternTreeModel* m_model;
    std::vector<QByteArray> m_expanded; // open patterns, in the order they were opened
    QByteArray m_current;               // the selected row's pattern
    bool m_restoring = false;
};

} // namespace keylens::ui
