#include "models/StoreChanges.h"

#include "lint/Linter.h"
#include "models/KeyTreeModel.h"
#include "models/ScanSession.h"
#include "models/SessionStore.h"
#include "models/SnapshotKeeper.h"
#include "scan/Ingest.h"

#include <QDateTime>
#include <QHash>

namespace keylens::models {

StoreChanges::StoreChanges(const ScanSession& session, SessionStore& store, SnapshotKeeper& snapshots, QObject* parent)
    : QObject(parent)
    , m_session(session)
    , m_store(store)
    , m_snapshots(snapshots)
{}

bool StoreChanges::mayWrite() const
{
    return !m_session.isRunning() && m_store.keys && m_store.linter && m_store.ingest;
}

bool StoreChanges::keysRemoved(const std::vector<keyspace::NodeId>& nodes)
{
    if (!mayWrite())
        return false;
    m_store.model->keysEdited(removeKeys(nodes), true);
    announceEdits();
    return true;
}

bool StoreChanges::keysChanged(const std::vector<std::pair<keyspace::NodeId, keyspace::KeyInfo>>& keys)
{
    if (!mayWrite())
        return false;
    m_store.model->keysEdited(changeKeys(keys), false);
    announceEdits();
    return true;
}

bool StoreChanges::keysAdded(const scan::KeyBatch& keys)
{
    if (!mayWrite())
        return false;
    m_store.model->keysEdited(addKeys(keys, true), false);
    announceEdits();
    return true;
}

void StoreChanges::keysAre(const KeysNowByName& keys)
{
    // A key read back after an edit comes with the idle time its read asked (OBJECT IDLETIME): the store keeps what
    // the scan measured, so where the scan asked none, or the other question (LFU), the key has none either. An
    // "idle 0ms" among keys whose idle times are "not measured" said something no scan measured.
    const scan::AccessQuestion asked = m_session.summary() ? m_session.summary()->access : scan::AccessQuestion::None;
    KeysNowByName asScanned = keys;
    for (auto& [key, now] : asScanned) {
        if (now && ((now->access.hasIdleTime() && asked != scan::AccessQuestion::IdleTime) ||
                    (now->access.hasFrequency() && asked != scan::AccessQuestion::Frequency)))
            now->access = {};
    }
    const KeysNow now = sortOut(asScanned);
    if (!now.removed.empty())
        keysRemoved(now.removed);
    if (!now.changed.empty())
        keysChanged(now.changed);
    if (now.added.size() > 0)
        keysAdded(now.added);
}

void StoreChanges::bulkActionDone(const edit::BulkRequest& request, const edit::KeySelection& selection,
                                  const edit::BulkSummary& summary)
{
    const keyspace::Keyspace& store = *m_store.keys;
    const std::int64_t now = QDateTime::currentMSecsSinceEpoch();
    std::vector<keyspace::NodeId> removed;
    std::vector<std::pair<keyspace::NodeId, keyspace::KeyInfo>> changed;
    scan::KeyBatch added;
    for (std::size_t i = 0; i < summary.outcomes.size() && i < selection.nodes.size(); ++i) {
        const keyspace::NodeId node = selection.nodes[i];
        const edit::KeyOutcome outcome = summary.outcomes[i];
        if (outcome == edit::KeyOutcome::Unchanged && request.kind != edit::BulkKind::Persist) {
            removed.push_back(node); // gone before its turn
            continue;
        }
        if (outcome != edit::KeyOutcome::Done)
            continue;
        keyspace::KeyInfo info = store.keyInfo(node);
        switch (request.kind) {
        case edit::BulkKind::Delete:
            removed.push_back(node);
            break;
        case edit::BulkKind::Rename:
            removed.push_back(node);
            added.add(request.newKeys[i], info);
            break;
        case edit::BulkKind::Expire:
            info.expiresAtMs = now + summary.ttlsSetMs[i];
            changed.emplace_back(node, info);
            break;
        case edit::BulkKind::Persist:
            info.expiresAtMs = keyspace::NoExpiry;
            changed.emplace_back(node, info);
            break;
        }
    }
    keysRemoved(removed);
    keysChanged(changed);
    if (added.size() > 0)
        keysAdded(added);
}

bool StoreChanges::followKeys(const KeysNowByName& keys)
{
    if (!mayWrite() || m_session.changesWait())
        return false;
    const KeysNow now = sortOut(keys);
    if (!now.removed.empty())
        m_store.model->keysLeft(removeKeys(now.removed));
    if (!now.changed.empty()) {
        const std::vector<keyspace::NodeId> changed = changeKeys(now.changed);
        m_store.model->keysReturned(changed); // a key that left and came back within one look is a change
        m_store.model->keysEdited(changed, false);
    }
    if (now.added.size() > 0)
        m_store.model->keysEdited(addKeys(now.added, false), false);
    m_followedSinceAnnounced = true;
    return true;
}

void StoreChanges::announceFollowedKeys()
{
    if (std::exchange(m_followedSinceAnnounced, false))
        announceEdits();
}

void StoreChanges::lengthsKnown(const std::vector<std::pair<keyspace::NodeId, std::uint64_t>>& lengths)
{
    for (const auto& [node, length] : lengths) {
        m_store.model->setLength(node, length);
        if (m_session.changesWait()) // their findings would change what a worker reads
            m_lengthsWaiting.emplace_back(node, length);
        else
            m_store.linter->lengthKnown(*m_store.keys, node, length);
    }
    if (!lengths.empty())
        Q_EMIT findingsChanged();
}

void StoreChanges::recordWaitingLengths()
{
    for (const auto& [node, length] : std::exchange(m_lengthsWaiting, {}))
        m_store.linter->lengthKnown(*m_store.keys, node, length);
}

StoreChanges::KeysNow StoreChanges::sortOut(const KeysNowByName& keys) const
{
    const keyspace::Keyspace& store = *m_store.keys;
    // A key named twice (written, then evicted, in two looks of the live view) ends as it was last: what to do is
    // decided from the store before the keys, so an earlier state would undo the later one.
    QHash<QByteArrayView, std::size_t> last;
    for (std::size_t i = 0; i < keys.size(); ++i)
        last[keys[i].first] = i;
    KeysNow sorted;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const auto& [key, now] = keys[i];
        if (last.value(key) != i)
            continue;
        const keyspace::NodeId node = store.find(key);
        const bool known = node != keyspace::InvalidNode && store.isKey(node);
        if (now && known)
            sorted.changed.emplace_back(node, *now);
        else if (now)
            sorted.added.add(key, *now);
        else if (known)
            sorted.removed.push_back(node);
    }
    return sorted;
}

