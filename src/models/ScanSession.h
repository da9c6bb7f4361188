#pragma once

#include "base/Disposal.h"
#include "base/NextTurn.h"
#include "base/SlicedJob.h"
#include "base/WorkerJob.h"
#include "edit/BulkAction.h"
#include "edit/KeySelection.h"
#include "history/Snapshot.h"
#include "inspect/EndOfScanReads.h"
#include "keyspace/Keyspace.h"
#include "keyspace/MemoryEstimate.h"
#include "lint/DelimiterUse.h"
#include "lint/OverlayRules.h"
#include "lint/Profile.h"
#include "models/KeyspaceView.h"
#include "scan/KeyBatch.h"
#include "scan/ScanTypes.h"

#include <QObject>
#include <QTimer>

#include <deque>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace keylens::lint {
class Linter;
struct Judgement;
} // namespace keylens::lint

namespace keylens::scan {
class Ingest;
class Scanner;
} // namespace keylens::scan

namespace keylens::models {

class KeyTreeModel;
class PatternTreeModel;

// One scan of one server, seen from the GUI thread: owns the scanner, the key store and the tree model
// over it, and moves batches from the first to the second without stalling the event loop.
//
// Batches are taken off the scanner's signal at once (that frees the worker to send more) and
// ingested in time slices of a few milliseconds per event-loop turn; the model hears about them every
// 100 ms. finished() comes after the last batch is in the store and the model.
//
// The session also lints: the key-level rules run on each key as it is ingested (so the findings column
// fills in live), the namespace-level rules once the last batch is in, just before finished().
class ScanSession : public QObject
{
    Q_OBJECT
public:
    explicit ScanSession(QObject* parent = nullptr);
    ~ScanSession() override;

    KeyTreeModel* model() const { return m_model; }
    // The same store folded on its ids; it folds only while setActive(true) (a view shows it).
    PatternTreeModel* patternModel() const { return m_patternModel; }
    const keyspace::Keyspace& keyspace() const { return *m_keyspace; }
    // The store as the window may read it: by reference with the store's generation, and for the session's life.
    const KeyspaceView& view() const { return *m_view; }

    // A fresh store and a model reset, then a scan. A scan already running is cancelled.
    void start(const scan::ScanOptions& options, const keyspace::Delimiters& delimiters);
    void pause();
    void resume();
    void cancel();

    // The naming convention the keys are checked against. Set before start(), or during or after a scan:
    // then the store's findings are recomputed with the new profile at once.
    void setLintProfile(lint::Profile profile);
    // A key idle longer than this is cold: the shown store's keys move across the new threshold (as of its scan's
    // start) and the cold-data findings follow; while a scan runs, from the next scan on.
    void setColdAfter(std::int64_t seconds);
    const lint::Profile& lintProfile() const { return m_lintProfile; }
    // Where each scan's snapshot is saved once its rules are judged (history::SnapshotStore's root); empty, the
    // default: none is kept. The last one taken, complete or not, is there either way.
    void setSnapshotFolder(const QString& root, std::size_t keep) { m_snapshotRoot = root, m_snapshotsKept = keep; }
    const QString& snapshotFolder() const { return m_snapshotRoot; }
    // The last scan's snapshot once it is complete (its patterns are added after the scan ends); none before.
    const std::shared_ptr<const history::Snapshot>& lastSnapshot() const { return m_lastSnapshot; }
    const lint::Linter& linter() const { return *m_linter; }
    // Keys' lengths (STRLEN or element counts), learnt after the scan or by the details pane: the tree's
    // big-key overlay and the linter's big-string and big-collection take them from here.
    void lengthsKnown(const std::vector<std::pair<keyspace::NodeId, std::uint64_t>>& lengths);
    // Examples the linter keeps per rule, all listed by the Findings panel (more is a list nobody reads;
    // its tree filter shows every key of a rule).
    static constexpr std::size_t ExamplesKept = 50;

    // What the rules could not fully check, in words (as keylens-cli lint's report says it): the linter's notices
    // and the big keys whose length could not be read after the scan.
    QStringList notices() const;
    // A sampled scan's estimate of a namespace's memory, with its bound (MemoryEstimate.h); nothing for a full scan,
    // one still running, or a stale reference. The first question walks the keys once.
    std::optional<keyspace::MemoryEstimate> sampledEstimate(NodeRef ref) const;
    // The other delimiters the finished scan's keys use (lint::otherDelimitersUsed), counted on the worker.
    std::vector<lint::DelimiterUse> takeDelimiterUses() { return std::exchange(m_delimiterUses, {}); }

