#pragma once

#include "base/SlicedJob.h"
#include "report/FindingGroups.h"

#include <QByteArray>
#include <QHash>
#include <QObject>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace keylens::lint {
class Linter;
}

namespace keylens::models {

class KeyspaceView;

// What the Findings panel shows of a grouping: the groups, the number of patterns, and under which pattern each
// example the linter keeps belongs (the panel reads no store to place them).
struct GroupedFindings
{
    std::vector<report::FindingGroup> groups; // by rule, then by keys (report::FindingGroups' order)
    std::uint64_t patternCount = 0;
    QHash<QByteArray, QByteArray> patternOfExample; // lint::RuleSummary::examples' keys -> their pattern
};

// The findings of a finished scan grouped by rule and pattern (report::FindingGroups), for the Findings panel:
// grouping reads every node with a finding and folds its key, a quarter of a second at a million keys, too long for
// one event. The first slice runs at once (a small store is done in it), the rest a slice per turn of the event loop.
// A new store drops a grouping under way.
//
// GUI thread only.
class FindingGrouping : public QObject
{
    Q_OBJECT
public:
    explicit FindingGrouping(const KeyspaceView& keyspace, QObject* parent = nullptr);
    ~FindingGrouping() override;

    // The groups of the linter's findings over the session's store: true when they are ready now (take them);
    // false while they are still being grouped (ready() then brings the caller back). Asked again with the same
    // linter unchanged since (lint::Linter::changes()), it goes on with the grouping under way.
    bool request(const lint::Linter& linter);
    // The groups once ready (nothing while the grouping is under way, or after they were taken).
    std::optional<GroupedFindings> take();
    bool isRunning() const { return m_groups != nullptr; }
    void cancel();

Q_SIGNALS:
    void ready();

private:
    const KeyspaceView& m_keyspace;
    std::unique_ptr<report::FindingGroups> m_groups; // under way or ready
    std::uint64_t m_generation = 0;                  // of the store, the linter and the findings grouped
    const lint::Linter* m_linter = nullptr;
    std::uint64_t m_changes = 0; // lint::Linter::changes() when grouped
    bool m_inFirstSlice = false; // run by request() itself: ready, not announced
    base::SlicedJob m_slices{4096, QStringLiteral("finding groups"), this};
};

} // namespace keylens::models
