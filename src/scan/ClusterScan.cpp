#include "scan/ClusterScan.h"

#include "base/SideTask.h"
#include "redis/ClusterSlot.h"
#include "redis/Connection.h"
#include "scan/KeyAnswers.h"
#include "scan/MemoryChecks.h"

#include <QDateTime>

#include <chrono>
#include <map>
#include <mutex>

namespace keylens::scan {

namespace {

using Clock = std::chrono::steady_clock;
using redis::ClusterTopology;
using redis::Connection;
using redis::Error;
using redis::ErrorKind;
using redis::Reply;
using redis::Result;

// What the shards' scans share: the outer sink, which hears one stream of batches, one progress and one server info.
class ClusterSink
{
public:
    ClusterSink(ScanSink& sink, std::uint64_t jobId, redis::ServerInfo seedInfo, std::size_t shards)
        : m_sink(sink)
        , m_jobId(jobId)
        , m_info(std::move(seedInfo))
        , m_progress(shards)
        , m_infos(shards)
    {
        m_info.dbsize = 0;
        m_info.usedMemory = 0;
    }

    void batch(std::size_t shard, KeyBatch&& batch)
    {
        batch.shard = std::uint16_t(shard);
        m_sink.batch(std::move(batch)); // the outer sink takes batches from any thread (see runClusterScan)
    }

    // Sums the shards' DBSIZE and used memory once each has answered (or ended without: `info` empty).
    void serverInfo(std::size_t shard, const std::optional<redis::ServerInfo>& info)
    {
        std::lock_guard lock(m_mutex);
        if (m_infos[shard].has_value() || m_infoSent)
            return;
        m_infos[shard] = info.value_or(redis::ServerInfo());
        if (info) {
            m_info.dbsize =
                info->dbsize && m_info.dbsize ? std::optional(*m_info.dbsize + *info->dbsize) : std::optional<qint64>();
            m_info.usedMemory = info->usedMemory && m_info.usedMemory
                                    ? std::optional(*m_info.usedMemory + *info->usedMemory)
                                    : std::optional<qint64>();
        }
        if (++m_infosIn == m_infos.size()) {
            m_infoSent = true;
            m_sink.serverInfo(m_info);
        }
    }

    void progress(std::size_t shard, const ScanProgress& progress, const QString& address)
    {
        std::lock_guard lock(m_mutex);
        m_progress[shard] = progress;
        if (!progress.trouble.isEmpty())
            m_progress[shard].trouble = address + QStringLiteral(": ") + progress.trouble;
        const auto now = Clock::now();
        if (now - m_lastSent < std::chrono::milliseconds(100))
            return;
        m_lastSent = now;
        m_sink.progress(combined());
    }

    void moved(std::vector<QByteArray>&& keys)
    {
        std::lock_guard lock(m_mutex);
        for (QByteArray& key : keys)
            m_moved.push_back(std::move(key));
    }

    std::vector<QByteArray> takeMoved()
    {
        std::lock_guard lock(m_mutex);
        return std::exchange(m_moved, {});
    }
    const redis::ServerInfo& info() const { return m_info; }
    ScanProgress finalProgress()
    {
        std::lock_guard lock(m_mutex);
        return combined();
    }

private:
    ScanProgress combined() const
    {
        ScanProgress total;
        total.jobId = m_jobId;
        total.dbsize = 0;
        total.etaMs = 0;
        QStringList trouble;
        for (const ScanProgress& shard : m_progress) {
            total.keysSeen += shard.keysSeen;
            total.vanished += shard.vanished;
            total.dbsize = total.dbsize >= 0 && shard.dbsize >= 0 ? total.dbsize + shard.dbsize : -1;
            total.elapsedMs = std::max(total.elapsedMs, shard.elapsedMs);
            total.keysPerSecond += shard.keysPerSecond;
            total.etaMs = total.etaMs >= 0 && shard.etaMs >= 0 ? std::max(total.etaMs, shard.etaMs) : -1;
            total.paused = total.paused || shard.paused;
            total.speed = shard.speed;
            total.backingOff = total.backingOff || shard.backingOff;
            if (!shard.trouble.isEmpty())
                trouble << shard.trouble;
        }
        total.trouble = trouble.join(QStringLiteral("; "));
        return total;
    }

