#include "report/JsonReport.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "redis/ClusterSlot.h"
#include "report/JsonWriter.h"
#include "report/ShardsJson.h"

#include <cmath>

namespace keylens::report {

namespace {

using keyspace::KeyType;
using keyspace::NamespaceStats;

// "memory_bytes": the sum, or null when no key of these was measured (not measured is not zero);
// "memory_bytes_if_loaded": of an RDB file's keys, what a server that loads the file would hold, where that is less
// (streams whose newest node the server that wrote them allocated ahead of its entries); absent where it is the same;
// "memory_lower_bound": true when some were not, so that the sum is a lower bound.
void writeMemory(JsonWriter& json, const ScanReport& report, const keyspace::MemoryFigure& figure,
                 std::uint64_t preallocatedBytes = 0)
{
    json.key("memory_bytes");
    const bool known = report.summary.memoryMeasured ? figure.known() : false;
    if (known)
        json.value(figure.bytes);
    else
        json.null();
    if (known && preallocatedBytes > 0)
        json.key("memory_bytes_if_loaded").value(figure.bytes - std::min(figure.bytes, preallocatedBytes));
    json.key("memory_lower_bound").value(known && figure.atLeast());
}

// A sampled scan's estimate: "memory_estimate": {"bytes", "bound_bytes" (± that; null when too few keys were
// measured), "sampled_keys", "standard_errors"}; absent when every key was measured.
void writeEstimate(JsonWriter& json, const std::optional<keyspace::MemoryEstimate>& estimate)
{
    if (!estimate)
        return;
    json.key("memory_estimate").beginObject();
    json.key("bytes");
    estimate->bytes ? json.value(std::uint64_t(std::llround(*estimate->bytes))) : json.null();
    json.key("bound_bytes");
    estimate->bound ? json.value(std::uint64_t(std::llround(*estimate->bound))) : json.null();
    json.key("sampled_keys").value(estimate->sampledKeys);
    json.key("standard_errors").value(keyspace::BoundInStandardErrors);
    json.endObject();
}

void writeTypes(JsonWriter& json, const NamespaceStats& stats)
{
    const auto count = [&](KeyType type) { return stats.types[static_cast<std::size_t>(type)]; };
    json.key("types").beginObject();
    for (const KeyType type :
         {KeyType::String, KeyType::Hash, KeyType::List, KeyType::Set, KeyType::ZSet, KeyType::Stream})
        json.key(keyspace::keyTypeName(type)).value(count(type));
    json.key("other").value(std::uint64_t(count(KeyType::Other)));     // module types
    json.key("unknown").value(std::uint64_t(count(KeyType::Unknown))); // TYPE denied: not guessed
    json.endObject();
}

// Keys whose PTTL was denied are counted apart: they have neither a TTL nor none, and the share of keys
// with a TTL is taken over the measured ones (null when none was).
// Null when no key's TTL was measured (PTTL denied): "0 with a TTL" would be a claim.
bool ttlCountsKnown(const NamespaceStats& stats)
{
    return stats.keys == 0 || stats.keysTtlKnown() > 0;
}

void writeKeysWithTtl(JsonWriter& json, const NamespaceStats& stats)
{
    json.key("keys_with_ttl");
    ttlCountsKnown(stats) ? json.value(stats.keysWithTtl) : json.null();
}

void writeTtlCounts(JsonWriter& json, const NamespaceStats& stats)
{
    writeKeysWithTtl(json, stats);
    json.key("keys_without_ttl");
    ttlCountsKnown(stats) ? json.value(stats.keysWithoutTtl()) : json.null();
    json.key("keys_ttl_unknown").value(stats.keysTtlUnknown);
    json.key("ttl_share");
    const std::optional<double> share = stats.ttlShare();
    share ? json.value(*share) : json.null();
}

void writeRemaining(JsonWriter& json, QByteArrayView field, std::int64_t expiryMs, const ScanReport& report,
                    bool present)
{
    json.key(field);
    if (present)
        json.value(report.remainingMs(expiryMs));
    else
        json.null();
}

void writeOthers(JsonWriter& json, const ScanReport& report, const Others& others)
{
    json.key("others").beginObject();
    json.key("namespaces").value(others.namespaces);
    json.key("keys").value(others.keys);
    writeMemory(json, report, keyspace::memoryFigureOf(others), others.preallocatedBytes);
    json.endObject();
}

// Access figures: idle percentiles (LRU) or counter percentiles (LFU), each null when not measured; cold memory
// null when no key's idle time was (it is not 0).
void writeAccess(JsonWriter& json, const NamespaceStats& stats, const keyspace::AccessFigures& access)
{
    const auto optional = [&](const char* key, auto value) {
        json.key(key);
        value ? json.value(std::int64_t(*value)) : json.null();
    };
    optional("idle_p50_s", access.idleP50Seconds);
    optional("idle_p90_s", access.idleP90Seconds);
    json.key("cold_memory_bytes");
    stats.idleMeasured() && stats.keysMemoryUnmeasured < stats.keys ? json.value(stats.coldMemoryBytes) : json.null();
    json.key("keys_cold"); // as unknown as the cold memory where no idle time was measured, not 0
    stats.idleMeasured() ? json.value(stats.keysCold) : json.null();
    json.key("keys_idle_unknown").value(stats.keysIdleUnknown);
    optional("freq_p50", access.frequencyP50);
    optional("freq_p90", access.frequencyP90);
}

// Keys whose memory the server scaled up from a few elements (MEMORY USAGE's default sampling of a big collection),
// and how much of memory_bytes they make: "keys_memory_sampled", "memory_sampled_bytes".
void writeSampled(JsonWriter& json, const NamespaceStats& stats)
{
    json.key("keys_memory_sampled").value(stats.keysMemorySampled);
    json.key("memory_sampled_bytes").value(stats.memorySampledBytes);
}

void writeNamespace(JsonWriter& json, const ScanReport& report, const NamespaceEntry& entry)
{
    const NamespaceStats& stats = entry.stats;
    json.beginObject();
    json.bytesField("path", entry.path);
    json.bytesField("name", entry.name);
    json.key("keys").value(stats.keys);
    writeMemory(json, report, keyspace::memoryFigureOf(stats), stats.preallocatedBytes);
    json.key("keys_memory_unmeasured").value(stats.keysMemoryUnmeasured);
    writeSampled(json, stats);
    writeEstimate(json, entry.estimate);
    writeTtlCounts(json, stats);
    writeRemaining(json, "ttl_min_ms", stats.soonestExpiryMs, report, stats.hasExpiringKeys());
    writeRemaining(json, "ttl_max_ms", stats.latestExpiryMs, report, stats.hasExpiringKeys());
    writeTypes(json, stats);
    writeAccess(json, stats, entry.access);
    if (entry.library)
        json.key("library").value(QByteArrayView(entry.library->id));
    json.key("children").beginArray();
    for (const NamespaceEntry& child : entry.children)
        writeNamespace(json, report, child);
    json.endArray();
    writeOthers(json, report, entry.others);
    json.endObject();
}

} // namespace

QByteArray toJson(const ScanReport& report)
{
    const scan::ScanSummary& summary = report.summary;
    QByteArray out;
    JsonWriter json(&out);
    json.beginDocument(1);

    json.key("server").beginObject();
    json.key("address").value(summary.server.address.toUtf8());
    json.key("redis_version");
    summary.server.redisVersion.isEmpty() ? json.null() : json.value(summary.server.redisVersion.toUtf8());
    json.key("db").value(summary.server.db);
    json.key("run_id").value(summary.server.runId);
    json.key("dbsize");
    summary.server.dbsize ? json.value(std::int64_t(*summary.server.dbsize)) : json.null();
    json.key("used_memory");
    summary.server.usedMemory ? json.value(std::int64_t(*summary.server.usedMemory)) : json.null();
    json.endObject();

    json.key("scan").beginObject();
    json.key("complete").value(summary.complete);
    json.key("generated_at_ms").value(report.generatedAtMs);
    json.key("keys").value(std::uint64_t(report.totals.keys));
    json.key("vanished").value(summary.vanished);
    json.key("duration_ms").value(summary.durationMs);
    json.key("keys_per_second").value(summary.keysPerSecond());
    json.key("speed").value(scan::speedName(summary.speed).toUtf8());
    json.key("backoffs").value(summary.backoffs);
    json.key("memory_measured").value(summary.memoryMeasured);
    json.key("memory_estimated").value(summary.memoryEstimated); // read from an RDB file: MemoryModel's figures
    // --exact-memory: collections measured whole up to the cap; the keys whose figure that changed, and by how much.
    json.key("exact_memory").value(summary.exactMemory);
    json.key("exact_memory_cap");
    summary.exactMemory ? json.value(summary.exactMemoryCap) : json.null();
    json.key("keys_memory_checked").value(summary.keysMemoryChecked); // asked again, with SAMPLES
    json.key("keys_memory_corrected").value(summary.keysMemoryCorrected);
    json.key("memory_corrected_bytes").value(summary.memoryCorrectionBytes);
    json.key("keys_memory_sampling_unknown").value(summary.memorySamplingUnknown);
    json.key("rdb_file");
    summary.rdbFile.isEmpty() ? json.null() : json.value(summary.rdbFile.toUtf8());
    json.key("keys_expired").value(summary.keysExpired);
    json.key("access");
    summary.access == scan::AccessQuestion::None
        ? json.null()
        : json.value(QByteArrayView(summary.access == scan::AccessQuestion::IdleTime ? "idletime" : "freq"));
    json.key("cold_after_s").value(summary.coldAfterSeconds);
    json.key("sample_probability");
    summary.sampleProbability ? json.value(*summary.sampleProbability) : json.null(); // null: every key measured
    json.key("notices").beginArray();
    for (const QString& notice : summary.notices)
        json.value(notice.toUtf8());
    json.endArray();
    json.key("cancelled").value(summary.cancelled);
    json.key("error");
    summary.error ? json.value(summary.error->message.toUtf8()) : json.null();
    json.key("keys_seen").value(summary.keysSeen);
    json.key("duplicates").value(report.duplicates);
    json.key("keys_not_inspected").value(summary.keysNotInspected);
    json.key("keys_in_flight").value(summary.keysInFlight);
    json.key("delimiter").value(report.delimiter.bytes());
    json.key("suggested_delimiter");
    report.suggestedDelimiter ? json.value(QByteArrayView(&report.suggestedDelimiter, 1)) : json.null();
    json.key("other_delimiters").beginArray();
    for (const lint::DelimiterUse& use : report.otherDelimiters) {
        json.beginObject();
        json.key("delimiter").value(QByteArrayView(&use.delimiter, 1));
        json.key("keys").value(use.keys);
        json.endObject();
    }
    json.endArray();
    json.endObject();
    writeShards(json, summary);

    json.key("totals").beginObject();
    json.key("keys").value(report.totals.keys);
    writeMemory(json, report, keyspace::memoryFigureOf(report.totals), report.totals.preallocatedBytes);
    json.key("keys_memory_unmeasured").value(report.totals.keysMemoryUnmeasured);
    writeSampled(json, report.totals);
    writeEstimate(json, report.totalEstimate);
    writeTtlCounts(json, report.totals);
    writeTypes(json, report.totals);
    writeAccess(json, report.totals, report.totalAccess);
    json.key("keys_without_delimiter").value(report.keysWithoutDelimiter.keys);
    json.endObject();

    json.key("namespaces").beginArray();
    for (const NamespaceEntry& entry : report.namespaces)
        writeNamespace(json, report, entry);
    json.endArray();
    writeOthers(json, report, report.others);

    if (report.options.patterns) {
        json.key("patterns").beginArray();
        for (const PatternEntry& entry : report.patterns) {
            json.beginObject();
            json.bytesField("pattern", entry.pattern);
            json.key("keys").value(entry.stats.keys);
            writeMemory(json, report, keyspace::memoryFigureOf(entry.stats), entry.stats.preallocatedBytes);
            writeKeysWithTtl(json, entry.stats);
            writeTypes(json, entry.stats);
            writeAccess(json, entry.stats, entry.access);
            json.key("examples").beginArray();
            for (const QByteArray& key : entry.examples)
                json.bytesValue(key);
            json.endArray();
            // As for every byte field: where an example is not printable UTF-8, the exact bytes too, all of them.
            if (std::any_of(entry.examples.begin(), entry.examples.end(),
                            [](const QByteArray& key) { return !keyspace::isPrintableUtf8(key); })) {
                json.key("examples_base64").beginArray();
                for (const QByteArray& key : entry.examples)
                    json.value(key.toBase64());
                json.endArray();
            }
            if (entry.library)
                json.key("library").value(QByteArrayView(entry.library->id));
            json.endObject();
        }
        json.endArray();
    }

    json.key("libraries").beginArray();
    for (const LibraryEntry& entry : report.libraries) {
        json.beginObject();
        json.key("library").value(QByteArrayView(entry.library->id));
        json.key("name").value(QByteArrayView(entry.library->name));
        json.key("role").value(QByteArrayView(lint::roleName(entry.library->role)));
        json.key("keys").value(entry.keys);
        writeMemory(json, report, keyspace::memoryFigureOf(entry), entry.preallocatedBytes);
        json.key("roots").beginArray();
        for (const QByteArray& root : entry.roots)
            json.bytesValue(root);
        json.endArray();
        json.endObject();
    }
    json.endArray();

    json.key("top_keys").beginArray();
    for (const TopKey& top : report.topKeys) {
        json.beginObject();
        json.bytesField("key", top.key);
        json.key("type").value(keyspace::keyTypeName(top.info.type));
        json.key("memory_bytes").value(top.info.memoryBytes);
        if (top.info.preallocatedBytes > 0)
            json.key("memory_bytes_if_loaded").value(top.info.memoryBytes - top.info.preallocatedBytes);
        json.key("memory_sampled").value(top.info.memorySampled);
        if (summary.isCluster())
            json.key("slot").value(int(redis::clusterSlot(top.key))); // where a big key skews the cluster
        json.key("ttl_ms");
        if (top.info.expiresAtMs == keyspace::ExpiryUnknown)
            json.null(); // not measured
        else
            json.value(top.info.expiresAtMs == keyspace::NoExpiry ? std::int64_t(-1)
                                                                  : report.remainingMs(top.info.expiresAtMs));
        json.endObject();
    }
    json.endArray();
    json.endObject();
    return out;
}

} // namespace keylens::report