    // Changes made through Keylens, so that the tree, its overlays and the findings follow without a rescan. While a
    // scan runs they are left to it (it reads the server as it is); each returns whether the store followed.
    bool keysRemoved(const std::vector<keyspace::NodeId>& nodes);
    bool keysChanged(const std::vector<std::pair<keyspace::NodeId, keyspace::KeyInfo>>& keys);
    // Keys created (or renamed, or copied, to a name): through the one ingest path, linted as the scan's keys are.
    bool keysAdded(const scan::KeyBatch& keys);
    // Keys as they are now, by name (nothing: gone), after an edit or a console write: removed, changed or added.
    void keysAre(const std::vector<std::pair<QByteArray, std::optional<keyspace::KeyInfo>>>& keys);
    // Keys as the live view found them on the server (LiveSession): removed, changed or added as keysAre() does,
    // except that removed keys leave the tree (with the namespaces they leave empty), and nothing is announced until
    // announceFollowedKeys(), once for many calls. False, and nothing done, while a scan runs or another thread reads
    // the store (the rules, a sort): the caller tries again on a later turn.
    bool followKeys(const std::vector<std::pair<QByteArray, std::optional<keyspace::KeyInfo>>>& keys);
    void announceFollowedKeys(); // findingsChanged and storeEdited, when keys were followed since the last time
    // What a bulk action on `selection` (nodes of this store) did, key by key.
    void bulkActionDone(const edit::BulkRequest& request, const edit::KeySelection& selection,
                        const edit::BulkSummary& summary);

    bool isRunning() const;
    // The namespace-level rules of a finished scan are running on their worker thread, or their verdicts
    // being recorded: isRunning() still, and nothing but the rules writes findings meanwhile.
    bool isJudging() const { return m_judging.isRunning() || m_judgement != nullptr; }
    // Another thread reads the store (the rules, or the tree's last sort): the scan's end waits for it.
    bool isStoreBusy() const;
    // That, or the snapshot's patterns being listed: live keys and lengths learnt meanwhile wait.
    bool changesWait() const;
    bool isPaused() const { return m_paused; }
    const scan::ScanOptions& options() const { return m_options; }
    const std::optional<scan::ScanProgress>& lastProgress() const { return m_progress; }
    const std::optional<scan::ScanSummary>& summary() const { return m_summary; }
    const std::optional<redis::ServerInfo>& serverInfo() const { return m_serverInfo; }
    // A cluster's shards with what entered the store from each so far (all of the summary's once finished); empty
    // for a single server.
    std::vector<scan::ShardScan> shards() const;

    static constexpr int PublishIntervalMs = 100;

Q_SIGNALS:
    // A new scan is about to replace the store: whoever reads it on another thread stops now.
    void aboutToReplaceStore();
    void started();
    void serverInfoReady(const keylens::redis::ServerInfo& info);
    void progressChanged(const keylens::scan::ScanProgress& progress);
    void published(); // the model caught up with the store
    void finished(const keylens::scan::ScanSummary& summary);
    // Findings were added to keys already shown (the namespace-level rules, a big collection, a new
    // profile): the tree's findings column and the Findings panel should look again.
    void findingsChanged();
    // The store followed an edit made through Keylens (keysRemoved, keyChanged, keyAdded): totals and charts
    // should look again.
    void storeEdited();
    // The scan's snapshot was taken (lastSnapshot()) and handed to the writer: a history should look again.
    void snapshotKept();

private:
    // Keys as they are now, sorted out by what the store has to do; a key named twice, as it was last.
    struct KeysNow
    {
        std::vector<keyspace::NodeId> removed;
        std::vector<std::pair<keyspace::NodeId, keyspace::KeyInfo>> changed;
        scan::KeyBatch added;
    };
    KeysNow sortOut(const std::vector<std::pair<QByteArray, std::optional<keyspace::KeyInfo>>>& keys) const;
    // The store and the linter follow; each returns the nodes it changed (the model is told by the caller).
    std::vector<keyspace::NodeId> removeKeys(const std::vector<keyspace::NodeId>& nodes);
    std::vector<keyspace::NodeId> changeKeys(const std::vector<std::pair<keyspace::NodeId, keyspace::KeyInfo>>& keys);
    std::vector<keyspace::NodeId> addKeys(const scan::KeyBatch& keys, bool finalPublish);
    void announceEdits(); // findingsChanged and storeEdited
    void takeBatch(const scan::KeyBatch& batch);
    bool ingestStep(std::size_t keys);
    void publishNow();
    void finishIfDrained();
    // The namespace-level rules run on a worker thread once the last key is in (they take about a second
    // per million keys, too long to stop the GUI for); their verdicts are then recorded in slices.
    void judge();
    void verdictsRecorded(); // the judgement's verdicts are in the store: the models are told, finish goes on
    void keepSnapshot();     // the scan's snapshot, with its findings: its patterns and libraries on a worker
    void saveSnapshot();     // …then kept and handed to the writer
    // Before the store changes: the worker stops, and the snapshot is kept without its patterns.
    void settleSnapshot();
    void snapshotSettled(); // done or stopped: kept, and what waited for it goes in
    void completeFinish();
    void announceFinish();     // settles the summary, says findingsChanged and finished
    void announceFinishSoon(); // announceFinish() in an event of its own, unless a new scan or sort came first
    void storeFree();          // the tree's last sort is applied: what waited for it goes on
    void recordWaitingLengths();
    // Waits for the worker, and forgets its verdicts: the store is about to go.
    void abandonJudgement();
    void startLinting(); // a fresh linter on m_keyspace, fed by m_ingest

