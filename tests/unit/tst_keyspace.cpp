#include "TestKeys.h"
#include "keyspace/ExpiryTimeline.h"
#include "keyspace/IdHashTable.h"
#include "keyspace/Keyspace.h"
#include "keyspace/NodeMap.h"
#include "keyspace/PageWorker.h"
#include "keyspace/PagedArray.h"
#include "keyspace/SegmentPool.h"
#include "keyspace/SubtreeTotals.h"
#include "keyspace/TopKeys.h"

#include <QRandomGenerator>
#include <QScopeGuard>
#include <QTest>
#include <QThread>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <thread>
#include <unordered_map>

using namespace keylens::keyspace;

namespace {
using keylens::test::measuredKey;
} // namespace

class TestKeyspace : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The store's arrays make their next page ready on the page worker once the last is half full: every element
    // reads back what was written, or its value-initialised state (not zero for namespace aggregates), across
    // pages made either way, and an array that goes while its next page is being made leaves nothing behind.
    void pagedArraysHoldTheirElementsAcrossPagesMadeAhead()
    {
        using Small = detail::PagedArray<NamespaceStats, 4>; // pages of 16
        Small stats;
        for (std::uint32_t i = 0; i < 1000; ++i) {
            NamespaceStats entry;
            entry.keys = i;
            stats.push_back(entry);
            // From half way through a page, the next one is made (and counted) ahead of the first element that needs
            // it. (Before, one may be on its way still: a page not ready when needed is made on the spot.)
            const std::size_t used = i / Small::PageSize + 1;
            const std::size_t pages = stats.memoryBytes() / (Small::PageSize * sizeof(NamespaceStats));
            if (i % Small::PageSize >= Small::PageSize / 2)
                QCOMPARE(pages, used + 1);
            else
                QVERIFY(pages == used || pages == used + 1);
        }
        stats.resize(1000 + 5 * Small::PageSize + 3); // several pages at once: the one made ahead, and more
        for (std::uint32_t i = 0; i < 1000; ++i)
            QCOMPARE(stats[i].keys, i);
        for (std::size_t i = 1000; i < stats.size(); ++i) {
            QCOMPARE(stats[i].keys, 0u);
            QCOMPARE(stats[i].soonestExpiryMs, NamespaceStats().soonestExpiryMs);
        }
        for (int round = 0; round < 200; ++round) {
            detail::PagedArray<std::uint64_t, 6> numbers;
            for (std::uint64_t i = 0; i < 64 + 33; ++i)
                numbers.push_back(i * 3); // the third page is being made as the array goes
            QCOMPARE(numbers[96], std::uint64_t(288));
        }
    }

    // A big vector grows by half into room the page worker made once it was three quarters full, not by doubling as a
    // vector does on its own; one that grew on its own meanwhile (the room not ready) drops the room that is too
    // small for it by now and gets a fitting one.
    void bigVectorsGrowIntoRoomMadeAhead()
    {
        const auto workerDone = [] { // a lane runs its jobs in order: once this one ran, the room is made
            std::atomic<bool> ran{false};
            detail::runOnPageWorker([&ran] { ran.store(true); }, detail::PageLane::BigBuffers);
            QTRY_VERIFY_WITH_TIMEOUT(ran.load(), 10'000);
        };
        std::vector<std::uint32_t> numbers;
        detail::RoomAhead<std::uint32_t> room;
        numbers.reserve(1 << 16); // 256 KB: big enough for room made ahead
        std::uint32_t next = 0;
        const auto appendUpTo = [&](std::size_t size) {
            while (numbers.size() < size) {
                room.makeRoom(numbers, 1);
                numbers.push_back(next++);
            }
        };
        for (int round = 0; round < 3; ++round) {
            const std::size_t capacity = numbers.capacity();
            appendUpTo(capacity * 3 / 4 + 1); // the room for the next is started here
            workerDone();
            appendUpTo(capacity + 1);
            QCOMPARE(numbers.capacity(), capacity + capacity / 2);
        }
        // Grown on its own: a vector filled in bulk past the room started for it.
        const std::size_t before = numbers.capacity();
        appendUpTo(before * 3 / 4 + 1);
        numbers.resize(before + 1, 0); // grows as a vector grows alone: the room made for `before` is too small
        QVERIFY(numbers.capacity() > before + before / 2);
        next = std::uint32_t(numbers.size());
        appendUpTo(numbers.capacity() * 3 / 4 + 1);
        workerDone();
        const std::size_t grown = numbers.capacity();
        appendUpTo(grown + 1);
        QCOMPARE(numbers.capacity(), grown + grown / 2);
        for (std::size_t i = 0; i < numbers.size(); ++i) {
            if (numbers[i] != i && numbers[i] != 0)
                QFAIL(qPrintable(QStringLiteral("element %1 is %2").arg(i).arg(numbers[i])));
        }
        room.reset();
    }

    // Once nothing more arrives, a copy of the vector goes into the room made ahead for it (pages touched on the
    // worker); with no room ready, there is no copy (the caller makes its own, a slice at a time).
    void aCopyGoesIntoTheRoomMadeAhead()
    {
        std::vector<std::uint32_t> numbers;
        detail::RoomAhead<std::uint32_t> room;
        numbers.reserve(1 << 16);
        const std::size_t capacity = numbers.capacity();
        while (numbers.size() < capacity * 3 / 4 + 1) {
            room.makeRoom(numbers, 1);
            numbers.push_back(std::uint32_t(numbers.size() * 7));
        }
        std::atomic<bool> ran{false};
        detail::runOnPageWorker([&ran] { ran.store(true); }, detail::PageLane::BigBuffers);
        QTRY_VERIFY_WITH_TIMEOUT(ran.load(), 10'000);
        const std::optional<std::vector<std::uint32_t>> copy = room.copyIntoRoom(numbers);
        QVERIFY(copy);
        QCOMPARE(*copy, numbers);
        QCOMPARE(copy->capacity(), capacity + capacity / 2); // the room's, not a fresh copy's
        QVERIFY(!room.copyIntoRoom(numbers));                // the room is gone
    }

    // An array's next page is made while a big vector's next buffer is still being cleared: it does not wait in
    // line behind it.
    void pagesDoNotWaitBehindABigBuffer()
    {
        struct Flags
        {
            std::atomic<bool> release{false};
            std::atomic<bool> bigDone{false};
            std::atomic<bool> pageMade{false};
        };
        // Shared with the jobs: a failing run leaves them behind the test.
        const auto flags = std::make_shared<Flags>();
        const auto releaseTheBigOne = qScopeGuard([flags] { flags->release.store(true); });
        detail::runOnPageWorker(
            [flags] {
                while (!flags->release.load())
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                flags->bigDone.store(true);
            },
            detail::PageLane::BigBuffers);
        detail::runOnPageWorker([flags] { flags->pageMade.store(true); });
        QTRY_VERIFY_WITH_TIMEOUT(flags->pageMade.load(), 10'000);
        QVERIFY(!flags->bigDone.load());
        flags->release.store(true);
        QTRY_VERIFY_WITH_TIMEOUT(flags->bigDone.load(), 10'000);
    }

    // The id table keeps bits of each id's hash beside it, so a lookup passes other ids without the equality test
    // (which reads the store, a cache miss). Here every hash has the same high bits, so all ids pile up in one run
    // of slots: a lookup of an absent value walks the whole run, yet asks about almost none of them. Ids that are
    // not dense, up to the biggest a slot can hold, and hashes equal in every bit are still told apart.
    void idTableAsksOnlyAboutIdsWhoseHashBitsMatch()
    {
        using keylens::keyspace::detail::IdHashTable;
        using keylens::keyspace::detail::mix64;
        std::unordered_map<std::uint32_t, std::uint64_t> values; // the "store": id -> value
        constexpr std::uint64_t Twins = 1ULL << 40;              // values from here on share one whole hash
        const auto hashOf = [](std::uint64_t value) {            // one home slot for all, the low 24 bits differ
            return std::size_t(0x8000'0000'0000'0000ULL | (value >= Twins ? 42 : mix64(value) >> 40));
        };
        IdHashTable table;
        std::size_t asked = 0;
        const auto lookup = [&](std::uint64_t value) {
            return table.find(hashOf(value), [&](std::uint32_t id) {
                ++asked;
                return values.at(id) == value;
            });
        };
        const auto rehashOf = [&](std::uint32_t id) { return hashOf(values.at(id)); };
        for (std::uint32_t id = 0; id < 2000; ++id) {
            values[id] = 1000 + id * 7;
            table.insert(hashOf(values[id]), id, rehashOf);
        }
        for (std::uint32_t id = 0; id < 2000; ++id)
            QCOMPARE(lookup(values[id]), id);
        asked = 0;
        for (std::uint64_t absent = 1; absent <= 100; ++absent)
            QCOMPARE(lookup(absent * 7 + 3), IdHashTable::Empty);                          // never 1000 + 7k
        QVERIFY2(asked < 10, qPrintable(QStringLiteral("asked about %1 ids").arg(asked))); // 200,000 without the bits

        // Sparse ids, beyond the table's size: the slot gives them more bits (and the hash fewer).
        for (const std::uint32_t id : {70'000u, 5'000'000u, 3'000'000'000u}) {
            values[id] = id;
            table.insert(hashOf(values[id]), id, rehashOf);
        }
        for (const std::uint32_t id : {70'000u, 5'000'000u, 3'000'000'000u})
            QCOMPARE(lookup(id), id);
        for (std::uint32_t id = 0; id < 2000; ++id)
            QCOMPARE(lookup(values[id]), id);

        // Equal hashes, tag and all: the equality test tells them apart.
        values[2000] = Twins;
        values[2001] = Twins + 1;
        table.insert(hashOf(Twins), 2000, rehashOf);
        table.insert(hashOf(Twins + 1), 2001, rehashOf);
        QCOMPARE(lookup(Twins + 1), 2001u);
        QCOMPARE(lookup(Twins), 2000u);
        QCOMPARE(lookup(Twins + 2), IdHashTable::Empty);
    }

    // Segments fill 1 MiB blocks, the next one made on the page worker from half way through the last; a segment
    // bigger than a block gets one of its own meanwhile. Every segment reads back, and is found, as it went in.
    void segmentsReadBackAcrossBlocksMadeAhead()
    {
        SegmentPool pool;
        std::vector<QByteArray> segments;
        QRandomGenerator random(11);
        for (int i = 0; i < 300'000; ++i) {
            QByteArray segment = QByteArray::number(i) + ':' + QByteArray(random.bounded(40), char('a' + i % 26));
            if (i % 100'000 == 50'000)
                segment = QByteArray(3 << 20, char('0' + i % 10)) + QByteArray::number(i); // a block of its own
            QCOMPARE(pool.intern(segment), SegmentId(segments.size()));
            segments.push_back(segment);
        }
        QVERIFY(pool.memoryBytes() > std::size_t(10) << 20); // three big blocks and several of 1 MiB
        for (std::size_t i = 0; i < segments.size(); ++i) {
            if (pool.view(SegmentId(i)) != segments[i] || pool.find(segments[i]) != SegmentId(i))
                QFAIL(qPrintable(QStringLiteral("segment %1 does not read back").arg(i)));
        }
    }

    // Keys removed and updated after the scan (edits made through Keylens): every namespace's aggregates equal those
    // of a store built afresh from the keys as they are now.
    void removeAndUpdateMatchAFreshStore()
    {
        QRandomGenerator random(7);
        std::map<QByteArray, KeyInfo> keys;
        for (int i = 0; i < 3000; ++i) {
            const QByteArray key = "app:" + QByteArray::number(random.bounded(6)) + ':' +
                                   QByteArray::number(random.bounded(40)) + ':' + QByteArray::number(i);
            KeyInfo info = measuredKey(KeyType(random.bounded(6)), 10 + random.bounded(5000),
                                       random.bounded(3) == 0 ? 1'900'000'000'000 + i : NoExpiry);
            if (i % 17 == 0)
                info.memoryMeasured = false, info.memoryBytes = 0;
            if (i % 23 == 0)
                info.expiresAtMs = ExpiryUnknown;
            keys[key] = info;
        }
        keys["app"] = measuredKey(KeyType::String, 99); // a key that is a namespace too
        Keyspace store;
        for (const auto& [key, info] : keys)
            store.insert(key, info);
        int step = 0;
        for (auto it = keys.begin(); it != keys.end();) {
            const NodeId node = store.find(it->first);
            if (step % 3 == 0) {
                store.removeKey(node);
                QVERIFY(!store.isKey(node));
                it = keys.erase(it);
            } else {
                if (step % 3 == 1) {
                    it->second.expiresAtMs = it->second.expiresAtMs == NoExpiry ? 1'950'000'000'000 : NoExpiry;
                    it->second.memoryBytes += 7;
                    it->second.memoryMeasured = true;
                    store.updateKey(node, it->second);
                }
                ++it;
            }
            ++step;
        }
        Keyspace fresh;
        for (const auto& [key, info] : keys)
            fresh.insert(key, info);
        QCOMPARE(store.keyCount(), fresh.keyCount());
        for (NodeId node = 0; node < fresh.nodeCount(); ++node) {
            const NodeId mirror = node == Keyspace::root() ? node : store.find(fresh.path(node));
            QVERIFY(mirror != InvalidNode);
            const NamespaceStats& a = store.stats(mirror);
            const NamespaceStats& b = fresh.stats(node);
            QCOMPARE(a.keys, b.keys);
            QCOMPARE(a.memoryBytes, b.memoryBytes);
            QCOMPARE(a.keysWithTtl, b.keysWithTtl);
            QCOMPARE(a.keysTtlUnknown, b.keysTtlUnknown);
            QCOMPARE(a.keysMemoryUnmeasured, b.keysMemoryUnmeasured);
            QVERIFY(a.types == b.types);
            QCOMPARE(store.isKey(mirror), fresh.isKey(node));
            if (fresh.isKey(node)) {
                QCOMPARE(store.keyInfo(mirror).expiresAtMs, fresh.keyInfo(node).expiresAtMs);
                QCOMPARE(store.keyInfo(mirror).memoryBytes, fresh.keyInfo(node).memoryBytes);
            }
            // The expiry bounds may only be wider than the truth, never narrower.
            if (b.keysWithTtl > 0) {
                QVERIFY(a.soonestExpiryMs <= b.soonestExpiryMs);
                QVERIFY(a.latestExpiryMs >= b.latestExpiryMs);
            }
        }
        // A removed key comes back through insert.
        const QByteArray survivor = keys.begin()->first;
        const NodeId back = store.find(survivor);
        QVERIFY(store.isKey(back));
        store.removeKey(back);
        QCOMPARE(store.insert(survivor, measuredKey(KeyType::Hash, 5)), Keyspace::Insert::Added);
        QCOMPARE(store.keyInfo(back).type, KeyType::Hash);
    }

    // The walk in steps (the window's slices) finds what one call finds, and what a sort of every key does.
    void topKeysInSteps()
    {
        Keyspace store;
        QRandomGenerator random(7);
        std::vector<std::pair<std::uint64_t, QByteArray>> keys;
        for (int i = 0; i < 3000; ++i) {
            const QByteArray key = "ns:" + QByteArray::number(i % 17) + ":k" + QByteArray::number(i);
            const std::uint64_t memory = random.bounded(100000);
            store.insert(key, measuredKey(KeyType::String, memory));
            keys.emplace_back(memory, key);
        }
        const NodeId ns = store.find("ns");
        TopKeysWalk walk(store, 25, ns);
        int steps = 1;
        while (!walk.step(7))
            ++steps;
        QVERIFY(steps > 100);
        const std::vector<NodeId> stepped = walk.result();
        QCOMPARE(stepped, topKeysByMemory(store, 25, ns));
        std::sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        for (std::size_t i = 0; i < stepped.size(); ++i)
            QCOMPARE(store.keyInfo(stepped[i]).memoryBytes, keys[i].first);
    }

    // The window builds the timeline a slice at a time: in steps it counts what a count of every key does.
    void expiryTimelineInSteps()
    {
        Keyspace store;
        const std::int64_t base = 1'700'000'000'000;
        std::vector<std::int64_t> expiries;
        for (int i = 0; i < 5000; ++i) {
            const std::int64_t expiry = i % 3 == 0 ? NoExpiry : base + std::int64_t(i) * 1000;
            store.insert(QByteArray("t:" + QByteArray::number(i % 13) + ":" + QByteArray::number(i)),
                         measuredKey(KeyType::String, 10, expiry));
            if (expiry != NoExpiry)
                expiries.push_back(expiry);
        }
        ExpiryTimeline stepped;
        int steps = 0;
        while (!stepped.collect(store, 100))
            ++steps;
        QVERIFY(steps > 10);
        QVERIFY(stepped.isComplete());
        ExpiryTimeline whole(store);
        for (const std::int64_t now : {base - 1, base + 1'000'000, base + 2'500'000, base + 10'000'000}) {
            const auto expected = std::uint64_t(
                std::count_if(expiries.begin(), expiries.end(), [now](std::int64_t expiry) { return expiry <= now; }));
            QCOMPARE(stepped.expiredBy(now), expected);
            QCOMPARE(whole.expiredBy(now), expected);
        }
        QVERIFY(!ExpiryTimeline().isComplete());
    }

    void namespaceCountsKeysWithItsPrefix()
    {
        Keyspace keyspace;
        keyspace.insert("user:1", measuredKey(KeyType::Hash, 100));
        keyspace.insert("user:1:profile", measuredKey(KeyType::Hash, 50));
        keyspace.insert("user:2:profile", measuredKey(KeyType::String, 30, 5000));
        keyspace.insert("user", measuredKey(KeyType::String, 7)); // a key named like the namespace
        keyspace.insert("users:all", measuredKey(KeyType::Set, 1));

        const NodeId user = keyspace.find("user");
        QVERIFY(user != InvalidNode);
        QVERIFY(keyspace.isKey(user));
        QVERIFY(keyspace.hasChildren(user));
        // `user:` holds exactly the keys starting with "user:": not "user" itself, not "users:all".
        QCOMPARE(keyspace.stats(user).keys, 3u);
        QCOMPARE(keyspace.stats(user).memoryBytes, 180u);
        QCOMPARE(keyspace.stats(user).keysWithTtl, 1u);
        QCOMPARE(keyspace.stats(user).soonestExpiryMs, 5000);
        QCOMPARE(keyspace.stats(user).types[static_cast<int>(KeyType::Hash)], 2u);

        const NodeId user1 = keyspace.find("user:1");
        QVERIFY(keyspace.isKey(user1) && keyspace.hasChildren(user1));
        QCOMPARE(keyspace.stats(user1).keys, 1u);
        QCOMPARE(keyspace.keyInfo(user1).memoryBytes, 100u);

        QCOMPARE(keyspace.keyCount(), 5u);
        QCOMPARE(keyspace.stats(Keyspace::root()).memoryBytes, 188u);
        QCOMPARE(keyspace.namespacePrefix(user), QByteArray("user:"));
    }

    void pathLengthIsThePathsSize()
    {
        Keyspace store;
        for (const QByteArray& key : {QByteArray("a"), QByteArray("user:1:profile"), QByteArray(":leading"),
                                      QByteArray("trailing:"), QByteArray("double::x")}) {
            NodeId node = InvalidNode;
            store.insert(key, {}, &node);
            QCOMPARE(store.pathLength(node), std::size_t(key.size()));
            QCOMPARE(store.path(node), key);
        }
    }

    void duplicatesAreIgnored()
    {
        Keyspace keyspace;
        QCOMPARE(keyspace.insert("a:b", measuredKey(KeyType::String, 10)), Keyspace::Insert::Added);
        QCOMPARE(keyspace.insert("a:b", measuredKey(KeyType::String, 99)), Keyspace::Insert::Duplicate);
        QCOMPARE(keyspace.keyCount(), 1u);
        QCOMPARE(keyspace.stats(Keyspace::root()).memoryBytes, 10u);
    }

    void unmeasuredMemoryIsNotZero()
    {
        Keyspace keyspace;
        KeyInfo unmeasured;
        unmeasured.type = KeyType::String;
        keyspace.insert("a:x", unmeasured);
        keyspace.insert("a:y", measuredKey(KeyType::String, 40));
        const auto& stats = keyspace.stats(keyspace.find("a"));
        QCOMPARE(stats.keys, 2u);
        QCOMPARE(stats.keysMemoryUnmeasured, 1u);
        QCOMPARE(stats.memoryBytes, 40u);
        QVERIFY(!keyspace.keyInfo(keyspace.find("a:x")).memoryMeasured);
    }

    void otherDelimiter()
    {
        Keyspace keyspace('/');
        keyspace.insert("a/b/c", measuredKey(KeyType::String, 1));
        keyspace.insert("a:b", measuredKey(KeyType::String, 1));
        QCOMPARE(keyspace.stats(keyspace.find("a")).keys, 1u);
        QVERIFY(keyspace.find("a:b") != InvalidNode);
    }

    // Against a brute-force truth: every key's path is its exact bytes, and every namespace's aggregates
    // equal a direct count over the keys that start with its prefix.
    void randomKeysMatchBruteForce()
    {
        QRandomGenerator random(99);
        const std::vector<QByteArray> words = {"user", "cache", "", "1", "2", "profile", QByteArray("\xff\x00", 2),
                                               "x:y"};
        std::map<QByteArray, KeyInfo> keys;
        Keyspace keyspace;
        for (int i = 0; i < 4000; ++i) {
            QByteArray key;
            const int parts = random.bounded(1, 5);
            for (int p = 0; p < parts; ++p) {
                if (p)
                    key.append(':');
                key.append(words[random.bounded(int(words.size()))]);
            }
            const KeyInfo keyInfo = measuredKey(static_cast<KeyType>(random.bounded(6)), random.bounded(1, 1000),
                                                random.bounded(2) ? NoExpiry : random.bounded(1, 100000));
            const bool fresh = keys.emplace(key, keyInfo).second;
            QCOMPARE(keyspace.insert(key, keyInfo) == Keyspace::Insert::Added, fresh);
        }
        QCOMPARE(keyspace.keyCount(), keys.size());

        std::set<QByteArray> prefixes;
        for (const auto& [key, keyInfo] : keys) {
            const NodeId node = keyspace.find(key);
            QVERIFY(node != InvalidNode);
            QVERIFY(keyspace.isKey(node));
            QCOMPARE(keyspace.path(node), key);
            QCOMPARE(keyspace.keyInfo(node).memoryBytes, keyInfo.memoryBytes);
            for (qsizetype at = key.indexOf(':'); at >= 0; at = key.indexOf(':', at + 1))
                prefixes.insert(key.left(at));
        }
        for (const QByteArray& prefix : prefixes) {
            std::uint64_t count = 0, memory = 0, withTtl = 0;
            for (const auto& [key, keyInfo] : keys) {
                if (key.startsWith(QByteArray(prefix + ':'))) {
                    ++count;
                    memory += keyInfo.memoryBytes;
                    withTtl += keyInfo.expiresAtMs != NoExpiry;
                }
            }
            const NodeId node = keyspace.find(prefix);
            QVERIFY(node != InvalidNode);
            QCOMPARE(keyspace.namespacePrefix(node), prefix + ':');
            QCOMPARE(std::uint64_t(keyspace.stats(node).keys), count);
            QCOMPARE(keyspace.stats(node).memoryBytes, memory);
            QCOMPARE(std::uint64_t(keyspace.stats(node).keysWithTtl), withTtl);
        }
    }

    // Keys inserted a batch at a time (a scan's batches, walked down level by level) give what the same keys one by one
    // give: each key found at its exact bytes with its info, the same outcome per key (a key twice in one batch is a
    // duplicate the second time), the same children in the same order, and every namespace's aggregates equal to a
    // direct count over the keys. With one delimiter and with several, with empty segments, binary bytes, a key that is
    // also a namespace, a 16 KB key and one of 300 levels, in batches of 1 to 700 keys.
    void batchesInsertAsOneByOne_data()
    {
        QTest::addColumn<QByteArray>("delimiters");
        QTest::newRow("colon") << QByteArray(":");
        QTest::newRow("colon, slash and dot") << QByteArray(":/.");
    }
    void batchesInsertAsOneByOne()
    {
        QFETCH(QByteArray, delimiters);
        const Delimiters split = *Delimiters::ofBytes(delimiters);
        QRandomGenerator random(17);
        const std::vector<QByteArray> words = {"user",    "cache", "", "1", "2", "profile", QByteArray("\xff\x00", 2),
                                               "session", "a",     "b"};
        std::vector<QByteArray> keys;
        for (int i = 0; i < 5000; ++i) {
            QByteArray key;
            const int parts = random.bounded(1, 6);
            for (int p = 0; p < parts; ++p) {
                if (p)
                    key.append(delimiters[random.bounded(int(delimiters.size()))]);
                key.append(random.bounded(3) == 0 ? QByteArray::number(random.bounded(3000))
                                                  : words[random.bounded(int(words.size()))]);
            }
            keys.push_back(key);
            if (random.bounded(20) == 0)
                keys.push_back(key); // again, often in the same batch
        }
        keys.push_back(QByteArray(16 * 1024, 'k'));
        QByteArray deep = "deep";
        for (int level = 0; level < 300; ++level)
            deep += ":" + QByteArray::number(level % 7);
        keys.push_back(deep);
        keys.push_back(deep.left(deep.lastIndexOf(':'))); // the deep key's parent, a key too
        std::vector<KeyInfo> infos;
        for (std::size_t i = 0; i < keys.size(); ++i)
            infos.push_back(measuredKey(static_cast<KeyType>(random.bounded(6)), random.bounded(1, 1000),
                                        random.bounded(2) ? NoExpiry : 1'900'000'000'000 + qint64(i)));

        Keyspace oneByOne(split);
        std::vector<Keyspace::Insert> expected;
        for (std::size_t i = 0; i < keys.size(); ++i)
            expected.push_back(oneByOne.insert(keys[i], infos[i]));
        Keyspace batched(split);
        std::vector<Keyspace::Arrival> arrivals;
        for (std::size_t from = 0; from < keys.size();) {
            const std::size_t to = std::min(keys.size(), from + std::size_t(random.bounded(1, 700)));
            arrivals.clear();
            for (std::size_t i = from; i < to; ++i)
                arrivals.push_back({keys[i], &infos[i]});
            batched.insert(arrivals);
            for (std::size_t i = from; i < to; ++i) {
                QCOMPARE(arrivals[i - from].result, expected[i]);
                QCOMPARE(batched.path(arrivals[i - from].node), keys[i]);
            }
            from = to;
        }

        // The first info of each key stays (a duplicate leaves the key as it was), as the direct count has it.
        std::map<QByteArray, KeyInfo> truth;
        for (std::size_t i = 0; i < keys.size(); ++i)
            truth.emplace(keys[i], infos[i]);
        QCOMPARE(batched.keyCount(), truth.size());
        QCOMPARE(batched.nodeCount(), oneByOne.nodeCount());
        std::set<QByteArray> namespaces;
        for (const auto& [key, info] : truth) {
            const NodeId node = batched.find(key);
            QVERIFY(node != InvalidNode && batched.isKey(node));
            QCOMPARE(batched.keyInfo(node).memoryBytes, info.memoryBytes);
            QCOMPARE(batched.keyInfo(node).expiresAtMs, info.expiresAtMs);
            for (qsizetype at = 0; at < key.size(); ++at)
                if (split.contains(key[at]))
                    namespaces.insert(key.left(at));
        }
        for (const QByteArray& path : namespaces) {
            const NodeId node = batched.find(path);
            const NodeId same = oneByOne.find(path);
            QVERIFY(node != InvalidNode && same != InvalidNode);
            std::vector<QByteArray> children;
            std::vector<QByteArray> childrenOneByOne;
            for (const NodeId child : batched.children(node))
                children.push_back(batched.path(child));
            for (const NodeId child : oneByOne.children(same))
                childrenOneByOne.push_back(oneByOne.path(child));
            QCOMPARE(children, childrenOneByOne);
            std::uint32_t count = 0;
            std::uint64_t memory = 0;
            std::uint32_t withTtl = 0;
            for (const auto& [key, info] : truth) {
                if (key.size() > path.size() && key.startsWith(path) && split.contains(key[path.size()])) {
                    ++count;
                    memory += info.memoryBytes;
                    withTtl += info.expiresAtMs != NoExpiry;
                }
            }
            const NamespaceStats stats = batched.stats(node);
            QVERIFY2(stats.keys == count, path.left(60).constData());
            QCOMPARE(stats.memoryBytes, memory);
            QCOMPARE(stats.keysWithTtl, withTtl);
            QCOMPARE(stats.childCount, std::uint32_t(children.size()));
        }
    }

    // A store reserved for many keys re-reserves its tables from the first ones, on another thread, and moves to
    // them mid-scan: every key inserted before, during and after the move is found again, once.
    void aReservedStoreMovesToItsPreparedTables()
    {
        constexpr int Keys = 200'000; // re-reserved at 20,000 keys
        Keyspace keyspace;
        keyspace.reserve(Keys);
        const auto keyOf = [](int i) -> QByteArray {
            return "tenant" + QByteArray::number(i % 37) + ":user:" + QByteArray::number(i) + ":profile";
        };
        for (int i = 0; i < Keys; ++i) {
            if (i == 20'001)
                QThread::msleep(500); // the tables are ready by now: the next insert moves to them
            QVERIFY(keyspace.insert(keyOf(i), measuredKey(KeyType::Hash, 100 + i % 7, NoExpiry)) ==
                    Keyspace::Insert::Added);
        }
        QCOMPARE(keyspace.keyCount(), std::size_t(Keys));
        std::uint64_t memory = 0;
        for (int i = 0; i < Keys; ++i) {
            const NodeId node = keyspace.find(keyOf(i));
            QVERIFY2(node != InvalidNode && keyspace.isKey(node), keyOf(i).constData());
            QCOMPARE(keyspace.path(node), keyOf(i));
            QVERIFY(keyspace.insert(keyOf(i), measuredKey(KeyType::Hash, 1, NoExpiry)) == Keyspace::Insert::Duplicate);
            memory += 100 + i % 7;
        }
        QCOMPARE(keyspace.stats(Keyspace::root()).memoryBytes, memory);
        QCOMPARE(keyspace.children(Keyspace::root()).size(), std::size_t(37));
    }

    // Small namespaces add their keys up when asked, big ones and those over namespaces keep aggregates; a namespace
    // that grows from one into the other mid-way must count every key, child and finding once, as a direct count does.
    void smallAndKeptNamespacesCountAlike()
    {
        QRandomGenerator random(5);
        std::map<QByteArray, KeyInfo> keys;
        std::map<QByteArray, std::array<std::uint32_t, 3>> findings; // per key, per severity
        std::map<QByteArray, std::set<QByteArray>> children;         // per namespace prefix (with ':'), child paths
        Keyspace store;
        for (int i = 0; i < 6000; ++i) {
            // Ids with 1 to 14 attributes, so that some namespaces cross the point where they start keeping aggregates,
            // and now and then a deeper key under an attribute that was a plain key so far.
            const int id = random.bounded(400);
            QByteArray key = "user:" + QByteArray::number(id) + ":a" + QByteArray::number(random.bounded(14));
            if (random.bounded(10) == 0)
                key += ":deep" + QByteArray::number(random.bounded(3));
            const KeyInfo info = measuredKey(KeyType(random.bounded(6)), random.bounded(1, 900),
                                             random.bounded(2) ? NoExpiry : 1'900'000'000'000 + i);
            if (!keys.emplace(key, info).second)
                continue;
            NodeId node = InvalidNode;
            QCOMPARE(store.insert(key, info, &node), Keyspace::Insert::Added);
            for (qsizetype at = key.indexOf(':'); at >= 0; at = key.indexOf(':', at + 1)) {
                const qsizetype next = key.indexOf(':', at + 1);
                children[key.left(at + 1)].insert(key.left(next < 0 ? key.size() : next));
            }
            // Up to three findings of any severity, then sometimes one taken back.
            std::array<std::uint32_t, 3>& own = findings[key];
            own = {};
            for (unsigned rule = 0; rule < 3; ++rule) {
                if (random.bounded(2) == 0)
                    continue;
                const unsigned severity = random.bounded(3);
                store.addFinding(node, rule, severity);
                ++own[severity];
                if (random.bounded(4) == 0) {
                    store.removeFinding(node, rule, severity);
                    --own[severity];
                }
            }
        }
        for (const auto& [prefix, paths] : children) {
            const NodeId node = prefix == "user:" ? store.find("user") : store.find(prefix.chopped(1));
            QVERIFY(node != InvalidNode);
            std::uint32_t count = 0;
            std::uint64_t memory = 0;
            std::array<std::uint32_t, 3> bySeverity{};
            for (const auto& [key, info] : keys) {
                if (!key.startsWith(prefix))
                    continue;
                ++count;
                memory += info.memoryBytes;
                for (int severity = 0; severity < 3; ++severity)
                    bySeverity[severity] += findings[key][severity];
            }
            const NamespaceStats stats = store.stats(node);
            QCOMPARE(stats.keys, count);
            QCOMPARE(stats.memoryBytes, memory);
            QCOMPARE(stats.childCount, std::uint32_t(paths.size()));
            QVERIFY2(stats.findings == bySeverity, prefix.constData());
            QCOMPARE(store.namespaceMemory(node), memory);
            QCOMPARE(store.namespaceKeys(node), count);
        }
        // A key's own findings by severity, and in its row's totals: a key with an error and an info finding shows
        // one of each, not two errors.
        for (const auto& [key, own] : findings) {
            const NodeId node = store.find(key);
            QVERIFY(store.findingsBySeverity(node) == own);
            QCOMPARE(store.worstFinding(node), worstSeverity(own)); // kept apart from the counts, and told by them
            const SubtreeTotals totals = subtreeTotals(store, node);
            std::array<std::uint64_t, 3> expected{};
            for (int severity = 0; severity < 3; ++severity)
                expected[severity] = own[severity];
            if (store.hasChildren(node)) {
                const NamespaceStats below = store.stats(node);
                for (int severity = 0; severity < 3; ++severity)
                    expected[severity] += below.findings[severity];
            }
            QVERIFY(totals.findings == expected);
        }
    }

    void topKeysAreTheBiggest()
    {
        Keyspace keyspace;
        for (int i = 0; i < 1000; ++i)
            keyspace.insert(QByteArray("k:" + QByteArray::number(i)),
                            measuredKey(KeyType::String, std::uint64_t((i * 7919) % 1000)));
        const auto top = topKeysByMemory(keyspace, 5);
        QCOMPARE(top.size(), 5u);
        QCOMPARE(keyspace.keyInfo(top[0]).memoryBytes, 999u);
        for (std::size_t i = 1; i < top.size(); ++i)
            QVERIFY(keyspace.keyInfo(top[i - 1]).memoryBytes >= keyspace.keyInfo(top[i]).memoryBytes);
        const auto under = topKeysByMemory(keyspace, 3, keyspace.find("k"));
        QCOMPARE(under.size(), 3u);
        QCOMPARE(keyspace.keyInfo(under[0]).memoryBytes, 999u);
    }

    // NodeMap against std::map over random inserts, overwrites and erases of ids from a small range, so that runs
    // of neighbours form, wrap around the table's end, and close up after an erase.
    void nodeMapAgreesWithAnOrderedMap()
    {
        QRandomGenerator random(13);
        NodeMap<std::uint32_t> map;
        std::map<NodeId, std::uint32_t> truth;
        for (int step = 0; step < 200'000; ++step) {
            const NodeId node = random.bounded(3'000u);
            if (random.bounded(3u) == 0) {
                QCOMPARE(map.erase(node), truth.erase(node) == 1);
            } else {
                const std::uint32_t value = random.generate();
                map.insertOrAssign(node, value);
                truth[node] = value;
            }
            QCOMPARE(map.size(), truth.size());
            const NodeId probe = random.bounded(3'000u);
            const std::uint32_t* found = map.find(probe);
            const auto expected = truth.find(probe);
            QCOMPARE(found != nullptr, expected != truth.end());
            if (found)
                QCOMPARE(*found, expected->second);
        }
        std::map<NodeId, std::uint32_t> listed;
        map.forEach([&](NodeId node, std::uint32_t value) { QVERIFY(listed.emplace(node, value).second); });
        QCOMPARE(listed, truth);
        for (const auto& [node, value] : truth)
            QCOMPARE(*map.find(node), value);
    }

    void aReservedNodeMapDoesNotGrow()
    {
        NodeMap<std::uint32_t> map;
        QCOMPARE(map.find(7), nullptr);
        QVERIFY(!map.erase(7));
        map.reserve(100'000);
        const std::size_t bytes = map.memoryBytes();
        QVERIFY(bytes >= 100'000 * 8);
        for (NodeId node = 0; node < 100'000; ++node)
            map.insertOrAssign(node * 7, node);
        QCOMPARE(map.memoryBytes(), bytes);
        QCOMPARE(map.size(), 100'000u);
        QCOMPARE(*map.find(7 * 99'999), 99'999u);
    }

    void findsNothingUnknown()
    {
        Keyspace keyspace;
        keyspace.insert("a:b", measuredKey(KeyType::String, 1));
        QCOMPARE(keyspace.find("a:c"), InvalidNode);
        QCOMPARE(keyspace.find("zzz"), InvalidNode);
        QCOMPARE(keyspace.find("a:b:c"), InvalidNode);
    }
};

QTEST_APPLESS_MAIN(TestKeyspace)
#include "tst_keyspace.moc"
