#pragma once

#include "redis/ConnectionOptions.h"
#include "redis/ServerInfo.h"
#include "scan/MemorySampling.h"
#include "scan/ScanSpeed.h"

#include <QByteArray>
#include <QByteArrayList>
#include <QHash>
#include <QMetaType>
#include <QStringList>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace keylens::scan {

// Which question about a key's last access a scan asks: OBJECT IDLETIME, or OBJECT FREQ when the server's
// maxmemory-policy is an LFU one (where IDLETIME is an error, and FREQ is one under any other policy).
enum class AccessQuestion { None, IdleTime, Frequency };
// 7 days: nothing has read such a key in a week.
inline constexpr std::int64_t DefaultColdAfterSeconds = 7 * 24 * 3600;
// OBJECT's subcommand for the question: "IDLETIME" or "FREQ".
inline const char* accessSubcommand(AccessQuestion question)
{
    return question == AccessQuestion::Frequency ? "FREQ" : "IDLETIME";
}

struct ScanOptions
{
    redis::ConnectionOptions connection;
    // An RDB file to read instead of a server ("-": standard input): no server is touched (rdb::scanRdbFile). Its
    // database is connection.db.
    QString rdbFile;
    // A file's TTLs as they were when it was saved (its AUX ctime), or as they are now: keys whose time had run out
    // by then are counted as expired, not as keys.
    bool ttlFromSave = true;
    // A file's idle times and LFU counters (saved under an LRU or LFU policy) are read: they cost nothing, unlike a
    // server's OBJECT. --no-access leaves them unread.
    bool fileAccess = true;
    // An RDB file: keep the first this many bytes of a few string values per kind of key (ScanSummary::valuePrefixes),
    // and the first members of a few sets, sorted sets and lists without a TTL (ScanSummary::valueMembers), for a
    // lint's role evidence; 0 keeps none.
    int valuePrefixBytes = 0;
    // And of those collections, the first this many members, each up to valueMemberBytes; 0 keeps none.
    int valueMembers = 0;
    int valueMemberBytes = 0;
    QByteArray match; // SCAN MATCH glob; empty for every key
    QByteArray type;  // SCAN TYPE; empty for every type
    ScanSpeed speed = ScanSpeed::Full;
    int count = 0; // SCAN COUNT; 0: the speed's (1000 full: above it a batch got slower; 100 gentle)
    // MEMORY USAGE per key, with the server's default sampling; a collection that may have been sampled is asked again
    // with SAMPLES 64 to tell (scan/MemorySampling.h).
    bool measureMemory = true;
    // --exact-memory: such a collection is asked SAMPLES 0 instead (every element) while its figure bounds its elements
    // to at most exactMemoryCap; bigger ones keep the sampled figure and are counted as sampled.
    bool exactMemory = false;
    std::uint64_t exactMemoryCap = DefaultExactMemoryCap;
    // OBJECT IDLETIME (or FREQ) per key: neither it nor TYPE, PTTL and MEMORY USAGE touch the key's LRU clock.
    // Opt-in: a fourth command per key costs a server-bound scan a fifth more time (bench_scan: 3.49 against 2.94 us
    // of server CPU a key at 1,000,000 keys), past the 10 % a scan may grow by for it.
    bool measureAccess = false;
    // A key idle longer than this is cold (the store's threshold, set from the scan's start).
    std::int64_t coldAfterSeconds = DefaultColdAfterSeconds;
    double maxKeysPerSecond = 0; // 0: as fast as the server answers
    // After a lost connection, a timeout or a busy server (BUSY, LOADING, MASTERDOWN) mid-scan: how many times to
    // connect again (waiting 0.25 s, doubling to 5 s) before giving up. 0: give up at once.
    int reconnectAttempts = 8;
    // A server in cluster mode (INFO server's redis_mode) is scanned as a cluster: every shard at once, one thread
    // and one connection each. `cluster` (-c) asks for it explicitly, and says so when the server is not one.
    bool cluster = false;
    // Sampled mode: MEMORY USAGE for a uniform random sample of about this many keys (each key with the same
    // probability, sampleSize / DBSIZE), names, types and TTLs for all; 0 measures every key.
    std::uint64_t sampleSize = 0;
    bool fromReplicas = false; // scan a healthy replica of each shard instead of its primary, where there is one
    // Run the scan's threads at background priority (base::runAtBackgroundPriority): the GUI's scans, so that
    // its thread comes first on a busy machine; the CLI has no thread that must answer a user meanwhile.
    bool background = false;
    // Internal: this scan is of one node of a cluster, on behalf of a cluster scan (never recurses into another).
    bool clusterNode = false;
    // Internal: that node's id (CLUSTER MYID); a server at its address with another id is not scanned.
    QByteArray clusterNodeId;
    // Internal: with sampleSize, the probability the cluster scan chose from all shards' DBSIZE (one for all).
    std::optional<double> sampleProbability;
};

