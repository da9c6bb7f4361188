#include "models/TopKeysQuery.h"

#include "keyspace/Keyspace.h"
#include "keyspace/TopKeys.h"
#include "models/KeyspaceView.h"

namespace keylens::models {

TopKeysQuery::TopKeysQuery(const KeyspaceView& view, QObject* parent)
    : QObject(parent)
    , m_view(view)
{
    connect(&view, &KeyspaceView::storeReplaced, this, &TopKeysQuery::cancel);
}

TopKeysQuery::~TopKeysQuery() = default;

void TopKeysQuery::start(NodeRef under, std::size_t count, std::function<void(std::vector<Key>)> found)
{
    cancel();
    if (!m_view.isCurrent(under))
        return;
    m_walk = std::make_unique<keyspace::TopKeysWalk>(*m_view.store(), count, under.node);
    m_slices.start([this](std::size_t nodes) { return m_walk->step(nodes); },
                   [this, found = std::move(found)] {
                       const keyspace::Keyspace& store = *m_view.store();
                       std::vector<Key> keys;
                       for (const keyspace::NodeId key : m_walk->result())
                           keys.push_back({m_view.ref(key), store.path(key), store.keyInfo(key)});
                       m_walk.reset();
                       found(std::move(keys));
                   },
                   true);
}

void TopKeysQuery::cancel()
{
    m_slices.cancel();
    m_walk.reset();
}

} // namespace keylens::models
