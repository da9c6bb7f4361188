#pragma once

#include "base/NextTurn.h"
#include "base/SlicedJob.h"
#include "keyspace/Keyspace.h"
#include "keyspace/MemoryEstimate.h"
#include "lint/Linter.h"
#include "lint/Profile.h"
#include "models/KeyspaceView.h"
#include "models/SessionStore.h"
#include "scan/KeyBatch.h"
#include "scan/ScanTypes.h"

#include <QObject>
#include <QTimer>

#include <deque>
#include <memory>
#include <optional>
#include <vector>

namespace keylens::scan {
class Scanner;
} // namespace keylens::scan

namespace keylens::models {

class EndOfScan;
class KeyTreeModel;
class PatternTreeModel;
class SnapshotKeeper;
class StoreChanges;

// One scan of one server, seen from the GUI thread: owns the scanner, the key store and the models over it, and moves
// batches from the first to the second without stalling the event loop. The first stage of a pipeline whose later
// stages are its parts, each with a class of its own: the end of the scan (EndOfScan: the namespace rules and their
// verdicts), the snapshot kept of it (SnapshotKeeper), and the store's changes after it (StoreChanges: edits, live
// keys, bulk results). The session drives them in order and they share its store (SessionStore).
//
// Batches are taken off the scanner's signal at once (that frees the worker to send more) and
// ingested in time slices of a few milliseconds per event-loop turn; the model hears about them every
// 100 ms. finished() comes after the last batch is in the store and the model, and the end of the scan judged.
//
// The key-level rules run on each key as it is ingested (so the findings column fills in live); a new lint profile or
// cold-data threshold lints the store again.
class ScanSession : public QObject
{
    Q_OBJECT
public:
    explicit ScanSession(QObject* parent = nullptr);
    ~ScanSession() override;

    KeyTreeModel* model() const { return m_store.model; }
    // The same store folded on its ids; it folds only while setActive(true) (a view shows it).
    PatternTreeModel* patternModel() const { return m_store.patternModel; }
    const keyspace::Keyspace& keyspace() const { return *m_store.keys; }
    // The store as the window may read it: by reference with the store's generation, and for the session's life.
    const KeyspaceView& view() const { return *m_view; }
    // The session's parts, for the session's life.
    EndOfScan* endOfScan() const { return m_endOfScan.get(); }
    SnapshotKeeper* snapshots() const { return m_snapshots.get(); }
    StoreChanges* changes() const { return m_changes.get(); }

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
    const lint::Linter& linter() const { return *m_store.linter; }
    // Examples the linter keeps per rule, all listed by the Findings panel (more is a list nobody reads;
    // its tree filter shows every key of a rule).
    static constexpr std::size_t ExamplesKept = 50;

    // A sampled scan's estimate of a namespace's memory, with its bound (MemoryEstimate.h); nothing for a full scan,
    // one still running, or a stale reference. The first question walks the keys once.
    std::optional<keyspace::MemoryEstimate> sampledEstimate(NodeRef ref) const;

    bool isRunning() const;
    // The namespace-level rules of a finished scan are running on their worker thread, or their verdicts
    // being recorded: isRunning() still, and nothing but the rules writes findings meanwhile.
    bool isJudging() const;
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
    // profile, a change of the store): the tree's findings column and the Findings panel should look again.
    void findingsChanged();

private:
    void takeBatch(const scan::KeyBatch& batch);
    bool ingestStep(std::size_t keys);
    void publishNow();
    void finishIfDrained();  // the last batch is in: the end of the scan starts
    void verdictsRecorded(); // the end of the scan judged: the lengths, libraries and snapshot follow, finish goes on
    void completeFinish();
    void announceFinish();     // settles the summary, says findingsChanged and finished
    void announceFinishSoon(); // announceFinish() in an event of its own, unless a new scan or sort came first
    void storeFree();          // the tree's last sort is applied: what waited for it goes on
    void showLibraries();      // the linter's library layouts, in the models
    // Before the store is linted again: every other reader of it stops, the judgement too.
    void stopStoreReaders();
    void startLinting(); // a fresh linter on the store, fed by its ingest

    scan::Scanner* m_scanner;
    KeyspaceView* m_view;
    mutable std::unique_ptr<keyspace::SampledMemory> m_sampledMemory; // see sampledEstimate()
    SessionStore m_store;
    lint::Profile m_lintProfile;
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
    base::NextTurn m_finishAnnounce{QStringLiteral("finish announced"), this}; // cancelled by a new scan
    // The parts, after the store they refer to (so gone before it).
    std::unique_ptr<SnapshotKeeper> m_snapshots;
    std::unique_ptr<EndOfScan> m_endOfScan;
    std::unique_ptr<StoreChanges> m_changes;
};

} // namespace keylens::models