    ScanSink& m_sink;
    std::uint64_t m_jobId;
    std::mutex m_mutex;
    redis::ServerInfo m_info;
    std::vector<ScanProgress> m_progress;
    std::vector<std::optional<redis::ServerInfo>> m_infos;
    std::size_t m_infosIn = 0;
    bool m_infoSent = false;
    Clock::time_point m_lastSent;
    std::vector<QByteArray> m_moved;
};

// One shard's view of the shared sink.
class ShardSink final : public ScanSink
{
public:
    ShardSink(ClusterSink& cluster, std::size_t shard, QString address)
        : m_cluster(cluster)
        , m_shard(shard)
        , m_address(std::move(address))
    {}
    void serverInfo(const redis::ServerInfo& info) override { m_cluster.serverInfo(m_shard, info); }
    void batch(KeyBatch&& batch) override { m_cluster.batch(m_shard, std::move(batch)); }
    void progress(const ScanProgress& progress) override { m_cluster.progress(m_shard, progress, m_address); }
    void movedKeys(std::vector<QByteArray>&& keys) override { m_cluster.moved(std::move(keys)); }

private:
    ClusterSink& m_cluster;
    std::size_t m_shard;
    QString m_address;
};

// The node to scan for a shard: its primary, or with fromReplicas a healthy replica when it has one.
redis::ClusterNode nodeToScan(const redis::ClusterShard& shard, bool fromReplicas)
{
    if (fromReplicas) {
        for (const redis::ClusterNode& replica : shard.replicas) {
            if (replica.healthy)
                return replica;
        }
    }
    return shard.primary;
}

// Asks the cluster for its shards again, through the seed or, when it is gone, any node scanned.
std::optional<ClusterTopology> rediscover(const std::vector<redis::ConnectionOptions>& nodes,
                                          const std::atomic<bool>* cancel)
{
    for (const redis::ConnectionOptions& node : nodes) {
        redis::ConnectionOptions quick = node;
        quick.connectTimeoutMs = std::min(quick.connectTimeoutMs, 2000);
        quick.readFromReplica = false;
        Result<std::unique_ptr<Connection>> connection = Connection::open(quick, cancel);
        if (!connection)
            continue;
        Result<ClusterTopology> topology = redis::discoverCluster(**connection);
        if (topology && !topology->shards.empty())
            return std::move(*topology);
    }
    return std::nullopt;
}

class ClusterRun
{
public:
    ClusterRun(std::uint64_t jobId, const ScanOptions& options, ScanControl& control, ScanSink& sink)
        : m_jobId(jobId)
        , m_options(options)
        , m_control(control)
        , m_sink(sink)
    {}

    ScanSummary run(ClusterTopology topology, const redis::ServerInfo& seedInfo);

private:
    struct Target
    {
        std::size_t shard = 0;
        redis::ConnectionOptions options;
        QByteArray nodeId; // the node the topology names there: whoever else answers at its address is not it
    };
    // Scans the targets at once, one thread each, and folds their summaries into m_summary's shards.
    void scanAll(ClusterSink& sink, const std::vector<Target>& targets);
    // A shard that failed may have failed over: scan its slots' new primary from the start.
    void scanTakenOver(ClusterSink& sink, const ClusterTopology& now);
    // Keys redirected mid-scan, asked about where they live now.
    void followMoved(ClusterSink& sink, const ClusterTopology& now);
    // Sampled mode: one probability for every shard, from their DBSIZE together, so that the sample stays uniform.
    void chooseSample(const std::vector<Target>& targets)
    {
        qint64 total = 0;
        for (const Target& target : targets) {
            Result<std::unique_ptr<Connection>> connection = Connection::open(target.options, m_control.cancelFlag());
            Result<Reply> dbsize = connection ? (**connection).command({"DBSIZE"}) : Result<Reply>(connection.error());
            if (!dbsize || !dbsize->isInteger())
                return; // each shard then samples by its own DBSIZE
            total += dbsize->integer();
        }
        if (total > 0)
            m_sampleProbability = std::min(1.0, double(m_options.sampleSize) / double(total));
    }
    std::optional<double> m_sampleProbability;
    void notice(const QString& text)
    {
        if (!m_summary.notices.contains(text))
            m_summary.notices << text;
    }

