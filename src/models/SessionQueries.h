#pragma once

#include "edit/KeySelection.h"
#include "models/NodeRef.h"
#include "patterns/PatternTree.h"

#include <QByteArray>

#include <vector>

namespace keylens::models {

class ScanSession;

// What the window's actions ask of the session's store, answered in this layer so that the widgets never hold the
// store: the keys a bulk action acts on, the naming-variants rename plan, the exports. A stale reference (of a
// store before a rescan) selects nothing.

// A node and every key below it (edit::selectSubtree).
edit::KeySelection selectSubtree(const ScanSession& session, NodeRef node);
// The keys of a pattern of the session's pattern tree (edit::selectPattern); nothing while the tree is live.
edit::KeySelection selectPattern(const ScanSession& session, patterns::PatternTree::PatternId pattern);
// The keys with a finding of one rule (its index in lint::allRules()).
edit::KeySelection selectKeysWithFinding(const ScanSession& session, int rule);

// One key of the naming-variants rename plan: its name now, the conventional one, and whether that one is taken
// (a key of the store, or an earlier row's).
struct RenameRow
{
    NodeRef node;
    QByteArray from;
    QByteArray to;
    bool taken = false;
};
std::vector<RenameRow> namingVariantRenamePlan(const ScanSession& session);
// The rows' keys and their new names, in one order, for the bulk rename; a row that is no key of the current store (a
// rescan replaced it, an edit removed it) is left out of both.
struct RenameSelection
{
    edit::KeySelection keys;
    std::vector<QByteArray> names;
};
RenameSelection selectRenames(const ScanSession& session, const std::vector<RenameRow>& rows);

// The children of a node as a table (TableExport.h): CSV or JSON; a stale reference gives the root's.
QByteArray childrenTable(const ScanSession& session, NodeRef node, bool json);
// The whole tree, level by level, as keylens-cli scan's JSON report, with the patterns.
QByteArray treeReportJson(const ScanSession& session, std::int64_t nowMs);

} // namespace keylens::models
