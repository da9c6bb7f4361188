// The window's view of the session's store (models::KeyspaceView) and the queries built on it: a reference answers as
// the store it came from does, a reference of a store that was replaced answers nothing (where its bare node id would
// name another key of the new store), and what reads a store a slice at a time drops its work with the store.
#include "TestKeys.h"
#include "keyspace/Keyspace.h"
#include "models/ExpiryCount.h"
#include "models/FilterQueries.h"
#include "models/KeyspaceView.h"
#include "models/TopKeysQuery.h"

#include <QDateTime>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

using namespace keylens;
using models::KeyspaceView;
using models::NodeRef;

namespace {

keyspace::KeyInfo stringOf(std::uint64_t memory, std::int64_t expiresAtMs = keyspace::NoExpiry)
{
    return test::measuredKey(keyspace::KeyType::String, memory, expiresAtMs);
}

} // namespace

class TestKeyspaceView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void answersAsTheStoreItCameFrom()
    {
        const std::map<QByteArray, std::uint64_t> keys = {
            {"user:1:profile", 300}, {"user:1", 40}, {"user:2:profile", 500}, {"cache:page:7", 9000}};
        keyspace::Keyspace store;
        for (const auto& [key, memory] : keys)
            store.insert(key, stringOf(memory));
        KeyspaceView view;
        view.setStore(&store);

        for (const auto& [key, memory] : keys) {
            const NodeRef ref = view.find(key);
            QVERIFY2(view.isCurrent(ref), key.constData());
            QCOMPARE(view.path(ref), key);
            QVERIFY(view.isKey(ref));
            QCOMPARE(view.keyInfo(ref)->memoryBytes, memory); // the bytes given, not the store's own say
        }
        const NodeRef user = view.find("user");
        QVERIFY(!view.isKey(user));
        QVERIFY(view.hasChildren(user));
        QCOMPARE(view.namespacePrefix(user), QByteArray("user:"));
        QCOMPARE(view.namespaceGlob(user), QByteArray("user:*"));
        QCOMPARE(view.totals(user).keys, std::uint64_t(3));
        QCOMPARE(view.totals(user).memoryBytes, std::uint64_t(300 + 40 + 500));
        QCOMPARE(view.subtreeMemory(view.root()), std::uint64_t(300 + 40 + 500 + 9000));
        QCOMPARE(view.keyCount(), std::uint64_t(keys.size()));
        QCOMPARE(view.parent(view.find("user:1")), user);
        std::set<QByteArray> children;
        for (NodeRef child = view.firstChild(view.root()); !child.isNull(); child = view.nextSibling(child))
            children.insert(view.segment(child));
        QCOMPARE(children, (std::set<QByteArray>{"cache", "user"}));
        QVERIFY(view.find("user:3").isNull());
        QVERIFY(view.parent(view.root()).isNull());
    }

    void aReferenceOfAReplacedStoreAnswersNothing()
    {
        keyspace::Keyspace first, second;
        // The same shapes in the same order: node ids line up, names do not.
        for (int i = 0; i < 10; ++i) {
            first.insert(QByteArray("user:" + QByteArray::number(i)), stringOf(100));
            second.insert(QByteArray("order:" + QByteArray::number(i)), stringOf(7000));
        }
        KeyspaceView view;
        QSignalSpy replaced(&view, &KeyspaceView::storeReplaced);
        view.setStore(&first);
        const NodeRef kept = view.find("user:4");
        QVERIFY(view.isCurrent(kept));
        view.setStore(&second);
        QCOMPARE(replaced.count(), 2);
        // The bare id names a key of the new store: the mistake a generation prevents.
        QCOMPARE(second.path(kept.node), QByteArray("order:4"));
        QVERIFY(!view.isCurrent(kept));
        QCOMPARE(view.nodeOf(kept), keyspace::InvalidNode);
        QVERIFY(view.path(kept).isEmpty());
        QVERIFY(!view.isKey(kept));
        QVERIFY(!view.keyInfo(kept).has_value());
        QCOMPARE(view.totals(kept).keys, std::uint64_t(0));
        QCOMPARE(view.findingRules(kept), std::uint32_t(0));
        // Taken again, by name, from the new store.
        QCOMPARE(view.path(view.find("order:4")), QByteArray("order:4"));
        view.setStore(nullptr);
        QVERIFY(!view.hasStore());
        QVERIFY(view.find("order:4").isNull());
        QCOMPARE(view.keyCount(), std::uint64_t(0));
    }

    void topKeysAreTheBiggestAndGoWithTheStore()
    {
        keyspace::Keyspace small;
        std::vector<std::pair<std::uint64_t, QByteArray>> sizes;
        for (int i = 0; i < 300; ++i) {
            const QByteArray key = "job:" + QByteArray::number(i);
            const std::uint64_t memory = std::uint64_t((i * 7919) % 1000) + 1;
            small.insert(key, stringOf(memory));
            small.insert(QByteArray("other:" + QByteArray::number(i)),
                         stringOf(1'000'000)); // outside the namespace asked
            sizes.emplace_back(memory, key);
        }
        std::sort(sizes.begin(), sizes.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        KeyspaceView view;
        view.setStore(&small);
        models::TopKeysQuery query(view);
        std::optional<std::vector<models::TopKeysQuery::Key>> found;
        query.start(view.find("job"), 5, [&](std::vector<models::TopKeysQuery::Key> keys) { found = std::move(keys); });
        QTRY_VERIFY(found.has_value());
        QCOMPARE(found->size(), std::size_t(5));
        for (std::size_t i = 0; i < 5; ++i) {
            QCOMPARE((*found)[i].info.memoryBytes, sizes[i].first);
            QCOMPARE((*found)[i].path, view.path((*found)[i].node));
        }

        // A walk over a big store is under way when the store goes: it never answers, with the old store's ids.
        keyspace::Keyspace big, next;
        for (int i = 0; i < 400'000; ++i)
            big.insert(QByteArray("k:" + QByteArray::number(i)), stringOf(std::uint64_t(i)));
        next.insert("k:1", stringOf(1));
        view.setStore(&big);
        bool answered = false;
        query.start(view.root(), 5, [&](std::vector<models::TopKeysQuery::Key>) { answered = true; });
        QVERIFY(query.isRunning());
        view.setStore(&next);
        QVERIFY(!query.isRunning());
        QTest::qWait(200);
        QVERIFY(!answered);
        // A reference of the store before starts nothing.
        query.start(found->front().node, 5, [&](std::vector<models::TopKeysQuery::Key>) { answered = true; });
        QVERIFY(!query.isRunning());
        QVERIFY(!answered);
    }

    void completionsAreOfTheCurrentStore()
    {
        keyspace::Keyspace first, second;
        first.insert("user:1", stringOf(1));
        first.insert("users", stringOf(1));
        first.insert("user:2:profile", stringOf(1));
        second.insert("session:9", stringOf(1));
        KeyspaceView view;
        view.setStore(&first);
        QCOMPARE(models::keyCompletions(view, "us", 10),
                 (QStringList{QStringLiteral("user:"), QStringLiteral("users")}));
        QCOMPARE(models::keyCompletions(view, "user:", 10),
                 (QStringList{QStringLiteral("user:1"), QStringLiteral("user:2:")}));
        QCOMPARE(models::keyCompletions(view, "user:", 1).size(), 1);
        view.setStore(&second);
        QVERIFY(models::keyCompletions(view, "us", 10).isEmpty());
        QCOMPARE(models::keyCompletions(view, "", 10), (QStringList{QStringLiteral("session:")}));
    }

    void expiriesAreCountedOverTheStore()
    {
        const std::int64_t now = QDateTime::currentMSecsSinceEpoch();
        keyspace::Keyspace store;
        for (int i = 0; i < 3; ++i)
            store.insert(QByteArray("gone:" + QByteArray::number(i)), stringOf(1, now - 1000));
        for (int i = 0; i < 2; ++i)
            store.insert(QByteArray("later:" + QByteArray::number(i)), stringOf(1, now + 3'600'000));
        for (int i = 0; i < 4; ++i)
            store.insert(QByteArray("kept:" + QByteArray::number(i)), stringOf(1));
        KeyspaceView view;
        view.setStore(&store);
        models::ExpiryCount count(view);
        QSignalSpy ready(&count, &models::ExpiryCount::ready);
        QVERIFY(!count.expiredBy(now).has_value()); // not counted yet
        count.start();
        QTRY_COMPARE(ready.count(), 1);
        QCOMPARE(count.expiredBy(now), std::optional<std::uint64_t>(3));
        QCOMPARE(count.expiredBy(now + 7'200'000), std::optional<std::uint64_t>(5));
        keyspace::Keyspace empty;
        view.setStore(&empty);
        QVERIFY(!count.expiredBy(now + 7'200'000).has_value()); // of the store that went
    }
};

QTEST_GUILESS_MAIN(TestKeyspaceView)
#include "tst_keyspaceview.moc"
