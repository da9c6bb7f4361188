#pragma once

#include "base/SlicedJob.h"
#include "keyspace/SubtreeTotals.h"

#include <QByteArray>
#include <QObject>
#include <QRectF>

#include <cstdint>
#include <deque>
#include <vector>

class QElapsedTimer;

namespace keylens::models {

class KeyspaceView;
class PatternTreeModel;

// A squarified treemap of memory: each tile's area is its subtree's share of the shown node's memory. Namespaces nest
// inside their parent's tile as long as they are big enough to see; smaller ones are not laid out at all, and past
// MaxChildren the rest of a parent's children are one "others" tile, so a store of a million keys lays out in
// milliseconds. Of the session's store (through its KeyspaceView), or of its pattern tree.
//
// Laid out a slice at a time on the GUI thread (a parent of a million children is a few slices), parents before
// their children, so that what is there can be painted meanwhile. A new store drops the tiles.
//
// GUI thread only.
class TreemapLayout : public QObject
{
    Q_OBJECT
public:
    struct Tile
    {
        QRectF rect;
        std::uint32_t node = keyspace::InvalidNode;     // a store node or a pattern; InvalidNode for an "others" tile
        std::uint32_t topLevel = keyspace::InvalidNode; // its ancestor just below the shown node
        int depth = 0;                                  // 0: a child of the shown node
        std::uint64_t memoryBytes = 0;
        std::uint64_t others = 0; // how many children an "others" tile stands for
        bool nested = false;      // its children are laid out inside it, below its header strip
    };
    static constexpr std::size_t MaxChildren = 2000; // laid out per parent; the rest is one tile
    static constexpr double MinimumSide = 3.0;       // pixels: smaller tiles are not laid out
    static constexpr double HeaderHeight = 15;       // a namespace's name strip above its children
    static constexpr double NestAbove = 28;          // a namespace this big on both sides shows its children

    explicit TreemapLayout(const KeyspaceView& keyspace, QObject* parent = nullptr);

    // Tiles of patterns (their ids in Tile::node), or of the store's namespaces again (nullptr). Drops the tiles.
    void setPatterns(const PatternTreeModel* patterns);
    bool showsPatterns() const { return m_patterns != nullptr; }
    bool hasStore() const;
    bool hasKeys() const;

    // The shown tree's questions, by id: a node of the current store, or a pattern.
    bool exists(std::uint32_t id) const;
    bool hasChildren(std::uint32_t id) const;
    std::uint32_t parentOf(std::uint32_t id) const;
    QByteArray labelOf(std::uint32_t id) const; // the node's segment, or the pattern's label
    QByteArray nameOf(std::uint32_t id) const;  // `cache:*`, or the pattern's text
    keyspace::SubtreeTotals totalsOf(std::uint32_t id) const;

    // Lays out the children of `shown` in `rect`: a slice now, the rest a slice per turn of the event loop (laidOut()
    // after each), dropping a layout under way.
    void start(std::uint32_t shown, QRectF rect);
    // What is left of the layout, now.
    void finish();
    // Drops the tiles and the layout under way.
    void clear();
    bool isLayingOut() const { return !m_pending.empty(); }
    const std::vector<Tile>& tiles() const { return m_tiles; }
    // Milliseconds of work the last layout took, over all its slices, and in its longest slice.
    double lastLayoutMs() const { return m_layoutMs; }
    double longestSliceMs() const { return m_longestSliceMs; }

Q_SIGNALS:
    void laidOut(); // a slice added tiles

private:
    bool layoutStep(qint64 budgetMs); // true once done
    // Collects the children of the first pending parent, keeping the biggest MaxChildren; resumes where the
    // last slice stopped (a parent of a million children is a few slices). True once all are collected.
    bool gatherChildren(const QElapsedTimer& clock, qint64 budgetMs);

    const KeyspaceView& m_keyspace;
    const PatternTreeModel* m_patterns = nullptr;
    std::vector<Tile> m_tiles; // parents before their children
    double m_layoutMs = 0;
    double m_longestSliceMs = 0;
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
    base::SlicedJob m_slices{1, QStringLiteral("treemap layout"), this};
};

} // namespace keylens::models
