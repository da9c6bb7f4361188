#include "models/ScanSession.h"

#include "lint/Linter.h"
#include "lint/ValueShape.h"
#include "models/EndOfScan.h"
#include "models/KeyTreeModel.h"
#include "models/PatternTreeModel.h"
#include "models/SnapshotKeeper.h"
#include "models/StoreChanges.h"
#include "scan/Ingest.h"
#include "scan/Scanner.h"

namespace keylens::models {

ScanSession::ScanSession(QObject* parent)
    : QObject(parent)
    , m_scanner(new scan::Scanner(this))
    , m_lintProfile(*lint::builtInProfile("default"))
{
    m_store.model = new KeyTreeModel(this);
    m_store.patternModel = new PatternTreeModel(this);
    m_view = new KeyspaceView(this);
    m_store.keys = std::make_unique<keyspace::Keyspace>();
    m_store.ingest = std::make_unique<scan::Ingest>(*m_store.keys);
    m_snapshots = std::make_unique<SnapshotKeeper>(m_store);
    m_endOfScan = std::make_unique<EndOfScan>(m_store);
    m_changes = std::make_unique<StoreChanges>(*this, m_store, *m_snapshots);
    startLinting();
    m_store.model->setKeyspace(m_store.keys.get());
    m_store.patternModel->setKeyspace(m_store.keys.get());
    m_view->setStore(m_store.keys.get());
    connect(this, &ScanSession::findingsChanged, m_store.patternModel, &PatternTreeModel::refreshTotals);
    connect(m_store.model, &KeyTreeModel::workerSortApplied, this, &ScanSession::storeFree);
    connect(m_endOfScan.get(), &EndOfScan::verdictsRecorded, this, &ScanSession::verdictsRecorded);
    connect(m_snapshots.get(), &SnapshotKeeper::settled, this, [this] {
        if (!isStoreBusy())
            m_changes->recordWaitingLengths(); // the lengths that came while it read the store
    });
    connect(m_changes.get(), &StoreChanges::findingsChanged, this, &ScanSession::findingsChanged);
    m_publishTimer.setObjectName(QStringLiteral("publish"));
    m_publishTimer.setInterval(PublishIntervalMs);
    connect(&m_publishTimer, &QTimer::timeout, this, &ScanSession::publishNow);

    connect(m_scanner, &scan::Scanner::batchReady, this, &ScanSession::takeBatch);
    connect(m_scanner, &scan::Scanner::serverInfoReady, this, [this](std::uint64_t, const redis::ServerInfo& info) {
        m_serverInfo = info;
        if (m_store.linter)
            m_store.linter->setServerEvictsAllKeys(lint::Linter::evictsAllKeys(info.maxmemoryPolicy));
        m_store.ingest->serverInfo(info, m_options);
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
    m_snapshots->abandon(); // its worker reads the store
    m_endOfScan->abandon();
    // The model refers to the store: detach it before the store goes.
    m_store.model->setKeyspace(nullptr);
    m_store.patternModel->setKeyspace(nullptr);
}

void ScanSession::start(const scan::ScanOptions& options, const keyspace::Delimiters& delimiters)
{
    m_scanner->cancel();
    m_snapshots->settle(); // the last scan's, before its store goes
    m_endOfScan->forgetScan();
    m_changes->forgetWaitingLengths();
    m_finishAnnounce.cancel();
    m_pending.clear();
    m_pendingIndex = 0;
    m_ingestSlices.cancel();
    m_summary.reset();
    m_snapshots->scanStarted();
    m_finishing.reset();
    m_finalPublished = false;
    m_progress.reset();
    m_serverInfo.reset();
    m_paused = false;
    m_options = options;
    m_options.valuePrefixBytes = lint::ValuePrefixBytes; // an RDB file keeps a few values for the role evidence
    m_options.valueMembers = lint::SampledMembers;       // and a few members of collections without a TTL
    m_options.valueMemberBytes = lint::MemberBytes;

    Q_EMIT aboutToReplaceStore();
    m_sampledMemory.reset();
    auto fresh = std::make_unique<keyspace::Keyspace>(delimiters);
    const bool memoryEstimated = !options.rdbFile.isEmpty(); // a file's memory is what MemoryModel makes of it
    m_store.model->setMemoryEstimated(memoryEstimated);
    m_store.patternModel->setMemoryEstimated(memoryEstimated);
    m_store.model->setKeyspace(fresh.get());
    m_store.patternModel->setKeyspace(fresh.get());
    m_view->setStore(fresh.get(), memoryEstimated ? KeyspaceView::Origin::RdbFile : KeyspaceView::Origin::Server);
    m_store.ingest = std::make_unique<scan::Ingest>(*fresh);
    std::unique_ptr<keyspace::Keyspace> old = std::exchange(m_store.keys, std::move(fresh));
    startLinting();
    // Nothing refers to the old store any more: the judgement and the pattern model's worker were waited for.
    m_store.lettingGo.dispose(std::move(old));

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
    m_lintProfile.delimiters = m_store.keys->delimiters();
    m_store.model->setLibraries(nullptr); // the old linter's, about to go
    m_store.patternModel->setLibraries(nullptr);
    // The counts are exact whatever the cap; the tree's findings filter shows every key past it. The old linter's
    // judgement was abandoned (waited for) and the models let go of its libraries above.
    m_store.lettingGo.dispose(
        std::exchange(m_store.linter, std::make_unique<lint::Linter>(m_lintProfile, ExamplesKept)));
    m_store.ingest->setKeyStored([this](keyspace::NodeId node, QByteArrayView key, const keyspace::KeyInfo& info) {
        m_store.linter->keyAdded(*m_store.keys, node, key, info);
    });
}

void ScanSession::stopStoreReaders()
{
    m_snapshots->settle();              // its worker reads the store
    m_endOfScan->abandon();             // judged with the old profile or threshold
    m_changes->forgetWaitingLengths();  // the model's lengths are told to the new linter, these included
    m_store.model->waitForWorkerSort(); // a sort by findings or the Cold column reads what changes
}

void ScanSession::setLintProfile(lint::Profile profile)
{
    stopStoreReaders();
    m_lintProfile = std::move(profile);
    m_store.keys->clearFindings();
    startLinting();
    m_store.linter->lintKeys(*m_store.keys);
    for (const auto& [node, length] : m_store.model->lengths())
        m_store.linter->lengthKnown(*m_store.keys, node, length);
    if (m_summary) {
        m_store.linter->finish(*m_store.keys);
        showLibraries();
    }
    Q_EMIT findingsChanged();
    finishIfDrained(); // a scan whose rules were running is judged again, with this profile
}

void ScanSession::setColdAfter(std::int64_t seconds)
{
    m_options.coldAfterSeconds = seconds;
    if (isRunning() || !m_store.keys || !m_summary || m_store.keys->coldAfterSeconds() == seconds)
        return;
    stopStoreReaders();
    m_store.keys->setColdAfter(seconds, m_store.keys->coldAsOfSeconds());
    m_store.model->refreshAccess();
    setLintProfile(m_lintProfile); // cold-data judged again, against the new threshold
}

void ScanSession::showLibraries()
{
    m_store.model->setLibraries(&m_store.linter->libraries());
    m_store.patternModel->setLibraries(&m_store.linter->libraries());
}

bool ScanSession::isJudging() const
{
    return m_endOfScan->isJudging();
}

bool ScanSession::isStoreBusy() const
{
    return isJudging() || m_store.model->isSortingOnWorker();
}

bool ScanSession::changesWait() const
{
    // The snapshot's patterns are read from the store on a worker too (half a second at a million keys), but the end
    // of a scan does not wait for them (isStoreBusy). Live keys taken at once stopped it, which held the GUI thread
    // until the worker noticed (15-45 ms in bench_gui's live tree) and threw the snapshot's patterns away.
    return isStoreBusy() || m_snapshots->isListingPatterns();
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
    m_store.ingest->add(batch, m_pendingIndex, end);
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
    m_store.model->publish(false);
    m_store.patternModel->publish(false);
    Q_EMIT published();
}

void ScanSession::finishIfDrained()
{
    if (!m_finishing || !m_pending.empty() || isJudging())
        return;
    m_publishTimer.stop();
    publishNow(); // every key on screen while the rules run
    // The snapshot's namespaces are measured beside the rules, on another core.
    m_endOfScan->start(m_options, m_finishing, m_snapshots->measureBeside(m_finishing));
}

void ScanSession::verdictsRecorded()
{
    m_changes->recordWaitingLengths();
    m_endOfScan->recordBigKeyLengths();
    showLibraries();
    m_snapshots->keep(m_lintProfile.name.toUtf8());
    completeFinish();
}

std::optional<keyspace::MemoryEstimate> ScanSession::sampledEstimate(NodeRef ref) const
{
    if (!m_summary || !m_summary->sampleProbability || !m_view->isCurrent(ref))
        return std::nullopt;
    if (!m_sampledMemory)
        m_sampledMemory = std::make_unique<keyspace::SampledMemory>(*m_store.keys);
    return m_sampledMemory->estimate(ref.node);
}

void ScanSession::completeFinish()
{
    m_finalPublished = true;
    m_ingestedSincePublish = false;
    m_store.model->publish(true);
    m_store.patternModel->publish(true);
    Q_EMIT published();
    announceFinishSoon(); // once the biggest parents are in their order too (sorted on a worker): see storeFree()
}

void ScanSession::storeFree()
{
    if (isStoreBusy())
        return;
    if (!changesWait()) // else once the snapshot is kept
        m_changes->recordWaitingLengths();
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

void ScanSession::announceFinish()
{
    m_store.ingest->settle(*m_finishing);
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
    if (m_store.ingest) {
        const std::vector<scan::Ingest::ShardTally>& tallies = m_store.ingest->shardTallies();
        for (std::size_t i = 0; i < shards.size() && i < tallies.size(); ++i) {
            shards[i].keys = tallies[i].keys;
            shards[i].memoryBytes = tallies[i].memoryBytes;
            shards[i].memoryNotMeasured = tallies[i].memoryNotMeasured;
        }
    }
    return shards;
}

} // namespace keylens::models
