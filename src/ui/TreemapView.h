#pragma once

#include "base/SlicedJob.h"
#include "keyspace/SubtreeTotals.h"
#include "models/NodeRef.h"
#include "patterns/PatternTree.h"

#include <QElapsedTimer>
#include <QWidget>

#include <deque>
#include <vector>

namespace keylens::models {
class KeyspaceView;
class PatternTreeModel;
} // namespace keylens::models

namespace keylens::ui {

// A squarified treemap of memory by namespace (a QPainter widget): each rectangle's area is its subtree's
// share of the shown node's memory. Namespaces nest inside their parent's rectangle as long as they are
// big enough to see; smaller ones are not laid out at all, and past MaxChildren the rest of a parent's
// children are one "others" tile, so a store of a million keys lays out in milliseconds.
//
// Clicking a tile selects its node (nodeActivated: the window selects it in the tree); double-clicking a
// namespace drills down into it; Back (or the mouse's back button) goes up again. Tiles are coloured by
// their top-level namespace, or by the worst lint finding in them.
class TreemapView : public QWidget
{
    Q_OBJECT
public:
    enum class Colouring { TopLevel, WorstFinding };
    struct Tile
    {
        QRectF rect;
        keyspace::NodeId node = keyspace::InvalidNode;     // InvalidNode for an "others" tile
        keyspace::NodeId topLevel = keyspace::InvalidNode; // its ancestor just below the shown node
        int depth = 0;                                     // 0: a child of the shown node
        std::uint64_t memoryBytes = 0;
        std::uint64_t others = 0; // how many children an "others" tile stands for
        bool nested = false;      // its children are laid out inside it, below its header strip
    };
    static constexpr std::size_t MaxChildren = 2000; // laid out per parent; the rest is one tile
    static constexpr double MinimumSide = 3.0;       // pixels: smaller tiles are not laid out

    // Of the session's store, whichever it is: a new one (a rescan) resets the map to the whole keyspace.
    explicit TreemapView(const models::KeyspaceView& keyspace, QWidget* parent = nullptr);

    bool hasStore() const;
    // Tiles of patterns instead of namespaces (their ids in Tile::node), or of namespaces again (nullptr).
    void setPatterns(const models::PatternTreeModel* patterns);
    bool showsPatterns() const { return m_patterns != nullptr; }
    // The node (or pattern) whose children fill the map: an id of the tree shown, the store's or the patterns'.
    void setShownNode(std::uint32_t node);
    std::uint32_t shownNode() const { return m_shown; }
    // What the map shows, for its header: "All keys", `cache:*` or a pattern, and its totals.
    QString shownName() const;
    keyspace::SubtreeTotals shownTotals() const;
    void back();                            // up one level
    void setSelected(models::NodeRef node); // outlined, when it has a tile
    void setColouring(Colouring colouring);
    // The store grew or its findings changed: lays out again at the next paint.
    void invalidate();

    const std::vector<Tile>& tiles(); // laid out if needed
    const Tile* tileAt(QPointF point);
    // Milliseconds of work the last layout took, over all its slices, and in its longest slice.
    double lastLayoutMs() const { return m_layoutMs; }
    double longestSliceMs() const { return m_longestSliceMs; }
    bool isLayingOut() const { return !m_pending.empty(); }

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
    bool layoutStep(qint64 budgetMs); // true once done
    // Collects the children of the first pending parent, keeping the biggest MaxChildren; resumes where the
    // last slice stopped (a parent of a million children is a few slices). True once all are collected.
    bool gatherChildren(const QElapsedTimer& clock, qint64 budgetMs);
    void layout(); // to the end, now
    void reset();  // the whole keyspace again, nothing selected
    QColor colourOf(const Tile& tile) const;
    // Of a node, or of a pattern when it shows patterns.
    bool hasChildren(std::uint32_t id) const;
    std::uint32_t parentOf(std::uint32_t id) const;
    QString labelOf(std::uint32_t id) const;
    int worstFindingOf(std::uint32_t id) const;

    const models::KeyspaceView& m_keyspace;
    const models::PatternTreeModel* m_patterns = nullptr;
    // Ids of the tree shown (the store's nodes, of its current generation, or the patterns'): the map is reset when
    // either tree is replaced.
    std::uint32_t m_shown = keyspace::RootNode;
    std::uint32_t m_selected = keyspace::InvalidNode;
    Colouring m_colouring = Colouring::TopLevel;
    std::vector<Tile> m_tiles; // parents before their children
    bool m_dirty = true;
    double m_layoutMs = 0;
    struct Pending
    {
        std::uint32_t node;
        QRectF rect;
        int depth;
        std::uint32_t topLevel;
    };
    std::deque<Pending> m_pending; // parents whose children are still to be laid out
    // The children of m_pending.front() gathered so far (see gatherChildren()).
    struct Gathered
    {
        bool started = false;
        std::uint32_t cursor = 0; // the next child: a node id, or an index into a pattern's children
        std::vector<std::pair<std::uint64_t, std::uint32_t>> biggest; // (memory, child), at most 2 * MaxChildren
        std::uint64_t total = 0;                                      // memory of every child
        std::uint64_t rest = 0;                                       // memory of the children dropped from `biggest`
        std::size_t restCount = 0;                                    // and how many they are
        void keepBiggest(std::size_t count);
    };
    Gathered m_gathered;
    double m_longestSliceMs = 0;
    base::SlicedJob m_slices{1, QStringLiteral("treemap layout"), this};
};

} // namespace keylens::ui
