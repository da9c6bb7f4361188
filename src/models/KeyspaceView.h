#pragma once

#include "keyspace/AccessFigures.h"
#include "keyspace/Delimiters.h"
#include "keyspace/NamespaceStats.h"
#include "keyspace/SubtreeTotals.h"
#include "models/NodeRef.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QObject>

#include <cstdint>
#include <optional>

namespace keylens::models {

// What the window may ask of the session's key store, by NodeRef and by value: the widgets see the store through
// this and the item models, never its class, so that a rescan (a new store) cannot leave them reading a freed one
// or misreading a new one with an old node id. A reference to an earlier store gets empty answers (isCurrent()
// false), as a node that does not exist would.
//
// One per session, for its life: widgets keep a pointer to it rather than to a store. GUI thread only, as the
// store is.
class KeyspaceView : public QObject
{
    Q_OBJECT
public:
    explicit KeyspaceView(QObject* parent = nullptr);

    // Where a store's keys came from. An RDB file's memory figures are estimated, not measured (every pane that
    // shows one says so), and its idle times are there only when it was saved under an LRU or LFU policy.
    enum class Origin { Server, RdbFile };

    // The session's store from now on (bumps the generation); nullptr for none.
    void setStore(const keyspace::Keyspace* store, Origin origin = Origin::Server);
    bool fromFile() const { return m_origin == Origin::RdbFile; }
    bool memoryEstimated() const { return fromFile(); }
    std::uint64_t generation() const { return m_generation; }
    bool hasStore() const { return m_store != nullptr; }

    NodeRef root() const { return ref(keyspace::RootNode); }
    // A node of the current store (from an item model's index or a signal of this store).
    NodeRef ref(keyspace::NodeId node) const;
    bool isCurrent(NodeRef ref) const;
    // The node id in the current store, or InvalidNode for a stale or null reference: for the item models, which
    // speak node ids of the store they were given.
    keyspace::NodeId nodeOf(NodeRef ref) const { return isCurrent(ref) ? ref.node : keyspace::InvalidNode; }
    // The node whose path is exactly `path` (a key or a namespace), or a null reference.
    NodeRef find(QByteArrayView path) const;

    QByteArray path(NodeRef ref) const;
    // The node's path and the delimiter after it: what its keys start with (`cache:`); empty for the root.
    QByteArray namespacePrefix(NodeRef ref) const;
    // The glob that matches the keys below it (Keyspace::namespaceGlob): `cache:*`.
    QByteArray namespaceGlob(NodeRef ref) const;
    QByteArray segment(NodeRef ref) const;
    bool isKey(NodeRef ref) const;
    bool hasChildren(NodeRef ref) const;
    NodeRef parent(NodeRef ref) const;
    NodeRef firstChild(NodeRef ref) const;
    NodeRef nextSibling(NodeRef ref) const;
    std::optional<keyspace::KeyInfo> keyInfo(NodeRef ref) const;
    // Its namespace aggregates (the keys below it), and its whole subtree's totals (its own key too).
    keyspace::NamespaceStats stats(NodeRef ref) const;
    keyspace::SubtreeTotals totals(NodeRef ref) const;
    std::uint64_t subtreeMemory(NodeRef ref) const;
    // The idle percentiles of the keys below it, as of `nowSeconds` (a walk over them), and the store's threshold.
    keyspace::AccessFigures access(NodeRef ref, std::int64_t nowSeconds) const;
    std::int64_t coldAfterSeconds() const;
    // The rules (bits by lint::allRules() index) that found something in the key.
    std::uint32_t findingRules(NodeRef ref) const;

    std::uint64_t keyCount() const;
    const keyspace::Delimiters& delimiters() const;

    // For the models layer, which hands the store to the libraries below it; null without one.
    const keyspace::Keyspace* store() const { return m_store; }

Q_SIGNALS:
    // setStore() was called: every reference taken before is stale.
    void storeReplaced();

private:
    const keyspace::Keyspace* m_store = nullptr;
    std::uint64_t m_generation = 0;
    Origin m_origin = Origin::Server;
};

} // namespace keylens::models
