// The big-key and missing-TTL rules at their thresholds, and with TTLs that were not measured.
#include "TestKeys.h"
#include "lint/OverlayRules.h"

#include <QTest>

using namespace keylens;
using keyspace::KeyType;

class TestOverlayRules : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void bigValuesAtTheirThresholds()
    {
        QVERIFY(!lint::isBigString(10 * 1024));
        QVERIFY(lint::isBigString(10 * 1024 + 1));
        QVERIFY(!lint::isBigCollection(5000));
        QVERIFY(lint::isBigCollection(5001));
        QVERIFY(lint::mayBeBigKey(test::measuredKey(KeyType::Hash, 10 * 1024 + 1), 8));
        QVERIFY(!lint::mayBeBigKey(test::measuredKey(KeyType::Hash, 10 * 1024), 8));
        QVERIFY(lint::mayBeBigKey(test::measuredKey(KeyType::String, 10 * 1024 + 9), 8));
        QVERIFY(!lint::mayBeBigKey(test::measuredKey(KeyType::String, 10 * 1024 + 8), 8)); // the rest is the name
        keyspace::KeyInfo unmeasured = test::measuredKey(KeyType::Set, 1 << 20);
        unmeasured.memoryMeasured = false;
        QVERIFY(lint::mayBeBigKey(unmeasured, 8)); // MEMORY USAGE denied: only its length can tell
        unmeasured.type = KeyType::Other;
        QVERIFY(!lint::mayBeBigKey(unmeasured, 8));
        // Lengths decide: STRLEN for a string, the element count for a collection.
        QVERIFY(lint::isBigKey(KeyType::String, 10 * 1024 + 1));
        QVERIFY(!lint::isBigKey(KeyType::String, 10 * 1024));
        QVERIFY(lint::isBigKey(KeyType::List, 5001));
        QVERIFY(!lint::isBigKey(KeyType::List, 5000));
        QVERIFY(!lint::isBigKey(KeyType::Other, 1 << 30));
    }

    void missingTtlAmongExpiringSiblings()
    {
        keyspace::NamespaceStats siblings;
        for (int i = 0; i < 3; ++i)
            siblings.add(test::measuredKey(KeyType::String, 10, 1'000'000));
        const keyspace::KeyInfo persistent = test::measuredKey(KeyType::String, 10);
        siblings.add(persistent);
        QVERIFY(lint::lacksTtlAmongExpiring(persistent, siblings));
        QVERIFY(lint::hasKeysLackingTtlAmongExpiring(siblings));

        // Keys whose PTTL was denied are neither: they neither make a namespace volatile nor lack a TTL.
        keyspace::KeyInfo unknown = test::measuredKey(KeyType::String, 10, keyspace::ExpiryUnknown);
        keyspace::NamespaceStats mostlyUnknown;
        for (int i = 0; i < 10; ++i)
            mostlyUnknown.add(unknown);
        mostlyUnknown.add(test::measuredKey(KeyType::String, 10, 1'000'000));
        QVERIFY(!lint::lacksTtlAmongExpiring(unknown, mostlyUnknown));
        QVERIFY(!lint::hasKeysLackingTtlAmongExpiring(mostlyUnknown));
        mostlyUnknown.add(persistent);
        QVERIFY(!lint::hasKeysLackingTtlAmongExpiring(mostlyUnknown)); // one of two measured keys expires: no majority
    }

    void textsCarryTheThresholds()
    {
        QVERIFY(lint::bigKeyText().explanation.contains(QStringLiteral("10 KB")));
        QVERIFY(lint::bigKeyText().explanation.contains(QStringLiteral("5,000 elements")));
        QVERIFY(lint::bigCollectionProbeText().contains(QStringLiteral("10 KB")));
    }
};

QTEST_GUILESS_MAIN(TestOverlayRules)
#include "tst_overlayrules.moc"
