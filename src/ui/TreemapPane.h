#pragma once

#include "models/RowDelta.h"

#include <QElapsedTimer>
#include <QWidget>

#include <functional>

class QComboBox;
class QLabel;
class QToolButton;

namespace keylens::models {
class KeyspaceView;
}

namespace keylens::ui {

class TreemapView;

// The Treemap tab: the map, a Back button, where it is, and what the colours mean.
class TreemapPane : public QWidget
{
    Q_OBJECT
public:
    explicit TreemapPane(const models::KeyspaceView& keyspace, QWidget* parent = nullptr);

    TreemapView* view() const { return m_view; }
    // The store grew (at most once a second while shown) or its findings changed.
    void refresh(bool force = false);
    // The window compares with an earlier scan (see TreemapView::setGrowth; empty: it stops): the growth colouring
    // is offered, and chosen.
    void setGrowth(std::function<models::RowDelta(std::uint32_t id)> deltaOf);

private:
    void updateHeader();

    const models::KeyspaceView& m_keyspace;
    TreemapView* m_view;
    QToolButton* m_back;
    QLabel* m_where;
    QComboBox* m_colouring;
    QElapsedTimer m_sinceLayout;
};

} // namespace keylens::ui
