#pragma once

#include "base/SlicedJob.h"
#include "base/WorkerJob.h"
#include "models/ChartData.h"
#include "models/NodeRef.h"
#include "patterns/PatternTree.h"

#include <QObject>

#include <memory>

namespace keylens::models {

class KeyspaceView;
class PatternTreeModel;

// Computes the charts of a node or pattern (a ChartWalk) without stalling the window: a slice of a few
// milliseconds per event-loop turn while a scan still writes to the store, or on a worker thread once it
// does not (a subtree of millions of keys). One job at a time; a new start() drops the running one.
//
// GUI thread only. cancel() before the store goes (ScanSession::aboutToReplaceStore).
class ChartJob : public QObject
{
    Q_OBJECT
public:
    explicit ChartJob(QObject* parent = nullptr);
    ~ChartJob() override;

    // `storeIsFinal`: nothing writes to the store until done() or cancel(); big walks then run on a
    // worker thread.
    void start(const keyspace::Keyspace& store, std::vector<keyspace::NodeId> roots, const ChartWalk::BarOf& barOf,
               bool storeIsFinal);
    // The charts of a node of the session's store (its root: the whole keyspace), a bar per child; nothing for a
    // stale reference.
    void startForNode(const KeyspaceView& keyspace, NodeRef node, bool storeIsFinal);
    // Of a pattern: its bars are its child patterns, the members' children grouped by their pattern.
    void startForPattern(const PatternTreeModel& model, patterns::PatternTree::PatternId pattern, bool storeIsFinal);
    void cancel();
    bool isRunning() const { return m_slices.isRunning() || m_worker.isRunning(); }
    // The store a running walk reads; null when none runs.
    const keyspace::Keyspace* store() const { return isRunning() && m_walk ? &m_walk->store() : nullptr; }

    // Subtrees above this many keys are walked on a worker thread when the store is final.
    static constexpr std::uint64_t WorkerThreshold = 200'000;

Q_SIGNALS:
    void done(const keylens::models::ChartData& data);

private:
    std::unique_ptr<ChartWalk> m_walk; // walked in slices or on the worker
    // Nodes walked between two looks for a cancel on the worker, and at most between two looks at the clock here.
    static constexpr std::size_t NodesPerCheck = 20'000;
    base::SlicedJob m_slices{NodesPerCheck, QStringLiteral("chart slices"), this};
    base::WorkerJob m_worker{QStringLiteral("keylens chart"), this, base::Priority::Normal};
};

} // namespace keylens::models
