#include "models/FindingGrouping.h"

#include "keyspace/Keyspace.h"
#include "lint/Linter.h"
#include "models/KeyspaceView.h"
#include "report/FindingGroups.h"

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
        m_groups && m_generation == m_keyspace.generation() && m_linter == &linter && m_findings == linter.findings();
    if (same)
        return !m_slices.isRunning();
    if (!m_keyspace.hasStore())
        return false;
    m_groups = std::make_unique<report::FindingGroups>(*m_keyspace.store(), linter.libraries(),
                                                       report::FindingGroups::Stepwise{});
    m_generation = m_keyspace.generation();
    m_linter = &linter;
    m_findings = linter.findings();
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

std::unique_ptr<report::FindingGroups> FindingGrouping::take()
{
    if (m_slices.isRunning())
        return nullptr;
    return std::move(m_groups);
}

void FindingGrouping::cancel()
{
    m_slices.cancel();
    m_groups.reset();
}

} // namespace keylens::models
