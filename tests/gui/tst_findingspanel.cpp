// The Findings panel on its own, over a linted store: its pattern rows and the examples under them, as
// models::FindingGrouping groups them (the panel reads no store), and their memory as the units say it.
#include "LintedStore.h"
#include "models/KeyspaceView.h"
#include "ui/FindingsPanel.h"

#include <QTest>
#include <QTreeWidget>

#include <map>

using namespace keylens;

class TestFindingsPanel : public QObject
{
    Q_OBJECT

    // The pattern rows of a rule, by their text.
    static std::map<QString, QTreeWidgetItem*> patternRows(const ui::FindingsPanel& panel, const QString& rule)
    {
        std::map<QString, QTreeWidgetItem*> rows;
        QTreeWidget* list = panel.list();
        for (int i = 0; i < list->topLevelItemCount(); ++i) {
            QTreeWidgetItem* item = list->topLevelItem(i);
            if (!item->text(0).startsWith(rule))
                continue;
            for (int child = 0; child < item->childCount(); ++child)
                rows[item->child(child)->text(0)] = item->child(child);
        }
        return rows;
    }

private Q_SLOTS:
    // A pattern whose keys were not all measured shows its memory as a lower bound: "≥ 150 B", the sign decoded as
    // the UTF-8 it is (it was read as Latin-1: "â‰¥ 150 B").
    void aLowerBoundShowsItsSign()
    {
        std::vector<test::Key> keys;
        for (int i = 0; i < 4; ++i) // uppercase: one pattern, `User:<int>`
            keys.push_back({"User:" + QByteArray::number(i), keyspace::NoExpiry, keyspace::KeyType::String, 50});
        test::Linted linted(keys);
        // One key's memory not measured (MEMORY USAGE denied): the pattern's sum is a lower bound.
        keyspace::KeyInfo unmeasured;
        unmeasured.type = keyspace::KeyType::String;
        keyspace::NodeId node = keyspace::InvalidNode;
        linted.store.insert("User:4", unmeasured, &node);
        linted.linter.keyAdded(linted.store, node, "User:4", unmeasured);

        models::KeyspaceView view;
        view.setStore(&linted.store);
        ui::FindingsPanel panel(view);
        panel.showFindings(linted.linter, false);
        QTRY_VERIFY(!panel.isGrouping());
        panel.showFindings(linted.linter, false);

        const auto rows = patternRows(panel, QStringLiteral("uppercase"));
        const auto row = rows.find(QStringLiteral("User:<int>"));
        QVERIFY(row != rows.end());
        QCOMPARE(row->second->text(1), QStringLiteral("\u2265 200 B"));
        QVERIFY(row->second->toolTip(0).endsWith(QStringLiteral("\u2265 200 B")));
        // Its examples sit under it: FindingGrouping placed them.
        QVERIFY(row->second->childCount() > 0);
        QVERIFY(row->second->child(0)->text(0).startsWith(QStringLiteral("User:")));
    }

    // A rule's row counts the keys its findings stand for: a pattern's one key-length finding stands for all its long
    // keys, and the row said 1 (the findings) beside a pattern row of 12 (the keys).
    void aRuleRowCountsTheKeysItsFindingsCover()
    {
        std::vector<test::Key> keys;
        for (int i = 0; i < 12; ++i) // 12 names of 52 bytes or more: one pattern, `cart:<int>:…`, folded into one
            keys.push_back({"cart:" + QByteArray::number(i) + ":line_items_with_their_discounts_applied_already",
                            keyspace::NoExpiry, keyspace::KeyType::String, 50});
        test::Linted linted(keys);
        models::KeyspaceView view;
        view.setStore(&linted.store);
        ui::FindingsPanel panel(view);
        panel.showFindings(linted.linter, false);
        QTRY_VERIFY(!panel.isGrouping());
        panel.showFindings(linted.linter, false);

        QTreeWidget* list = panel.list();
        QTreeWidgetItem* rule = nullptr;
        for (int i = 0; i < list->topLevelItemCount(); ++i) {
            if (list->topLevelItem(i)->text(0).startsWith(QStringLiteral("key-length")))
                rule = list->topLevelItem(i);
        }
        QVERIFY(rule);
        QVERIFY(rule->childCount() > 0);
        std::uint64_t patternKeys = 0;
        for (int child = 0; child < rule->childCount(); ++child)
            patternKeys += rule->child(child)->text(2).remove(u',').toULongLong();
        QCOMPARE(patternKeys, std::uint64_t(12));
        QCOMPARE(rule->text(2), QStringLiteral("12"));
    }
};

QTEST_MAIN(TestFindingsPanel)
#include "tst_findingspanel.moc"
