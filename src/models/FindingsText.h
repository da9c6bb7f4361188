#pragma once

#include "keyspace/NodeId.h"
#include "models/NodeRef.h"

#include <QString>

#include <array>
#include <cstdint>

namespace keylens::models {

class KeyspaceView;

// How the tree shows lint findings: counts per severity (lint::Severity's values) as one cell, a sort
// key, and the tooltip lines. Kept apart from the tree model, which only totals them.

// The number of findings in a subtree, empty without any; the delegate colours it by the worst.
QString findingsCell(const std::array<std::uint64_t, 3>& bySeverity);
// Worst severity first, then the count: a namespace with one error sorts above one with 100 infos.
std::uint64_t findingsSortKey(const std::array<std::uint64_t, 3>& bySeverity);
// "2 errors, 5 warnings, 5 info", leaving out the severities without any.
QString findingsBySeverity(const std::array<std::uint64_t, 3>& bySeverity);
// "12 naming findings: 2 errors, 5 warnings, 5 info"
QString findingsSummary(const std::array<std::uint64_t, 3>& bySeverity);
// The rules that fired on one key, a line each with the rule's rationale; empty without any.
QString findingsOfKey(const keyspace::Keyspace& store, keyspace::NodeId key);
// The same as one line of rule ids and the worst severity: "uppercase, key-length (worst: warning)";
// "none" without any.
QString findingRulesOfKey(const keyspace::Keyspace& store, keyspace::NodeId key);
// The same for the window's reference: "none" for a stale one.
QString findingRulesOfKey(const KeyspaceView& view, NodeRef key);

} // namespace keylens::models
