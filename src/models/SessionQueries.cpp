#include "models/SessionQueries.h"

#include "edit/RenamePlan.h"
#include "keyspace/Keyspace.h"
#include "lint/Linter.h"
#include "models/KeyspaceView.h"
#include "models/PatternTreeModel.h"
#include "models/ScanSession.h"
#include "models/TableExport.h"
#include "report/JsonReport.h"
#include "report/ScanReport.h"

namespace keylens::models {

edit::KeySelection selectSubtree(const ScanSession& session, NodeRef node)
{
    const KeyspaceView& view = session.view();
    return view.isCurrent(node) ? edit::selectSubtree(*view.store(), node.node) : edit::KeySelection{};
}

edit::KeySelection selectPattern(const ScanSession& session, patterns::PatternTree::PatternId pattern)
{
    const patterns::PatternTree* tree = session.patternModel()->tree();
    if (!tree || tree->isLive() || pattern >= tree->size())
        return {};
    return edit::selectPattern(session.keyspace(), *tree, pattern);
}

edit::KeySelection selectKeysWithFinding(const ScanSession& session, int rule)
{
    const keyspace::Keyspace& store = session.keyspace();
    if (rule < 0 || std::size_t(rule) >= lint::allRules().size())
        return {};
    std::vector<keyspace::NodeId> nodes;
    for (keyspace::NodeId node = 1; node < store.nodeCount(); ++node)
        if (store.isKey(node) && (store.findingRules(node) >> rule & 1))
            nodes.push_back(node);
    return edit::selectNodes(store, nodes, lint::allRules()[std::size_t(rule)].id);
}

std::vector<RenameRow> namingVariantRenamePlan(const ScanSession& session)
{
    const keyspace::Keyspace& store = session.keyspace();
    const auto plan = session.linter().namingVariantRenames(store);
    std::vector<QByteArray> targets;
    for (const auto& [node, renamed] : plan)
        targets.push_back(renamed);
    const std::vector<bool> collisions = edit::renameCollisions(store, targets);
    std::vector<RenameRow> rows;
    rows.reserve(plan.size());
    for (std::size_t i = 0; i < plan.size(); ++i)
        rows.push_back({session.view().ref(plan[i].first), store.path(plan[i].first), plan[i].second, collisions[i]});
    return rows;
}

RenameSelection selectRenames(const ScanSession& session, const std::vector<RenameRow>& rows)
{
    RenameSelection selection;
    std::vector<keyspace::NodeId> nodes;
    for (const RenameRow& row : rows) {
        if (session.view().isKey(row.node)) { // as selectNodes keeps them: a key of the current store
            nodes.push_back(row.node.node);
            selection.names.push_back(row.to);
        }
    }
    selection.keys = edit::selectNodes(session.keyspace(), nodes, QByteArrayLiteral("naming-variants"));
    return selection;
}

QByteArray childrenTable(const ScanSession& session, NodeRef node, bool json)
{
    const keyspace::NodeId at = session.view().isCurrent(node) ? node.node : keyspace::RootNode;
    return json ? childrenJson(session.keyspace(), at) : childrenCsv(session.keyspace(), at);
}

QByteArray treeReportJson(const ScanSession& session, std::int64_t nowMs)
{
    report::ReportOptions options;
    options.depth = report::MaxDepth; // the whole tree, level by level…
    options.width = 1000;             // …with the biggest thousand namespaces of a level listed, the rest summed
    options.top = 100;
    options.patterns = true;
    const scan::ScanSummary summary = session.summary().value_or(scan::ScanSummary{});
    return report::toJson(report::buildReport(session.keyspace(), summary, 0, options, nowMs));
}

} // namespace keylens::models
