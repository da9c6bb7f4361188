#pragma once

#include "keyspace/AccessFigures.h"
#include "keyspace/NamespaceStats.h"
#include "models/NodeRef.h"
#include "models/TopKeysQuery.h"

#include <QWidget>

#include <memory>

class QFormLayout;
class QLabel;
class QTreeWidget;

namespace keylens::models {
class ScanSession;
}

namespace keylens::ui {

// One namespace: its aggregates and its biggest keys. Clicking a top key selects it in the tree.
class NamespaceDetailsView : public QWidget
{
    Q_OBJECT
public:
    static constexpr int TopKeyCount = 25;

    explicit NamespaceDetailsView(const models::ScanSession& session, QWidget* parent = nullptr);

    // `topKeys` false keeps the top-keys list as it is: walking a big subtree every second while a
    // scan runs would stall the window, so a live refresh updates only the aggregates.
    void showNamespace(models::NodeRef node, bool topKeys = true);
    // A cluster's biggest keys show their hash slot.
    void setCluster(bool cluster);
    QString fieldText(const QString& field) const;
    QString notesText() const; // what the pane says below the figures (memory not measured or sampled, a library)
    bool isListingTopKeys() const;
    QTreeWidget* topKeys() const { return m_topKeys; }

Q_SIGNALS:
    void keyActivated(keylens::models::NodeRef node);

private:
    // "median 3d, 90% 40d; 1,204 keys idle past 7d hold 12 MiB (40% of the memory)"
    static QString idleText(const keyspace::AccessFigures& access, const keyspace::NamespaceStats& stats,
                            std::int64_t coldAfterSeconds, bool fromFile);
    const models::ScanSession& m_session;
    bool m_cluster = false;
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
    QLabel* m_idle;
    QLabel* m_change; // since the scan compared with, while comparing
    QLabel* m_notes;
    QTreeWidget* m_topKeys;
    struct TopKeysOf
    {
        models::NodeRef node;   // of a store: another store lists again
        std::uint64_t keys = 0; // the store's, when they were listed
        bool operator==(const TopKeysOf&) const = default;
    };
    TopKeysOf m_topKeysOf; // what m_topKeys lists, or is being listed
    models::TopKeysQuery* m_query;
    void showTopKeys(const std::vector<models::TopKeysQuery::Key>& keys);
};

} // namespace keylens::ui
