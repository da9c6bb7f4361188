#pragma once

#include "keyspace/SubtreeTotals.h"
#include "models/NodeRef.h"
#include "models/RowDelta.h"
#include "models/TreemapLayout.h"
#include "patterns/PatternTree.h"

#include <QWidget>

#include <functional>
#include <vector>

namespace keylens::models {
class KeyspaceView;
class PatternTreeModel;
} // namespace keylens::models

namespace keylens::ui {

// The treemap of memory by namespace (a QPainter widget), as models::TreemapLayout lays it out: each tile's area is
// its subtree's share of the shown node's memory.
//
// Clicking a tile selects its node (nodeActivated: the window selects it in the tree); double-clicking a
// namespace drills down into it; Back (or the mouse's back button) goes up again. Tiles are coloured by
// their top-level namespace, or by the worst lint finding in them.
class TreemapView : public QWidget
{
    Q_OBJECT
public:
    // Growth: against the scan compared with (setComparison), red for more memory, green for less.
    // Cold: the share of the tile's memory idle past the cold threshold, from a warm grey (all read) to ice.
    enum class Colouring { TopLevel, WorstFinding, Cold, Growth };
    using Tile = models::TreemapLayout::Tile;
    static constexpr std::size_t MaxChildren = models::TreemapLayout::MaxChildren;

    // Of the session's store, whichever it is: a new one (a rescan) resets the map to the whole keyspace.
    explicit TreemapView(const models::KeyspaceView& keyspace, QWidget* parent = nullptr);

    bool hasStore() const;
    // Tiles of patterns instead of namespaces (their ids in Tile::node), or of namespaces again (nullptr).
    void setPatterns(const models::PatternTreeModel* patterns);
    bool showsPatterns() const;
    // The node (or pattern) whose children fill the map: an id of the tree shown, the store's or the patterns'.
    void setShownNode(std::uint32_t node);
    std::uint32_t shownNode() const { return m_shown; }
    // What the map shows, for its header: "All keys", `cache:*` or a pattern, and its totals.
    QString shownName() const;
    keyspace::SubtreeTotals shownTotals() const;
    void back();                            // up one level
    void setSelected(models::NodeRef node); // outlined, when it has a tile
    void setColouring(Colouring colouring);
    Colouring colouring() const { return m_colouring; }
    // A tile's figures against the scan the window compares with, for the Growth colouring (by the id of the tree
    // shown: a store node or a pattern); empty while the window does not compare.
    using DeltaOf = std::function<models::RowDelta(std::uint32_t id)>;
    void setGrowth(DeltaOf deltaOf);
    // A tile's colour, for tests: what paint fills it with.
    QColor colourOf(const Tile& tile) const;
    // The store grew or its findings changed: lays out again at the next paint.
    void invalidate();

    const std::vector<Tile>& tiles(); // laid out if needed
    const Tile* tileAt(QPointF point);
    // Milliseconds of work the last layout took, over all its slices, and in its longest slice.
    double lastLayoutMs() const;
    double longestSliceMs() const;
    bool isLayingOut() const;

Q_SIGNALS:
    void nodeActivated(keylens::models::NodeRef node);
    void patternActivated(keylens::patterns::PatternTree::PatternId pattern);
    void shownNodeChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    void startLayout();
    void reset(); // the whole keyspace again, nothing selected
    QColor growthColourOf(const Tile& tile) const;
    QString labelOf(std::uint32_t id) const;

    const models::KeyspaceView& m_keyspace;
    models::TreemapLayout* m_layout;
    // Ids of the tree shown (the store's nodes, of its current generation, or the patterns'): the map is reset when
    // either tree is replaced.
    std::uint32_t m_shown = keyspace::RootNode;
    std::uint32_t m_selected = keyspace::InvalidNode;
    Colouring m_colouring = Colouring::TopLevel;
    DeltaOf m_deltaOf;
    bool m_dirty = true; // laid out again at the next paint
};

} // namespace keylens::ui