// One shard of a cluster scan: where it was scanned, what it served, how it went. keys and memoryBytes are what
// entered the store from it (set by whoever ingests, Ingest::settle), so they add up to the store's totals.
struct ShardScan
{
    QString address; // the node scanned: the primary, or the replica with fromReplicas
    QByteArray nodeId;
    QString slots; // "0-5460"
    int slotCount = 0;
    bool replica = false;
    bool complete = false;
    std::uint64_t keysSeen = 0;
    std::uint64_t keys = 0;
    std::uint64_t memoryBytes = 0;
    std::uint64_t memoryNotMeasured = 0;
    std::optional<qint64> dbsize;
    std::optional<redis::Error> error; // why this shard's scan stopped early, when it did
};

// An RDB file's keys whose lengths are kept (ScanSummary::knownLengths): no big string or big collection takes less
// (lint's BigStringBytes and BigCollectionMinimumBytes are 10 KiB; tst_rdb finds both in a file), and at most
// KnownLengthsMaximum of them, the most the end of a scan asks of a server (lint::BigKeyCandidatesMaximum).
inline constexpr std::uint64_t KnownLengthsFromBytes = 8 * 1024;
inline constexpr std::size_t KnownLengthsMaximum = 100'000;

// What an RDB file says of itself (ScanOptions::rdbFile), for the Server tab: the header, the AUX fields as saved
// (redis-ver, ctime, used-mem, aof-base, repl-id…), RESIZEDB's counts.
struct RdbFileFacts
{
    int version = 0;
    bool valkey = false;
    std::int64_t fileBytes = -1; // -1 on standard input
    std::uint64_t bytesRead = 0;
    std::vector<std::pair<QByteArray, QByteArray>> aux;
    std::vector<std::pair<int, std::uint64_t>> keysByDatabase; // RESIZEDB, every database in the file
    std::uint64_t functions = 0;
    bool checksumChecked = false;
};

struct ScanProgress
{
    std::uint64_t jobId = 0;
    std::uint64_t keysSeen = 0; // keys SCAN returned so far (a key returned twice counts twice)
    std::uint64_t vanished = 0;
    std::int64_t dbsize = -1;   // -1 when DBSIZE was denied
    std::int64_t elapsedMs = 0; // time spent scanning, pauses excluded
    double keysPerSecond = 0;
    std::int64_t etaMs = -1; // -1 when unknown
    bool paused = false;
    ScanSpeed speed = ScanSpeed::Full;
    bool backingOff = false; // gentle: resting longer because the server answers slower than it did
    QString trouble;         // what keeps the scan waiting (a lost connection, a busy server); empty when none
    // Reading an RDB file (ScanOptions::rdbFile): its bytes read so far, and its size (-1 on standard input). A
    // file's keys come at the pace of its bytes, so the bytes say how far along it is; dbsize is a hint there.
    bool fromFile = false;
    std::uint64_t bytesRead = 0;
    std::int64_t bytesTotal = -1;

    // How far along, 0..1: the file's bytes, else the keys of DBSIZE; unset when neither is known.
    std::optional<double> fractionDone() const
    {
        if (fromFile)
            return bytesTotal > 0 ? std::optional(std::min(1.0, double(bytesRead) / double(bytesTotal))) : std::nullopt;
        if (dbsize < 0)
            return std::nullopt;
        return dbsize > 0 ? std::min(1.0, double(keysSeen) / double(dbsize)) : 1.0;
    }
};

