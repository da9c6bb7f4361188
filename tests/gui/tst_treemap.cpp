// The treemap on in-memory stores: each tile's area is its memory's share, children sit inside their
// parent, a parent of 200,000 children lays out its biggest and one "others" tile, clicks select the
// deepest tile, double-clicks drill down and Back goes up.
#include "TestKeys.h"
#include "keyspace/Keyspace.h"
#include "keyspace/SubtreeTotals.h"
#include "models/KeyspaceView.h"
#include "models/PatternTreeModel.h"
#include "ui/TreemapView.h"

#include <QSignalSpy>
#include <QTest>

#include <deque>

using namespace keylens;
using ui::TreemapView;

namespace {

void add(keyspace::Keyspace& store, const QByteArray& key, std::uint64_t memory)
{
    store.insert(key, test::measuredKey(keyspace::KeyType::String, memory));
}

} // namespace

class TestTreemap : public QObject
{
    Q_OBJECT

    // The map reads a store through a KeyspaceView, as the window's does through its session's.
    std::deque<models::KeyspaceView> m_views;
    const models::KeyspaceView& viewOf(const keyspace::Keyspace& store)
    {
        m_views.emplace_back().setStore(&store);
        return m_views.back();
    }

private Q_SLOTS:
    void areasAreMemoryShares()
    {
        keyspace::Keyspace store;
        for (int i = 0; i < 50; ++i)
            add(store, "user:" + QByteArray::number(i) + ":profile", 1000 + std::uint64_t(i) * 10);
        for (int i = 0; i < 20; ++i)
            add(store, "cache:" + QByteArray::number(i), 2000);
        add(store, "big", 100'000);
        add(store, "tiny", 1);
        TreemapView view(viewOf(store));
        view.resize(800, 600);
        const auto& tiles = view.tiles();
        QVERIFY(!tiles.empty());
        const double total = double(store.stats(keyspace::Keyspace::root()).memoryBytes);
        const double area = 798.0 * 598.0;
        for (const TreemapView::Tile& tile : tiles) {
            if (tile.depth != 0)
                continue;
            const double share = double(keyspace::subtreeTotals(store, tile.node).memoryBytes) / total;
            QVERIFY2(std::abs(tile.rect.width() * tile.rect.height() / area - share) < 0.002,
                     store.path(tile.node).constData());
        }
        // A child's tile lies inside its parent's.
        for (const TreemapView::Tile& tile : tiles) {
            if (tile.depth == 0)
                continue;
            const auto parent = std::find_if(tiles.begin(), tiles.end(), [&](const TreemapView::Tile& t) {
                return t.node == store.parent(tile.node);
            });
            QVERIFY(parent != tiles.end());
            QVERIFY(parent->rect.adjusted(-0.01, -0.01, 0.01, 0.01).contains(tile.rect));
        }
        // The biggest is `big`, and its tile is the widest of all.
        const auto widest = std::max_element(tiles.begin(), tiles.end(), [](const auto& a, const auto& b) {
            return a.rect.width() * a.rect.height() < b.rect.width() * b.rect.height();
        });
        QCOMPARE(store.path(widest->node), QByteArray("big"));
    }

    void clicksSelectAndDrillDown()
    {
        keyspace::Keyspace store;
        for (int i = 0; i < 10; ++i)
            add(store, "user:" + QByteArray::number(i) + ":profile", 5000);
        add(store, "other", 5000);
        TreemapView view(viewOf(store));
        view.resize(600, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const keyspace::NodeId user = store.find("user");
        const auto& tiles = view.tiles();
        const auto userTile = std::find_if(tiles.begin(), tiles.end(), [&](const auto& t) { return t.node == user; });
        QVERIFY(userTile != tiles.end());
        // A tile is nested exactly when tiles of its children lie inside it, below its header strip: only then is its
        // label one line (its children would cover a second).
        for (const auto& tile : tiles) {
            const bool hasChildTiles = std::any_of(tiles.begin(), tiles.end(), [&](const auto& other) {
                return other.node != keyspace::InvalidNode && tile.node != keyspace::InvalidNode &&
                       store.parent(other.node) == tile.node && tile.rect.contains(other.rect);
            });
            QCOMPARE(tile.nested, hasChildTiles);
        }
        QVERIFY(userTile->nested);
        // The middle of `user` is one of its children (nested tiles are deeper).
        QSignalSpy activated(&view, &TreemapView::nodeActivated);
        const QPoint middle = userTile->rect.center().toPoint();
        QTest::mouseClick(&view, Qt::LeftButton, {}, middle);
        QCOMPARE(activated.count(), 1);
        const auto clicked = activated.first().first().value<models::NodeRef>().node;
        QVERIFY(store.path(clicked).startsWith("user:")); // the deepest tile there: user:N or user:N:profile
        QTest::mouseDClick(&view, Qt::LeftButton, {}, userTile->rect.topLeft().toPoint() + QPoint(4, 4));
        QCOMPARE(view.shownNode(), user);
        QCOMPARE(view.tiles().size(), std::size_t(10 + 10)); // user:N and user:N:profile
        view.back();
        QCOMPARE(view.shownNode(), keyspace::Keyspace::root());
    }

    // With patterns, `user:<int>` is one tile for all users, sized by their memory together.
    void tilesOfPatterns()
    {
        keyspace::Keyspace store;
        for (int i = 0; i < 300; ++i)
            add(store, "user:" + QByteArray::number(i) + ":profile", 1000);
        add(store, "config", 100'000);
        models::PatternTreeModel patterns;
        patterns.setKeyspace(&store);
        patterns.setActive(true);
        QSignalSpy exact(&patterns, &models::PatternTreeModel::exactTreeReady);
        patterns.publish(true);
        QVERIFY(exact.wait(10000));
        TreemapView view(viewOf(store));
        view.resize(800, 600);
        view.setPatterns(&patterns);
        QVERIFY(view.showsPatterns());
        const patterns::PatternTree& tree = *patterns.tree();
        const auto& tiles = view.tiles();
        const auto ids = std::find_if(tiles.begin(), tiles.end(), [&](const auto& t) {
            return t.node != keyspace::InvalidNode && tree.text(t.node) == "user:<int>";
        });
        QVERIFY(ids != tiles.end());
        QCOMPARE(ids->memoryBytes, std::uint64_t(300'000));
        const auto user = std::find_if(tiles.begin(), tiles.end(), [&](const auto& t) {
            return t.node != keyspace::InvalidNode && t.depth == 0 && tree.text(t.node) == "user";
        });
        QVERIFY(user != tiles.end());
        QVERIFY(user->rect.contains(ids->rect));
        const double share = user->rect.width() * user->rect.height() / (798.0 * 598.0);
        QVERIFY2(std::abs(share - 300'000.0 / 400'000.0) < 0.01, qPrintable(QString::number(share)));
        QSignalSpy activated(&view, &TreemapView::patternActivated);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTest::mouseClick(&view, Qt::LeftButton, {}, ids->rect.center().toPoint());
        QCOMPARE(activated.count(), 1);
        QVERIFY(
            tree.text(activated.first().first().value<patterns::PatternTree::PatternId>()).startsWith("user:<int>"));
        QCOMPARE(view.shownName(), QStringLiteral("All keys"));
    }

    // Painting lays out 4 ms at a time and paints what is there; the slices end with the same tiles as a
    // layout in one go.
    void layoutInSlices()
    {
        keyspace::Keyspace store;
        for (int i = 0; i < 300'000; ++i)
            add(store,
                "ns" + QByteArray::number(i % 3000) + ":sub" + QByteArray::number(i % 7) + ":" + QByteArray::number(i),
                100 + std::uint64_t(i % 977));
        TreemapView sliced(viewOf(store));
        sliced.resize(900, 700);
        sliced.show();
        QVERIFY(QTest::qWaitForWindowExposed(&sliced));
        sliced.repaint();
        QTRY_VERIFY_WITH_TIMEOUT(!sliced.isLayingOut(), 10000);
        TreemapView whole(viewOf(store));
        whole.resize(900, 700);
        const auto& expected = whole.tiles();
        const auto& got = sliced.tiles();
        QCOMPARE(got.size(), expected.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            QCOMPARE(got[i].node, expected[i].node);
            QCOMPARE(got[i].rect, expected[i].rect);
        }
        qInfo("300,000 keys in 3,000 namespaces: %zu tiles, %.1f ms of layout", got.size(), sliced.lastLayoutMs());
    }

    void aParentOfTwoHundredThousandChildren()
    {
        keyspace::Keyspace store;
        // Zipf-like sizes, as real keyspaces have: a few big children, a long tail of small ones.
        for (int i = 0; i < 200'000; ++i)
            add(store, "flat:" + QByteArray::number(i), 10'000'000 / std::uint64_t(i + 1) + 50);
        TreemapView view(viewOf(store));
        view.resize(1000, 700);
        view.setShownNode(store.find("flat"));
        const auto& tiles = view.tiles();
        qInfo("200,000 children: %zu tiles in %.1f ms", tiles.size(), view.lastLayoutMs());
        QVERIFY(tiles.size() <= TreemapView::MaxChildren + 1);
        QVERIFY(tiles.size() > 100); // the big ones are laid out; those under 3 pixels are not
        const auto others = std::find_if(tiles.begin(), tiles.end(), [](const auto& t) { return t.others > 0; });
        QVERIFY(others != tiles.end());
        QCOMPARE(others->others, std::uint64_t(200'000 - TreemapView::MaxChildren));
        // The "others" tile is the memory of every child past the biggest MaxChildren: here flat:2000 and on.
        std::uint64_t rest = 0;
        for (std::uint64_t i = TreemapView::MaxChildren; i < 200'000; ++i)
            rest += 10'000'000 / (i + 1) + 50;
        QCOMPARE(others->memoryBytes, rest);
        // The biggest child comes first.
        QCOMPARE(store.path(tiles.front().node), QByteArray("flat:0"));
        QCOMPARE(tiles.front().memoryBytes, std::uint64_t(10'000'050));

        // Painted, the one wide parent is gathered a slice at a time and ends with the same tiles.
        TreemapView sliced(viewOf(store));
        sliced.resize(1000, 700);
        sliced.setShownNode(store.find("flat"));
        sliced.show();
        QVERIFY(QTest::qWaitForWindowExposed(&sliced));
        sliced.repaint();
        QTRY_VERIFY_WITH_TIMEOUT(!sliced.isLayingOut(), 10000);
        const auto& got = sliced.tiles();
        QCOMPARE(got.size(), tiles.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            QCOMPARE(got[i].node, tiles[i].node);
            QCOMPARE(got[i].rect, tiles[i].rect);
            QCOMPARE(got[i].others, tiles[i].others);
        }
        qInfo("in slices: %.1f ms of layout, the longest slice %.1f ms", sliced.lastLayoutMs(),
              sliced.longestSliceMs());
    }
};

QTEST_MAIN(TestTreemap)
#include "tst_treemap.moc"
