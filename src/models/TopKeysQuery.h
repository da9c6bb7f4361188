#pragma once

#include "base/SlicedJob.h"
#include "keyspace/NamespaceStats.h"
#include "models/NodeRef.h"

#include <QByteArray>
#include <QObject>

#include <functional>
#include <memory>
#include <vector>

namespace keylens::keyspace {
class TopKeysWalk;
}

namespace keylens::models {

class KeyspaceView;

// The biggest keys of a namespace by measured memory, for the details pane: the subtree walk is linear in its size
// (60 ms for 300,000 keys), so it runs a few milliseconds per event-loop turn. A new store (a rescan) drops the walk:
// it read the old one.
//
// GUI thread only.
class TopKeysQuery : public QObject
{
    Q_OBJECT
public:
    struct Key
    {
        NodeRef node;
        QByteArray path;
        keyspace::KeyInfo info;
    };

    explicit TopKeysQuery(const KeyspaceView& view, QObject* parent = nullptr);
    ~TopKeysQuery() override;

    // Looks for the `count` biggest keys at or below `under`, dropping a query that runs; `found` gets them, biggest
    // first, unless the query is dropped before it ends. A small namespace is done before this returns.
    void start(NodeRef under, std::size_t count, std::function<void(std::vector<Key>)> found);
    void cancel();
    bool isRunning() const { return m_slices.isRunning(); }

private:
    const KeyspaceView& m_view;
    std::unique_ptr<keyspace::TopKeysWalk> m_walk;
    // A step of 20,000 nodes took up to 3 ms, in random order over the store: at most 4,096 per look at the clock.
    base::SlicedJob m_slices{4096, QStringLiteral("top keys"), this};
};

} // namespace keylens::models