    scan::Scanner* m_scanner;
    KeyTreeModel* m_model;
    PatternTreeModel* m_patternModel;
    KeyspaceView* m_view;
    mutable std::unique_ptr<keyspace::SampledMemory> m_sampledMemory; // see sampledEstimate()
    std::unique_ptr<keyspace::Keyspace> m_keyspace;
    std::unique_ptr<scan::Ingest> m_ingest; // into m_keyspace
    lint::Profile m_lintProfile;
    std::unique_ptr<lint::Linter> m_linter; // over m_keyspace
    scan::ScanOptions m_options;
    std::deque<scan::KeyBatch> m_pending;
    std::size_t m_pendingIndex = 0; // entries of m_pending.front() already ingested
    // Keys inserted per look at the clock: reading it per key would cost more than the inserts.
    base::SlicedJob m_ingestSlices{256, QStringLiteral("ingest"), this};
    QTimer m_publishTimer;
    bool m_paused = false;
    bool m_ingestedSincePublish = false;
    std::optional<scan::ScanProgress> m_progress;
    std::optional<scan::ScanSummary> m_summary;
    std::optional<scan::ScanSummary> m_finishing; // the scanner is done; batches still being ingested
    bool m_finalPublished = false;                // and the models are final: finished() comes next
    std::optional<redis::ServerInfo> m_serverInfo;
    bool m_followedSinceAnnounced = false; // see announceFollowedKeys()
    // While the worker reads the store nothing may write to it: lengths learnt meanwhile wait here.
    base::WorkerJob m_judging{QStringLiteral("keylens namespace rules"), this};
    std::unique_ptr<lint::Judgement> m_judgement;
    inspect::BigKeyLengths m_bigKeyLengths;               // written by the worker until it finishes
    std::vector<lint::DelimiterUse> m_delimiterUses;      // the same
    std::optional<history::Snapshot> m_snapshot;          // the same: the scan's, taken beside the rules
    std::shared_ptr<history::Snapshot> m_pendingSnapshot; // while its patterns are added
    base::WorkerJob m_snapshotPatterns{QStringLiteral("keylens snapshot patterns"), this};
    std::shared_ptr<const history::Snapshot> m_lastSnapshot;
    bool m_snapshotDue = false; // this scan's snapshot is not kept yet
    QString m_snapshotRoot;
    std::size_t m_snapshotsKept = 100;
    QString m_lengthsNotice; // what of the lengths could not be checked, once recorded
    // Verdicts recorded per look at the clock: each adds to its ancestors' counts, a few hundred nanoseconds.
    base::SlicedJob m_verdictSlices{256, QStringLiteral("verdicts"), this};
    base::NextTurn m_finalPublish{QStringLiteral("final publish"), this};      // cancelled with the judgement
    base::NextTurn m_finishAnnounce{QStringLiteral("finish announced"), this}; // cancelled by a new scan
    std::vector<std::pair<keyspace::NodeId, std::uint64_t>> m_lengthsWaiting;
    // What a finished scan leaves (a store, its linter, a judgement) is freed there; waited for when the session goes.
    base::Disposal m_lettingGo{QStringLiteral("keylens let go")};
};

} // namespace keylens::models
