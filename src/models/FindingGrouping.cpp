#include "models/FindingGrouping.h"

#include "keyspace/Keyspace.h"
#include "lint/Linter.h"
#include "models/KeyspaceView.h"

namespace keylens::models {

FindingGrouping::FindingGrouping(const KeyspaceView& keyspace, QObject* parent)
    : QObject(parent)
    , m_keyspace(keyspace)
{
    connect(&keyspace, &KeyspaceView::storeReplaced, this, &FindingGrouping::cancel);
}

FindingGrouping::~FindingGrouping() = default;

bool FindingGrouping::request(const lint::Linter& linter)
{
    const bool same =
        m_groups && m_generation == m_keyspace.generation() && m_linter == &linter && m_changes == linter.changes();
    if (same)
        return !m_slices.isRunning();
    if (!m_keyspace.hasStore())
        return false;
    m_groups = std::make_unique<report::FindingGroups>(*m_keyspace.store(), linter.libraries(),
                                                       report::FindingGroups::Stepwise{}, linter.coveredFindings());
    m_generation = m_keyspace.generation();
    m_linter = &linter;
    m_changes = linter.changes();
    m_inFirstSlice = true;
    m_slices.start([this](std::size_t nodes) { return m_groups->step(nodes); },
                   [this] {
                       if (!m_inFirstSlice)
                           Q_EMIT ready();
                   },
                   true);
    m_inFirstSlice = false;
    return !m_slices.isRunning();
}

std::optional<GroupedFindings> FindingGrouping::take()
{
    if (m_slices.isRunning() || !m_groups || !m_linter)
        return std::nullopt;
    GroupedFindings grouped;
    grouped.groups = m_groups->groups();
    grouped.patternCount = m_groups->patternCount();
    // A lookup in the store per example (a few per rule), while the store the groups were made of is the view's.
    for (const lint::RuleSummary& summary : m_linter->summaries())
        for (const lint::Finding& finding : summary.examples)
            grouped.patternOfExample.insert(finding.key, m_groups->patternOf(finding.key));
    m_groups.reset();
    return grouped;
}

void FindingGrouping::cancel()
{
    m_slices.cancel();
    m_groups.reset();
}

} // namespace keylens::models