void StoreChanges::stopStoreReaders()
{
    m_snapshots.settle();
    m_store.model->waitForWorkerSort(); // an edit's publish may have started one
}

std::vector<keyspace::NodeId> StoreChanges::removeKeys(const std::vector<keyspace::NodeId>& nodes)
{
    stopStoreReaders();
    keyspace::Keyspace& store = *m_store.keys;
    std::vector<keyspace::NodeId> removed;
    for (const keyspace::NodeId node : nodes) {
        if (node >= store.nodeCount() || !store.isKey(node))
            continue;
        m_store.linter->keyRemoved(store, node);
        store.removeKey(node);
        removed.push_back(node);
    }
    return removed;
}

std::vector<keyspace::NodeId>
StoreChanges::changeKeys(const std::vector<std::pair<keyspace::NodeId, keyspace::KeyInfo>>& keys)
{
    stopStoreReaders();
    keyspace::Keyspace& store = *m_store.keys;
    std::vector<keyspace::NodeId> nodes;
    for (const auto& [node, info] : keys) {
        if (node >= store.nodeCount() || !store.isKey(node))
            continue;
        m_store.linter->keyChanged(store, node, info);
        store.updateKey(node, info);
        nodes.push_back(node);
    }
    return nodes;
}

std::vector<keyspace::NodeId> StoreChanges::addKeys(const scan::KeyBatch& keys, bool finalPublish)
{
    stopStoreReaders();
    m_store.ingest->add(keys);
    std::vector<keyspace::NodeId> nodes;
    for (std::size_t i = 0; i < keys.size(); ++i)
        nodes.push_back(m_store.keys->find(keys.key(i)));
    // Rows of a live tree that had left come back before the new ones are announced.
    m_store.model->keysReturned(nodes);
    // A final publish re-sorts big parents (on a worker): right after an edit, not a dozen times a second.
    m_store.model->publish(finalPublish);
    return nodes;
}

void StoreChanges::announceEdits()
{
    Q_EMIT findingsChanged();
    Q_EMIT storeEdited();
}

} // namespace keylens::models
