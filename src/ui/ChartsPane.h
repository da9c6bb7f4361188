#pragma once

#include "models/NodeRef.h"
#include "patterns/PatternTree.h"

#include <QElapsedTimer>
#include <QWidget>

#include <optional>

namespace keylens::models {
class ChartJob;
class KeyspaceView;
class PatternTreeModel;
} // namespace keylens::models

namespace keylens::ui {

class ChartsView;

// The Charts tab: which node or pattern the charts are of, and keeping them current without stalling the
// window (a models::ChartJob computes them; while a scan runs, at most every two seconds).
class ChartsPane : public QWidget
{
    Q_OBJECT
public:
    explicit ChartsPane(const models::KeyspaceView& keyspace, QWidget* parent = nullptr);
    ~ChartsPane() override;

    // Made when first asked for or shown: seven plots each replot once when made (QCustomPlot queues it), 12-14 ms
    // apiece, which a window that never shows its charts paid at start.
    ChartsView* view();
    models::ChartJob* job() const { return m_job; }

    // The subject: a store node (the root for the whole keyspace), or a pattern of many members.
    void showNode(models::NodeRef node);
    void showPattern(const models::PatternTreeModel& model, patterns::PatternTree::PatternId pattern);
    // Computes the charts again if they show (`storeIsFinal`: the scan is over); while a scan runs, only
    // when the last count is two seconds old.
    void refresh(bool storeIsFinal, bool force = false);
    // The store is about to go: stops reading it, and starts nothing until the session's KeyspaceView has the next
    // one (the trees' resets in between select nothing, which asks for the whole keyspace's charts).
    void forgetStore();

protected:
    void showEvent(QShowEvent* event) override;

private:
    bool isShown() const;

    const models::KeyspaceView& m_keyspace;
    ChartsView* m_view = nullptr;
    models::ChartJob* m_job;
    models::NodeRef m_node; // null: the whole keyspace
    const models::PatternTreeModel* m_patterns = nullptr;
    std::optional<patterns::PatternTree::PatternId> m_pattern;
    bool m_stale = true;       // the subject changed since the charts were counted
    bool m_storeGoing = false; // between forgetStore() and the KeyspaceView's storeReplaced()
    QElapsedTimer m_sinceCount;
};

} // namespace keylens::ui
