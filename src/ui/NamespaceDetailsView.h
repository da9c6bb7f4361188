#pragma once

#include "base/SlicedJob.h"
#include "keyspace/Keyspace.h"
#include "keyspace/MemoryEstimate.h"
#include "keyspace/TopKeys.h"

#include <QWidget>

#include <memory>

class QFormLayout;
class QLabel;
class QTreeWidget;

namespace keylens::models {
class KeyTreeModel;
}

namespace keylens::ui {

// One namespace: its aggregates and its biggest keys. Clicking a top key selects it in the tree.
class NamespaceDetailsView : public QWidget
{
    Q_OBJECT
public:
    static constexpr int TopKeyCount = 25;

    explicit NamespaceDetailsView(QWidget* parent = nullptr);

    // `topKeys` false keeps the top-keys list as it is: walking a big subtree every second while a
    // scan runs would stall the window, so a live refresh updates only the aggregates.
    void showNamespace(const models::KeyTreeModel& model, keyspace::NodeId node, bool topKeys = true);
    // A cluster's biggest keys show their hash slot.
    void setCluster(bool cluster);
    // A sampled scan's estimates: the memory line shows the estimate and its bound. Null for a full scan.
    void setSampledMemory(const keyspace::SampledMemory* sampled) { m_sampled = sampled; }
    QString fieldText(const QString& field) const;
    // The store is about to go: the top-keys walk stops.
    void forgetStore();
    bool isListingTopKeys() const { return m_walk != nullptr; }
    QTreeWidget* topKeys() const { return m_topKeys; }

Q_SIGNALS:
    void keyActivated(keyspace::NodeId node);

private:
    bool m_cluster = false;
    const keyspace::SampledMemory* m_sampled = nullptr;
    QLabel* m_title;
    QFormLayout* m_form;
    QLabel* m_keys;
    QLabel* m_memory;
    QLabel* m_share;
    QLabel* m_ttl;
    QLabel* m_expiry;
    QLabel* m_types;
    QLabel* m_children;
    QLabel* m_findings;
    QLabel* m_notes;
    QTreeWidget* m_topKeys;
    struct TopKeysOf
    {
        const keyspace::Keyspace* store = nullptr;
        keyspace::NodeId node = keyspace::InvalidNode;
        std::uint64_t keys = 0; // the store's, when they were listed
        bool operator==(const TopKeysOf&) const = default;
    };
    TopKeysOf m_topKeysOf; // what m_topKeys lists
    // Lists the finished walk's keys.
    void showTopKeys();
    std::unique_ptr<keyspace::TopKeysWalk> m_walk; // in progress
    // A step of 20,000 nodes took up to 3 ms here, in random order over the store: at most 4,096 per look at the clock.
    base::SlicedJob m_walkSlices{4096, QStringLiteral("top keys"), this};
};

} // namespace keylens::ui
