#pragma once

#include "edit/BulkAction.h"
#include "edit/KeySelection.h"
#include "keyspace/Keyspace.h"
#include "scan/KeyBatch.h"

#include <QByteArray>
#include <QObject>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace keylens::models {

class ScanSession;
class SnapshotKeeper;
struct SessionStore;

// What changes a ScanSession's store after its scan, so that the tree, its overlays, the totals and the findings
// follow without a rescan: edits made through Keylens (the window's edits and the console's writes: keysAre), what a
// bulk action did (bulkActionDone), the keys the live view finds changed on the server (followKeys, LiveSession) and
// the lengths the details pane learns (lengthsKnown). The window and LiveSession change the store through this and
// nothing else; it writes through the store's one ingest path and its linter. While a scan runs, the changes are left
// to it (it reads the server as it is); while another thread reads the store (the rules, the tree's sort, the
// snapshot's patterns), live keys and lengths wait. GUI thread only.
class StoreChanges : public QObject
{
    Q_OBJECT
public:
    using KeysNowByName = std::vector<std::pair<QByteArray, std::optional<keyspace::KeyInfo>>>;

    StoreChanges(const ScanSession& session, SessionStore& store, SnapshotKeeper& snapshots, QObject* parent = nullptr);

    // Changes made through Keylens. While a scan runs they are left to it; each returns whether the store followed.
    bool keysRemoved(const std::vector<keyspace::NodeId>& nodes);
    bool keysChanged(const std::vector<std::pair<keyspace::NodeId, keyspace::KeyInfo>>& keys);
    // Keys created (or renamed, or copied, to a name): through the one ingest path, linted as the scan's keys are.
    bool keysAdded(const scan::KeyBatch& keys);
    // Keys as they are now, by name (nothing: gone), after an edit or a console write: removed, changed or added.
    void keysAre(const KeysNowByName& keys);
    // What a bulk action on `selection` (nodes of this store) did, key by key.
    void bulkActionDone(const edit::BulkRequest& request, const edit::KeySelection& selection,
                        const edit::BulkSummary& summary);

    // Keys as the live view found them on the server (LiveSession): removed, changed or added as keysAre() does,
    // except that removed keys leave the tree (with the namespaces they leave empty), and nothing is announced until
    // announceFollowedKeys(), once for many calls. False, and nothing done, while a scan runs or another thread reads
    // the store (the rules, a sort, the snapshot's patterns): the caller tries again on a later turn.
    bool followKeys(const KeysNowByName& keys);
    void announceFollowedKeys(); // findingsChanged and storeEdited, when keys were followed since the last time

    // Keys' lengths (STRLEN or element counts) learnt by the details pane: the tree's big-key overlay and the linter's
    // big-string and big-collection take them from here; while another thread reads the store, the linter's wait.
    void lengthsKnown(const std::vector<std::pair<keyspace::NodeId, std::uint64_t>>& lengths);
    // For the session: the lengths that waited are told to the linter once the store is free; or forgotten, when the
    // store goes or a new profile lints it again from the model's lengths (these included).
    void recordWaitingLengths();
    void forgetWaitingLengths() { m_lengthsWaiting.clear(); }

Q_SIGNALS:
    // The findings of keys already shown changed: ScanSession::findingsChanged says it on.
    void findingsChanged();
    // The store followed a change (an edit, a bulk action, live keys): totals and charts should look again.
    void storeEdited();

private:
    // Keys as they are now, sorted out by what the store has to do; a key named twice, as it was last.
    struct KeysNow
    {
        std::vector<keyspace::NodeId> removed;
        std::vector<std::pair<keyspace::NodeId, keyspace::KeyInfo>> changed;
        scan::KeyBatch added;
    };
    KeysNow sortOut(const KeysNowByName& keys) const;
    bool mayWrite() const; // a store, and no scan running
    // Before a write: the other threads that read the store stop (the snapshot's patterns) or finish (a sort).
    void stopStoreReaders();
    // The store and the linter follow; each returns the nodes it changed (the model is told by the caller).
    std::vector<keyspace::NodeId> removeKeys(const std::vector<keyspace::NodeId>& nodes);
    std::vector<keyspace::NodeId> changeKeys(const std::vector<std::pair<keyspace::NodeId, keyspace::KeyInfo>>& keys);
    std::vector<keyspace::NodeId> addKeys(const scan::KeyBatch& keys, bool finalPublish);
    void announceEdits(); // findingsChanged and storeEdited

    const ScanSession& m_session;
    SessionStore& m_store;
    SnapshotKeeper& m_snapshots;
    bool m_followedSinceAnnounced = false; // see announceFollowedKeys()
    std::vector<std::pair<keyspace::NodeId, std::uint64_t>> m_lengthsWaiting;
};

} // namespace keylens::models