    std::uint64_t m_jobId;
    const ScanOptions& m_options;
    ScanControl& m_control;
    ScanSink& m_sink;
    ScanSummary m_summary;
    ClusterTopology m_topology;
    std::vector<redis::ConnectionOptions> m_reachable; // the seed, then every node scanned
};

void ClusterRun::scanAll(ClusterSink& sink, const std::vector<Target>& targets)
{
    std::vector<ScanSummary> results(targets.size());
    base::eachOnItsOwnThread(targets.size(), [&](std::size_t i) {
        ScanOptions options = m_options;
        options.connection = targets[i].options;
        options.clusterNode = true;
        options.clusterNodeId = targets[i].nodeId;
        // --max-rate is for the whole scan: each of the shards scanned at once gets its share.
        if (m_options.maxKeysPerSecond > 0)
            options.maxKeysPerSecond = m_options.maxKeysPerSecond / double(targets.size());
        options.sampleProbability = m_sampleProbability;
        ShardSink shardSink(sink, targets[i].shard, targets[i].options.address());
        results[i] = runScan(m_jobId, options, m_control, shardSink);
        sink.serverInfo(targets[i].shard, std::nullopt); // a shard that failed to connect still counts as in
    });
    for (std::size_t i = 0; i < targets.size(); ++i) {
        const ScanSummary& result = results[i];
        ShardScan& shard = m_summary.shards[targets[i].shard];
        // Every scan of a shard counts what SCAN returned: a shard scanned again after a failover saw its keys twice,
        // and ingest drops the second sighting as a duplicate.
        m_summary.keysSeen += result.keysSeen;
        m_summary.vanished += result.vanished;
        m_summary.keysNotInspected += result.keysNotInspected;
        m_summary.scanCalls += result.scanCalls;
        m_summary.memoryNotMeasured += result.memoryNotMeasured;
        m_summary.keysMemoryCorrected += result.keysMemoryCorrected;
        m_summary.keysMemoryChecked += result.keysMemoryChecked;
        m_summary.memoryCorrectionBytes += result.memoryCorrectionBytes;
        m_summary.memorySamplingUnknown += result.memorySamplingUnknown;
        m_summary.exactMemory = m_summary.exactMemory && result.exactMemory;
        m_summary.movedKeys += result.movedKeys;
        m_summary.backoffs += result.backoffs;
        m_summary.reconnects += result.reconnects;
        m_summary.durationMs = std::max(m_summary.durationMs, result.durationMs);
        m_summary.serverRestarted = m_summary.serverRestarted || result.serverRestarted;
        m_summary.cancelled = m_summary.cancelled || result.cancelled;
        m_summary.memoryMeasured = m_summary.memoryMeasured && result.memoryMeasured;
        m_summary.accessNotMeasured += result.accessNotMeasured;
        // The shards share one policy as a rule; a shard that could not be asked leaves the others' question.
        if (result.access != AccessQuestion::None)
            m_summary.access = result.access;
        if (result.sampleProbability)
            m_summary.sampleProbability = result.sampleProbability;
        shard.keysSeen += result.keysSeen;
        shard.complete = result.complete;
        shard.error = result.error;
        shard.dbsize = result.server.dbsize;
        for (const QString& text : result.notices)
            notice(targets[i].options.address() + QStringLiteral(": ") + text);
    }
}

void ClusterRun::scanTakenOver(ClusterSink& sink, const ClusterTopology& now)
{
    std::vector<Target> again;
    for (std::size_t i = 0; i < m_topology.shards.size(); ++i) {
        // A cancelled scan stopped its shards on purpose: none failed over.
        const std::optional<Error>& failure = m_summary.shards[i].error;
        if (!failure || m_summary.cancelled)
            continue;
        const int owner = now.shardOfSlot(m_topology.shards[i].slots.front().first);
        if (owner < 0)
            continue;
        const redis::ClusterShard& taken = now.shards[std::size_t(owner)];
        const redis::ClusterNode node = nodeToScan(taken, m_options.fromReplicas);
        if (node.id == m_summary.shards[i].nodeId)
            continue; // the same node: it is down, not replaced
        const redis::ConnectionOptions options = redis::nodeOptions(m_options.connection, node);
        notice(QStringLiteral("shard %1 (slots %2) failed during the scan (%3) and %4 took over its slots: that "
                              "node was scanned from the start, and keys found on both were counted once")
                   .arg(m_summary.shards[i].address, m_summary.shards[i].slots, failure->message, options.address()));
        m_summary.shards[i].address = options.address();
        m_summary.shards[i].nodeId = node.id;
        again.push_back(Target{i, options, node.id});
    }
    if (!again.empty())
        scanAll(sink, again);
}

void ClusterRun::followMoved(ClusterSink& sink, const ClusterTopology& now)
{
    std::vector<QByteArray> moved = sink.takeMoved();
    const std::size_t movedCount = moved.size();
    if (movedCount == 0)
        return;
    std::map<int, std::vector<QByteArray>> byShard;
    for (QByteArray& key : moved) {
        const int owner = now.shardOfSlot(redis::clusterSlot(key));
        if (owner >= 0)
            byShard[owner].push_back(std::move(key));
    }
    const std::int64_t nowMs = QDateTime::currentMSecsSinceEpoch();
    std::uint64_t resolved = 0;
    for (auto& [owner, keys] : byShard) {
        // A plain reference: C++20 as Clang 14 reads it lets no lambda capture a structured binding.
        const redis::ClusterShard& shard = now.shards[std::size_t(owner)];
        const redis::ClusterNode& node = shard.primary;
        Result<std::unique_ptr<Connection>> opened =
            Connection::open(redis::nodeOptions(m_options.connection, node), m_control.cancelFlag());
        if (!opened)
            continue;
        Connection& connection = **opened;
        for (const QByteArray& key : keys) {
            connection.append({"TYPE", key});
            connection.append({"PTTL", key});
            if (m_summary.memoryMeasured)
                connection.append({"MEMORY", "USAGE", key});
            if (m_summary.access != AccessQuestion::None)
                connection.append({"OBJECT", accessSubcommand(m_summary.access), key});
        }
        KeyBatch batch;
        batch.jobId = m_jobId;
        // Counted with the shard it was found on now: one of those scanned, or a node that joined (listed then).
        const std::size_t stored = [&] {
            for (std::size_t i = 0; i < m_summary.shards.size(); ++i) {
                if (m_summary.shards[i].nodeId == node.id)
                    return i;
            }
            ShardScan joined;
            joined.address = redis::nodeOptions(m_options.connection, node).address();
            joined.nodeId = node.id;
            joined.slots = shard.slotsText();
            joined.slotCount = shard.slotCount();
            m_summary.shards.push_back(std::move(joined));
            return m_summary.shards.size() - 1;
        }();
        const auto readAnswer = [&](bool asked, std::optional<Reply>* answer) {
            if (!asked)
                return true;
            Result<Reply> reply = connection.read();
            if (!reply)
                return false;
            answer->emplace(std::move(*reply));
            return true;
        };
        std::vector<KeyAnswers> answers(keys.size());
        std::size_t read = 0;
        for (; read < keys.size(); ++read) {
            KeyAnswers& key = answers[read];
            key.accessAsked = m_summary.access;
            if (!readAnswer(true, &key.type) || !readAnswer(true, &key.pttl) ||
                !readAnswer(m_summary.memoryMeasured, &key.memory) ||
                !readAnswer(m_summary.access != AccessQuestion::None, &key.access))
                break; // the connection failed: the rest stay counted as moved
        }
        // The memory checks the shards' scans ask (MemorySampling.h), in a second round.
        answers.resize(read);
        appendMemoryChecks(
            connection, answers, [&](std::size_t i) { return QByteArrayView(keys[i]); },
            m_summary.exactMemory ? m_summary.exactMemoryCap : 0);
        if (readMemoryChecks(connection, answers))
            read = 0; // the connection failed, or the node is busy: they stay counted as moved
        for (std::size_t i = 0; i < read; ++i) {
            if (isRedirect(answers[i].type) || isRedirect(answers[i].memoryCheck))
                continue; // still on the move: stays counted as moved
            ++resolved;
            keyspace::KeyInfo info;
            if (!keyFromAnswers(answers[i], nowMs, &info))
                ++batch.vanished;
            else
                batch.add(keys[i], info);
        }
        m_summary.vanished += batch.vanished;
        sink.batch(stored, std::move(batch));
    }
    m_summary.movedKeys -= std::min(resolved, m_summary.movedKeys);
    notice(QStringLiteral("%1 keys moved to another shard while they were scanned (a reshard); %2 of them were "
                          "asked about again where they went")
               .arg(movedCount)
               .arg(resolved));
}

ScanSummary ClusterRun::run(ClusterTopology topology, const redis::ServerInfo& seedInfo)
{
    m_summary.jobId = m_jobId;
    m_summary.speed = m_options.speed;
    m_summary.maxKeysPerSecond = m_options.maxKeysPerSecond;
    m_summary.memoryMeasured = m_options.measureMemory;
    m_summary.exactMemory = m_options.measureMemory && m_options.exactMemory;
    m_summary.exactMemoryCap = m_summary.exactMemory ? m_options.exactMemoryCap : 0;
    m_summary.coldAfterSeconds = m_options.coldAfterSeconds;
    m_summary.server = seedInfo;
    const auto started = Clock::now();
    m_topology = std::move(topology);
    if (m_topology.shards.empty()) {
        m_summary.error = Error{ErrorKind::Server, QStringLiteral("%1 is in cluster mode but serves no slots (a "
                                                                  "cluster not formed yet?)")
                                                       .arg(m_options.connection.address())};
        return m_summary;
    }
    if (m_topology.shards.size() > 0xffff) {
        m_summary.error = Error{ErrorKind::Unsupported, QStringLiteral("more than 65,535 shards")};
        return m_summary;
    }
    m_reachable.push_back(m_options.connection);
    std::vector<Target> targets;
    for (std::size_t i = 0; i < m_topology.shards.size(); ++i) {
        const redis::ClusterShard& shard = m_topology.shards[i];
        const redis::ClusterNode node = nodeToScan(shard, m_options.fromReplicas);
        Target target{i, redis::nodeOptions(m_options.connection, node), node.id};
        ShardScan scan;
        scan.address = target.options.address();
        scan.nodeId = node.id;
        scan.slots = shard.slotsText();
        scan.slotCount = shard.slotCount();
        scan.replica = !node.primary;
        if (m_options.fromReplicas && node.primary)
            notice(QStringLiteral("shard %1 (slots %2) has no healthy replica: its primary was scanned")
                       .arg(scan.address, scan.slots));
        m_summary.shards.push_back(std::move(scan));
        m_reachable.push_back(target.options);
        targets.push_back(std::move(target));
    }
    if (m_options.sampleSize > 0)
        chooseSample(targets);
    redis::ServerInfo info = seedInfo;
    for (const ShardScan& shard : m_summary.shards)
        info.shards.emplace_back(shard.address, shard.slots);
    ClusterSink sink(m_sink, m_jobId, info, targets.size());
    scanAll(sink, targets);

    if (!m_control.isCancelled()) {
        if (std::optional<ClusterTopology> now = rediscover(m_reachable, m_control.cancelFlag())) {
            scanTakenOver(sink, *now);
            followMoved(sink, *now);
            const std::vector<QByteArray> before = m_topology.slotOwners();
            const std::vector<QByteArray> after = now->slotOwners();
            int changed = 0;
            for (std::size_t slot = 0; slot < before.size(); ++slot)
                changed += before[slot] != after[slot] ? 1 : 0;
            if (changed > 0)
                notice(QStringLiteral("%1 slots changed shard during the scan (a reshard or failover): each key was "
                                      "counted once, by name, but keys that moved may be missing; scan again for "
                                      "exact figures")
                           .arg(changed));
        }
    }

    // The summary of the whole: complete when every shard was, and every slot is served.
    m_summary.server = sink.info();
    m_summary.complete = !m_summary.cancelled;
    QStringList failed;
    for (const ShardScan& shard : m_summary.shards) {
        m_summary.complete = m_summary.complete && shard.complete;
        if (shard.error)
            failed << QStringLiteral("%1 (slots %2): %3").arg(shard.address, shard.slots, shard.error->message);
    }
    if (const int covered = m_topology.slotsCovered(); covered < int(redis::ClusterSlots)) {
        m_summary.complete = false;
        notice(QStringLiteral("%1 of 16384 slots are served by no shard: their keys, if any, were not scanned")
                   .arg(int(redis::ClusterSlots) - covered));
    }
    if (!failed.isEmpty()) {
        const bool allFailed = std::size_t(failed.size()) == m_summary.shards.size() && m_summary.scanCalls == 0;
        const ErrorKind kind = allFailed ? m_summary.shards.front().error->kind : ErrorKind::ConnectionLost;
        m_summary.error = Error{kind, QStringLiteral("%1 of %2 shards could not be scanned: %3")
                                          .arg(failed.size())
                                          .arg(m_summary.shards.size())
                                          .arg(failed.join(QStringLiteral("; ")))};
        if (allFailed && failed.size() == 1)
            m_summary.error->message = m_summary.shards.front().error->message;
    }
    if (m_summary.durationMs == 0)
        m_summary.durationMs = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();
    m_sink.progress(sink.finalProgress());
    return m_summary;
}

} // namespace

ScanSummary runClusterScan(std::uint64_t jobId, const ScanOptions& options, redis::ClusterTopology topology,
                           const redis::ServerInfo& seedInfo, ScanControl& control, ScanSink& sink)
{
    ClusterRun run(jobId, options, control, sink);
    return run.run(std::move(topology), seedInfo);
}

} // namespace keylens::scan
