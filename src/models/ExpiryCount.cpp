#include "models/ExpiryCount.h"

#include "keyspace/Keyspace.h"
#include "models/KeyspaceView.h"

namespace keylens::models {

ExpiryCount::ExpiryCount(const KeyspaceView& keyspace, QObject* parent)
    : QObject(parent)
    , m_keyspace(keyspace)
{
    connect(&keyspace, &KeyspaceView::storeReplaced, this, &ExpiryCount::reset);
}

void ExpiryCount::reset()
{
    m_walk.cancel();
    m_timeline = {};
}

void ExpiryCount::start()
{
    reset();
    if (!m_keyspace.hasStore())
        return;
    m_walk.start([this](std::size_t nodes) { return m_timeline.collect(*m_keyspace.store(), nodes); },
                 [this] { Q_EMIT ready(); });
}

std::optional<std::uint64_t> ExpiryCount::expiredBy(std::int64_t nowMs)
{
    if (!m_timeline.isComplete() || m_timeline.isEmpty())
        return std::nullopt;
    return m_timeline.expiredBy(nowMs);
}

} // namespace keylens::models
