#include "models/ScanSession.h"

#include "base/QueueWorker.h"
#include "base/SideTask.h"
#include "history/SnapshotOfScan.h"
#include "history/SnapshotStore.h"
#include "inspect/EndOfScanReads.h"
#include "lint/Linter.h"
#include "lint/ValueShape.h"
#include "models/KeyTreeModel.h"
#include "models/PatternTreeModel.h"
#include "scan/Ingest.h"
#include "scan/Scanner.h"

#include <QDateTime>
#include <QHash>

namespace keylens::models {

ScanSession::ScanSession(QObject* parent)
    : QObject(parent)
    , m_scanner(new scan::Scanner(this))
    , m_model(new KeyTreeModel(this))
    , m_patternModel(new PatternTreeModel(this))
    , m_view(new KeyspaceView(this))
    , m_keyspace(std::make_unique<keyspace::Keyspace>())
    , m_ingest(std::make_unique<scan::Ingest>(*m_keyspace))
    , m_lintProfile(*lint::builtInProfile("default"))
{
    startLinting();
    m_model->setKeyspace(m_keyspace.get());
    m_patternModel->setKeyspace(m_keyspace.get());
    m_view->setStore(m_keyspace.get());
    connect(this, &ScanSession::findingsChanged, m_patternModel, &PatternTreeModel::refreshTotals);
    connect(m_model, &KeyTreeModel::workerSortApplied, this, &ScanSession::storeFree);
    m_publishTimer.setObjectName(QStringLiteral("publish"));
    m_publishTimer.setInterval(PublishIntervalMs);
    connect(&m_publishTimer, &QTimer::timeout, this, &ScanSession::publishNow);

    connect(m_scanner, &scan::Scanner::batchReady, this, &ScanSession::takeBatch);
    connect(m_scanner, &scan::Scanner::serverInfoReady, this, [this](std::uint64_t, const redis::ServerInfo& info) {
        m_serverInfo = info;
        if (m_linter)
            m_linter->setServerEvictsAllKeys(lint::Linter::evictsAllKeys(info.maxmemoryPolicy));
        m_ingest->serverInfo(info, m_options);
        Q_EMIT serverInfoReady(info);
    });
    connect(m_scanner, &scan::Scanner::progressChanged, this, [this](const scan::ScanProgress& progress) {
        m_progress = progress;
        m_paused = progress.paused;
        Q_EMIT progressChanged(progress);
    });
    connect(m_scanner, &scan::Scanner::finished, this, [this](const scan::ScanSummary& summary) {
        m_finishing = summary;
        finishIfDrained();
    });
}

ScanSession::~ScanSession()
{
    m_snapshotPatterns.cancel(); // it reads the store
    abandonJudgement();
    // The model refers to the store: detach it before the store goes.
    m_model->setKeyspace(nullptr);
    m_patternModel->setKeyspace(nullptr);
}

void ScanSession::start(const scan::ScanOptions& options, const keyspace::Delimiters& delimiters)
{
    m_scanner->cancel();
    settleSnapshot(); // the last scan's, before its store goes
    abandonJudgement();
    m_finishAnnounce.cancel();
    m_lengthsNotice.clear();
    m_pending.clear();
    m_pendingIndex = 0;
    m_ingestSlices.cancel();
    m_summary.reset();
    m_snapshotDue = true;
    m_finishing.reset();
    m_finalPublished = false;
    m_progress.reset();
    m_serverInfo.reset();
    m_paused = false;
    m_options = options;
    m_options.valuePrefixBytes = lint::ValuePrefixBytes; // an RDB file keeps a few values for the role evidence

    Q_EMIT aboutToReplaceStore();
    m_sampledMemory.reset();
    auto fresh = std::make_unique<keyspace::Keyspace>(delimiters);
    const bool memoryEstimated = !options.rdbFile.isEmpty(); // a file's memory is what MemoryModel makes of it
    m_model->setMemoryEstimated(memoryEstimated);
    m_patternModel->setMemoryEstimated(memoryEstimated);
    m_model->setKeyspace(fresh.get());
    m_patternModel->setKeyspace(fresh.get());
    m_view->setStore(fresh.get(), memoryEstimated ? KeyspaceView::Origin::RdbFile : KeyspaceView::Origin::Server);
    m_ingest = std::make_unique<scan::Ingest>(*fresh);
    std::unique_ptr<keyspace::Keyspace> old = std::exchange(m_keyspace, std::move(fresh));
    startLinting();
    // Nothing refers to the old store any more: the judgement and the pattern model's worker were waited for.
    m_lettingGo.dispose(std::move(old));

    scan::ScanOptions background = m_options;
    background.background = true; // the GUI thread comes first
    m_scanner->start(background);
    m_publishTimer.start();
    Q_EMIT started();
}

void ScanSession::pause()
{
    m_scanner->pause();
    m_paused = true;
    // A pause is for looking at what has arrived: show it now, not at the next batch (there is none).
    if (m_pending.empty())
        publishNow();
}

void ScanSession::resume()
{
    m_scanner->resume();
    m_paused = false;
}

void ScanSession::cancel()
{
    m_scanner->cancel();
}

void ScanSession::startLinting()
{
    m_lintProfile.delimiters = m_keyspace->delimiters();
    m_model->setLibraries(nullptr); // the old linter's, about to go
    m_patternModel->setLibraries(nullptr);
    // The counts are exact whatever the cap; the tree's findings filter shows every key past it. The old linter's
    // judgement was abandoned (waited for) and the models let go of its libraries above.
    m_lettingGo.dispose(std::exchange(m_linter, std::make_unique<lint::Linter>(m_lintProfile, ExamplesKept)));
    m_ingest->setKeyStored([this](keyspace::NodeId node, QByteArrayView key, const keyspace::KeyInfo& info) {
        m_linter->keyAdded(*m_keyspace, node, key, info);
    });
}

void ScanSession::setLintProfile(lint::Profile profile)
{
    settleSnapshot();             // its worker reads the store that is re-linted below
    abandonJudgement();           // judged with the old profile
    m_model->waitForWorkerSort(); // a sort by findings reads what is cleared below
    m_lintProfile = std::move(profile);
    m_keyspace->clearFindings();
    startLinting();
    m_linter->lintKeys(*m_keyspace);
    for (const auto& [node, length] : m_model->lengths())
        m_linter->lengthKnown(*m_keyspace, node, length);
    if (m_summary) {
        m_linter->finish(*m_keyspace);
        m_model->setLibraries(&m_linter->libraries());
        m_patternModel->setLibraries(&m_linter->libraries());
    }
    Q_EMIT findingsChanged();
    finishIfDrained(); // a scan whose rules were running is judged again, with this profile
}

void ScanSession::setColdAfter(std::int64_t seconds)
{
    m_options.coldAfterSeconds = seconds;
    if (isRunning() || !m_keyspace || !m_summary || m_keyspace->coldAfterSeconds() == seconds)
        return;
    settleSnapshot();
    m_model->waitForWorkerSort(); // a sort by the Cold column reads what moves below
    m_keyspace->setColdAfter(seconds, m_keyspace->coldAsOfSeconds());
    m_model->refreshAccess();
    setLintProfile(m_lintProfile); // cold-data judged again, against the new threshold
}

void ScanSession::lengthsKnown(const std::vector<std::pair<keyspace::NodeId, std::uint64_t>>& lengths)
{
    for (const auto& [node, length] : lengths) {
        m_model->setLength(node, length);
        if (changesWait()) // their findings would change what a worker reads
            m_lengthsWaiting.emplace_back(node, length);
        else
            m_linter->lengthKnown(*m_keyspace, node, length);
    }
    if (!lengths.empty())
        Q_EMIT findingsChanged();
}

bool ScanSession::keysRemoved(const std::vector<keyspace::NodeId>& nodes)
{
    if (isRunning() || !m_keyspace || !m_linter)
        return false;
    m_model->keysEdited(removeKeys(nodes), true);
    announceEdits();
    return true;
}

bool ScanSession::keysChanged(const std::vector<std::pair<keyspace::NodeId, keyspace::KeyInfo>>& keys)
{
    if (isRunning() || !m_keyspace || !m_linter)
        return false;
    m_model->keysEdited(changeKeys(keys), false);
    announceEdits();
    return true;
}

bool ScanSession::keysAdded(const scan::KeyBatch& keys)
{
    if (isRunning() || !m_keyspace || !m_ingest)
        return false;
    m_model->keysEdited(addKeys(keys, true), false);
    announceEdits();
    return true;
}

void ScanSession::keysAre(const std::vector<std::pair<QByteArray, std::optional<keyspace::KeyInfo>>>& keys)
{
    const KeysNow now = sortOut(keys);
    if (!now.removed.empty())
        keysRemoved(now.removed);
    if (!now.changed.empty())
        keysChanged(now.changed);
    if (now.added.size() > 0)
        keysAdded(now.added);
}

bool ScanSession::followKeys(const std::vector<std::pair<QByteArray, std::optional<keyspace::KeyInfo>>>& keys)
{
    if (isRunning() || changesWait() || !m_keyspace || !m_linter || !m_ingest)
        return false;
    const KeysNow now = sortOut(keys);
    if (!now.removed.empty())
        m_model->keysLeft(removeKeys(now.removed));
    if (!now.changed.empty()) {
        const std::vector<keyspace::NodeId> changed = changeKeys(now.changed);
        m_model->keysReturned(changed); // a key that left and came back within one look is a change
        m_model->keysEdited(changed, false);
    }
    if (now.added.size() > 0)
        m_model->keysEdited(addKeys(now.added, false), false);
    m_followedSinceAnnounced = true;
    return true;
}

void ScanSession::announceFollowedKeys()
{
    if (std::exchange(m_followedSinceAnnounced, false))
        announceEdits();
}

ScanSession::KeysNow
ScanSession::sortOut(const std::vector<std::pair<QByteArray, std::optional<keyspace::KeyInfo>>>& keys) const
{
    const keyspace::Keyspace& store = *m_keyspace;
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

std::vector<keyspace::NodeId> ScanSession::removeKeys(const std::vector<keyspace::NodeId>& nodes)
{
    settleSnapshot();
    m_model->waitForWorkerSort(); // an edit's publish may have started one
    std::vector<keyspace::NodeId> removed;
    for (const keyspace::NodeId node : nodes) {
        if (node >= m_keyspace->nodeCount() || !m_keyspace->isKey(node))
            continue;
        m_linter->keyRemoved(*m_keyspace, node);
        m_keyspace->removeKey(node);
        removed.push_back(node);
    }
    return removed;
}

std::vector<keyspace::NodeId>
ScanSession::changeKeys(const std::vector<std::pair<keyspace::NodeId, keyspace::KeyInfo>>& keys)
{
    settleSnapshot();
    m_model->waitForWorkerSort();
    std::vector<keyspace::NodeId> nodes;
    for (const auto& [node, info] : keys) {
        if (node >= m_keyspace->nodeCount() || !m_keyspace->isKey(node))
            continue;
        m_linter->keyChanged(*m_keyspace, node, info);
        m_keyspace->updateKey(node, info);
        nodes.push_back(node);
    }
    return nodes;
}

std::vector<keyspace::NodeId> ScanSession::addKeys(const scan::KeyBatch& keys, bool finalPublish)
{
    settleSnapshot();
    m_model->waitForWorkerSort();
    m_ingest->add(keys);
    std::vector<keyspace::NodeId> nodes;
    for (std::size_t i = 0; i < keys.size(); ++i)
        nodes.push_back(m_keyspace->find(keys.key(i)));
    m_model->keysReturned(nodes); // rows of a live tree that had left come back before the new ones are announced
    // A final publish re-sorts big parents (on a worker): right after an edit, not a dozen times a second.
    m_model->publish(finalPublish);
    return nodes;
}

void ScanSession::announceEdits()
{
    Q_EMIT findingsChanged();
    Q_EMIT storeEdited();
}

void ScanSession::bulkActionDone(const edit::BulkRequest& request, const edit::KeySelection& selection,
                                 const edit::BulkSummary& summary)
{
    const keyspace::Keyspace& store = *m_keyspace;
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

QStringList ScanSession::notices() const
{
    QStringList notices(m_linter->notices().begin(), m_linter->notices().end());
    if (!m_lengthsNotice.isEmpty())
        notices << m_lengthsNotice;
    return notices;
}

bool ScanSession::isStoreBusy() const
{
    return isJudging() || m_model->isSortingOnWorker();
}

bool ScanSession::changesWait() const
{
    // The snapshot's patterns are read from the store on a worker too (half a second at a million keys), but the end
    // of a scan does not wait for them (isStoreBusy). Live keys taken at once stopped it, which held the GUI thread
    // until the worker noticed (15-45 ms in bench_gui's live tree) and threw the snapshot's patterns away.
    return isStoreBusy() || m_snapshotPatterns.isRunning();
}

bool ScanSession::isRunning() const
{
    return m_scanner->isRunning() || m_finishing.has_value();
}

void ScanSession::takeBatch(const scan::KeyBatch& batch)
{
    // Taking the batch (not ingesting it) is what the scanner's backpressure counts as delivered.
    m_pending.push_back(batch);
    if (m_ingestSlices.isRunning())
        return;
    m_ingestSlices.start([this](std::size_t keys) { return ingestStep(keys); },
                         [this] {
                             if (m_paused)
                                 publishNow(); // the last batches before a pause
                             finishIfDrained();
                         });
}

bool ScanSession::ingestStep(std::size_t keys)
{
    if (m_pending.empty())
        return true;
    const scan::KeyBatch& batch = m_pending.front();
    const std::size_t end = std::min(batch.size(), m_pendingIndex + keys);
    m_ingest->add(batch, m_pendingIndex, end);
    m_pendingIndex = end;
    m_ingestedSincePublish = true;
    if (m_pendingIndex == batch.size()) {
        m_pending.pop_front();
        m_pendingIndex = 0;
    }
    return m_pending.empty();
}

void ScanSession::publishNow()
{
    if (!m_ingestedSincePublish)
        return;
    m_ingestedSincePublish = false;
    m_model->publish(false);
    m_patternModel->publish(false);
    Q_EMIT published();
}

void ScanSession::finishIfDrained()
{
    if (!m_finishing || !m_pending.empty() || isJudging())
        return;
    m_publishTimer.stop();
    publishNow(); // every key on screen while the rules run
    judge();
}

void ScanSession::judge()
{
    auto judgement = std::make_unique<lint::Judgement>();
    lint::Judgement* result = judgement.get();
    const lint::Linter* linter = m_linter.get();
    const keyspace::Keyspace* store = m_keyspace.get();
    m_judgement = std::move(judgement);
    m_bigKeyLengths = {};
    m_delimiterUses = {};
    // The end of a scan as the CLI's (inspect::judgeBesideLengths): what names and types cannot tell a library's
    // layout by and the big keys' lengths, asked on the worker. Not of a server that failed the scan (its connect
    // timeout would hold a rescan that waits for this thread).
    const bool serverAnswered = m_finishing && !m_finishing->error;
    // The role evidence's few values per pattern: read on the worker, as the library sets are.
    m_linter->setValueSource(m_finishing ? inspect::valueSourceFor(m_options, *m_finishing, serverAnswered)
                                         : lint::ValueSource());
    m_snapshot.reset();
    // A scan that read keys is kept as a snapshot (history::), complete or partial; one refused at once has none.
    // Once a scan: a new lint profile judges the same scan again, and that is no new snapshot.
    std::optional<scan::ScanSummary> measured;
    if (m_snapshotDue && m_finishing && m_finishing->scanCalls > 0)
        measured = *m_finishing;
    m_judging.start(
        [linter, store, result, lengths = &m_bigKeyLengths, uses = &m_delimiterUses, snapshot = &m_snapshot,
         measured = std::move(measured), server = m_options.connection, serverAnswered,
         touching = inspect::touchingFor(m_options), fromFile = !m_options.rdbFile.isEmpty(),
         fileLengths = m_finishing && !m_options.rdbFile.isEmpty() ? m_finishing->knownLengths : nullptr,
         cancel = &m_judging.cancelFlag()] {
            // The snapshot walks the namespaces: beside the rules, on another core, stopped with them.
            base::SideTask snapshotting([&] {
                if (measured)
                    *snapshot =
                        history::snapshotOfStore(*store, *measured, QDateTime::currentMSecsSinceEpoch(), cancel);
            });
            *lengths = inspect::judgeBesideLengths(
                *store, serverAnswered && !fromFile ? &server : nullptr, touching, std::nullopt,
                [&](const lint::SetMembers& members) { *result = linter->judge(*store, members); }, cancel,
                fileLengths.get());
            *uses = lint::otherDelimitersUsed(*store); // a pass over every segment: not on the GUI thread
        },
        [this] {
            // In slices as long as an ingest's: recording a verdict adds to its ancestors' counts, a few hundred
            // nanoseconds, and a big keyspace has hundreds of thousands of them.
            m_verdictSlices.start(
                [this](std::size_t verdicts) { return m_linter->apply(*m_keyspace, *m_judgement, verdicts); },
                // The final publish in an event of its own: at ten million keys it copies the biggest parent's rows
                // for the worker's sort (25 ms), which after a whole slice of verdicts made one stall of 30-90 ms.
                [this] { m_finalPublish.post([this] { verdictsRecorded(); }); });
        });
}

void ScanSession::verdictsRecorded()
{
    m_lettingGo.dispose(std::move(m_judgement)); // a verdict a key at worst, in pages, and a table
    recordWaitingLengths();
    // The big keys' lengths, as the CLI records them; the tree shows them too. What could not be checked is said.
    const inspect::BigKeyLengths lengths = std::exchange(m_bigKeyLengths, {});
    for (std::size_t i = 0; i < lengths.lengths.size() && i < lengths.candidates.nodes.size(); ++i)
        if (const std::optional<std::uint64_t> length = lengths.lengths[i])
            m_model->setLength(lengths.candidates.nodes[i], *length);
    m_lengthsNotice = inspect::recordBigKeyLengths(*m_keyspace, *m_linter, lengths);
    m_model->setLibraries(&m_linter->libraries());
    m_patternModel->setLibraries(&m_linter->libraries());
    keepSnapshot();
    completeFinish();
}

void ScanSession::keepSnapshot()
{
    if (!m_snapshot)
        return;
    m_snapshotDue = false;
    auto snapshot = std::make_shared<history::Snapshot>(std::move(*std::exchange(m_snapshot, std::nullopt)));
    snapshot->profile = m_lintProfile.name.toUtf8();
    for (const lint::RuleSummary& summary : m_linter->summaries()) {
        if (summary.findings > 0)
            snapshot->findingsByRule.push_back({QByteArray(summary.rule->id), summary.findings});
    }
    // The patterns are a pattern tree of the whole store (half a second at a million keys) and the labels a lookup of
    // every namespace listed: on a worker, after the scan has ended, so that neither its end nor the GUI thread waits.
    // An edit or a new scan first stops it (settleSnapshot); live keys and lengths wait for it.
    m_pendingSnapshot = snapshot;
    m_snapshotPatterns.start(
        [snapshot, store = m_keyspace.get(), libraries = m_linter->libraries(),
         cancel = &m_snapshotPatterns.cancelFlag()] {
            history::labelLibraries(*snapshot, *store, libraries);
            history::addPatterns(*snapshot, *store, cancel);
        },
        [this] { snapshotSettled(); });
}

void ScanSession::saveSnapshot()
{
    std::shared_ptr<const history::Snapshot> snapshot = std::exchange(m_pendingSnapshot, nullptr);
    if (!snapshot)
        return;
    if (!m_snapshotRoot.isEmpty()) {
        // Written on a thread of its own, in order: a few MB at most, but not in the GUI thread's time.
        static base::QueueWorker* writer = new base::QueueWorker; // never deleted: see QueueWorker
        writer->post([root = m_snapshotRoot, keep = m_snapshotsKept, snapshot] {
            if (const QString failed = history::SnapshotStore(root, keep).save(*snapshot); !failed.isEmpty())
                qWarning("keylens: %s", qPrintable(failed));
        });
    }
    m_lastSnapshot = std::move(snapshot);
    Q_EMIT snapshotKept();
}

void ScanSession::settleSnapshot()
{
    if (!m_snapshotPatterns.isRunning())
        return;
    m_snapshotPatterns.cancel(); // waits: it reads the store
    if (m_pendingSnapshot)
        m_pendingSnapshot->patterns.clear(); // perhaps half listed
    snapshotSettled();
}

void ScanSession::snapshotSettled()
{
    saveSnapshot();
    if (!isStoreBusy())
        recordWaitingLengths(); // the lengths that came while it read the store
}

void ScanSession::abandonJudgement()
{
    m_judging.cancel(); // it reads the store; a few hundred milliseconds at most
    m_verdictSlices.cancel();
    m_finalPublish.cancel();
    m_lettingGo.dispose(std::move(m_judgement));
    // Either the store goes, or a new profile lints it again from the model's lengths, these included.
    m_lengthsWaiting.clear();
}

std::optional<keyspace::MemoryEstimate> ScanSession::sampledEstimate(NodeRef ref) const
{
    if (!m_summary || !m_summary->sampleProbability || !m_view->isCurrent(ref))
        return std::nullopt;
    if (!m_sampledMemory)
        m_sampledMemory = std::make_unique<keyspace::SampledMemory>(*m_keyspace);
    return m_sampledMemory->estimate(ref.node);
}

void ScanSession::completeFinish()
{
    m_finalPublished = true;
    m_ingestedSincePublish = false;
    m_model->publish(true);
    m_patternModel->publish(true);
    Q_EMIT published();
    announceFinishSoon(); // once the biggest parents are in their order too (sorted on a worker): see storeFree()
}

void ScanSession::storeFree()
{
    if (isStoreBusy())
        return;
    if (!changesWait()) // else once the snapshot is kept
        recordWaitingLengths();
    if (m_finishing && m_finalPublished)
        announceFinishSoon();
}

void ScanSession::announceFinishSoon()
{
    // What listens to the signals announceFinish() gives walks the tree again (tens of milliseconds at a million
    // keys), and the event that got here may have been long already (the final publish, or the worker's order of a
    // big parent: with finished() one event of 40-70 ms at ten million keys). So in an event of its own, the GUI
    // answering in between. A new scan started meanwhile wins; a sort still on its worker calls storeFree() later.
    m_finishAnnounce.post([this] {
        if (m_finishing && m_finalPublished && !isStoreBusy())
            announceFinish();
    });
}

void ScanSession::recordWaitingLengths()
{
    for (const auto& [node, length] : std::exchange(m_lengthsWaiting, {}))
        m_linter->lengthKnown(*m_keyspace, node, length);
}

void ScanSession::announceFinish()
{
    m_ingest->settle(*m_finishing);
    m_summary = std::move(m_finishing);
    m_finishing.reset();
    m_finalPublished = false;
    // The namespace-level rules flagged keys that were published already; said once the scan is over,
    // so that whoever looks sees it finished.
    Q_EMIT findingsChanged();
    Q_EMIT finished(*m_summary);
}

std::vector<scan::ShardScan> ScanSession::shards() const
{
    if (m_summary)
        return m_summary->shards;
    std::vector<scan::ShardScan> shards;
    if (!m_serverInfo)
        return shards;
    for (const auto& [address, slots] : m_serverInfo->shards) {
        scan::ShardScan shard;
        shard.address = address;
        shard.slots = slots;
        shards.push_back(std::move(shard));
    }
    if (m_ingest) {
        const std::vector<scan::Ingest::ShardTally>& tallies = m_ingest->shardTallies();
        for (std::size_t i = 0; i < shards.size() && i < tallies.size(); ++i) {
            shards[i].keys = tallies[i].keys;
            shards[i].memoryBytes = tallies[i].memoryBytes;
            shards[i].memoryNotMeasured = tallies[i].memoryNotMeasured;
        }
    }
    return shards;
}

} // namespace keylens::models
