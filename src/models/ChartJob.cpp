#include "models/ChartJob.h"

#include "keyspace/KeyEscape.h"
#include "lint/SegmentShape.h"
#include "models/DisplayText.h"
#include "models/KeyspaceView.h"
#include "models/PatternTreeModel.h"

#include <QDateTime>

namespace keylens::models {

namespace {

// A bar's label: the child's segment as a pattern spells it (`<hex>` for an id), escaped as redis-cli shows it.
// Children that are ids share one bar: one each made a namespace of ids nine ids and "26,291 others".
QString segmentLabel(const keyspace::Keyspace& store, keyspace::NodeId child)
{
    return displayText(keyspace::displayBytes(lint::patternOf(store.segment(child))));
}

} // namespace

ChartJob::ChartJob(QObject* parent)
    : QObject(parent)
{}

ChartJob::~ChartJob()
{
    cancel();
}

void ChartJob::startForNode(const KeyspaceView& keyspace, NodeRef node, bool storeIsFinal)
{
    if (!keyspace.isCurrent(node)) {
        cancel();
        return;
    }
    const keyspace::Keyspace& store = *keyspace.store();
    start(
        store, {node.node}, [&store](keyspace::NodeId child) { return segmentLabel(store, child); }, storeIsFinal);
}

void ChartJob::startForPattern(const PatternTreeModel& model, patterns::PatternTree::PatternId pattern,
                               bool storeIsFinal)
{
    const patterns::PatternTree* tree = model.tree();
    if (!tree || !model.keyspace() || pattern >= tree->size()) {
        cancel();
        return;
    }
    const keyspace::Keyspace& store = *model.keyspace();
    // The children's patterns, spelled as in the Keys view's charts (the exact tree keeps a few ids unfolded).
    start(
        store, tree->members(pattern), [&store](keyspace::NodeId child) { return segmentLabel(store, child); },
        storeIsFinal);
}

void ChartJob::cancel()
{
    m_slices.cancel();
    m_worker.cancel();
    m_walk.reset();
}

void ChartJob::start(const keyspace::Keyspace& store, std::vector<keyspace::NodeId> roots,
                     const ChartWalk::BarOf& barOf, bool storeIsFinal)
{
    cancel();
    std::uint64_t keys = 0;
    for (const keyspace::NodeId root : roots)
        keys += store.stats(root).keys + (store.isKey(root) ? 1 : 0);
    m_walk = std::make_unique<ChartWalk>(store, std::move(roots), QDateTime::currentMSecsSinceEpoch(), barOf);
    auto deliver = [this] {
        const ChartData data = m_walk->result();
        m_walk.reset();
        Q_EMIT done(data);
    };
    if (!storeIsFinal || keys < WorkerThreshold) {
        m_slices.start([this](std::size_t nodes) { return m_walk->step(nodes); }, deliver,
                       true); // small ones are done at once
        return;
    }
    m_worker.start(
        [this] {
            while (!m_walk->step(NodesPerCheck) && !m_worker.cancelled()) {
            }
        },
        deliver);
}

} // namespace keylens::models