struct ScanSummary
{
    std::uint64_t jobId = 0;
    bool complete = false; // the SCAN cursor came back to 0
    bool cancelled = false;
    std::uint64_t keysSeen = 0;
    std::uint64_t vanished = 0;
    std::uint64_t keysNotInspected = 0; // stored with an unknown type: TYPE was denied or failed for them
    // Keys SCAN returned that never reached the store: their answers were still in flight, or not yet
    // read, when the scan stopped. Set by whoever ingests (settleInFlight), who alone knows what arrived.
    std::uint64_t keysInFlight = 0;
    std::uint64_t scanCalls = 0; // SCAN replies read; 0 means the scan failed before reading any key
    std::uint64_t memoryNotMeasured = 0;
    // Keys a cluster node redirected (MOVED/ASK) that could not be asked about again where they went.
    std::uint64_t movedKeys = 0;
    std::int64_t durationMs = 0;
    bool memoryMeasured = true; // false when MEMORY USAGE was turned off, denied or missing
    // --exact-memory (ScanOptions'): its cap, and the keys whose figure SAMPLES 0 changed, by how many bytes in all
    // (the whole figures less the sampled ones), as the scan asked them. The keys left sampled are counted in the
    // store (NamespaceStats::keysMemorySampled).
    bool exactMemory = false;
    std::uint64_t exactMemoryCap = 0;
    std::uint64_t keysMemoryCorrected = 0;
    std::int64_t memoryCorrectionBytes = 0;
    // Keys asked a second MEMORY USAGE (with SAMPLES: MemorySampling.h), what that cost the server in commands.
    std::uint64_t keysMemoryChecked = 0;
    // Keys whose second MEMORY USAGE (with SAMPLES) failed: whether their figure was sampled is not known.
    std::uint64_t memorySamplingUnknown = 0;
    // Read from an RDB file (ScanOptions::rdbFile): memory is estimated from the encodings, not measured.
    QString rdbFile;
    bool memoryEstimated = false;
    std::uint64_t keysExpired = 0; // in the file, expired by the time its TTLs are read as of (not stored)
    // The lengths (a string's bytes, a collection's elements) a file gives without being asked, of its keys that
    // may be big: those of KnownLengthsFromBytes or more estimated memory. The end of the scan judges big-string and
    // big-collection with them, as it does with a server's STRLEN and HLEN answers.
    std::shared_ptr<const QHash<QByteArray, std::uint64_t>> knownLengths;
    // The first bytes of a few string values of each kind of key, by key, kept as the file was read (RdbFileScan.h):
    // what a lint's role evidence would have asked a server for.
    std::shared_ptr<const QHash<QByteArray, QByteArray>> valuePrefixes;
    // The first members (lint::SampledMembers, each cut to lint::MemberBytes) of a few sets, sorted sets and lists
    // without a TTL of each kind of key, by key: what the role evidence would have asked a server for (SRANDMEMBER,
    // ZRANGE, LRANGE).
    std::shared_ptr<const QHash<QByteArray, QByteArrayList>> valueMembers;
    std::optional<RdbFileFacts> rdbFacts;
    // The access question the scan asked (last, when a policy change mid-scan switched it); None when it was turned
    // off, denied or failed from the start.
    AccessQuestion access = AccessQuestion::None;
    std::uint64_t accessNotMeasured = 0;                     // keys stored without an idle time or counter
    std::int64_t coldAfterSeconds = DefaultColdAfterSeconds; // ScanOptions'
    // Sampled mode: the probability with which each key's memory was measured (the keys not measured are counted
    // in memoryNotMeasured); memory figures are then estimates (keyspace::MemoryEstimate). Unset: every key.
    std::optional<double> sampleProbability;
    ScanSpeed speed = ScanSpeed::Full;
    double maxKeysPerSecond = 0;  // ScanOptions' (--max-rate): 0 when the scan was not held to a rate
    std::uint64_t backoffs = 0;   // gentle: rounds after which the latency guard rested longer
    std::uint64_t reconnects = 0; // times the scan connected again after losing its connection or a busy server
    // The server restarted, or another took over in a failover, during the scan (its run_id changed): the scan
    // started over, and keys stored before may be gone from the server.
    bool serverRestarted = false;
    QStringList notices; // what a reader of the results must know (denied commands, ...)
    redis::ServerInfo server;
    std::optional<redis::Error> error; // why the scan stopped early, when it did
    // A cluster scan's shards, by their first slot; empty for a single server.
    std::vector<ShardScan> shards;

    // Every key SCAN returned is stored, a duplicate, vanished, moved away, or in flight: `received` is the number of
    // batch entries the ingesting side took (stored and duplicates).
    void settleInFlight(std::uint64_t received)
    {
        const std::uint64_t accounted = received + vanished + movedKeys;
        keysInFlight = keysSeen > accounted ? keysSeen - accounted : 0;
    }
    bool isCluster() const { return !shards.empty(); }

    // Keys SCAN returned per second of scanning; the key count itself for a scan too short to time.
    std::uint64_t keysPerSecond() const
    {
        return durationMs > 0 ? keysSeen * 1000 / std::uint64_t(durationMs) : keysSeen;
    }
};

} // namespace keylens::scan

Q_DECLARE_METATYPE(keylens::scan::ScanProgress)
Q_DECLARE_METATYPE(keylens::scan::ScanSummary)
