#include "report/ShardsJson.h"

#include "report/JsonWriter.h"

namespace keylens::report {

void writeShards(JsonWriter& json, const scan::ScanSummary& summary)
{
    json.key("shards").beginArray();
    for (const scan::ShardScan& shard : summary.shards) {
        json.beginObject();
        json.key("address").value(shard.address.toUtf8());
        json.key("keys").value(shard.keys);
        json.key("memory_bytes");
        summary.memoryMeasured ? json.value(shard.memoryBytes) : json.null(); // not measured is not zero
        json.key("keys_memory_unmeasured").value(shard.memoryNotMeasured);
        json.key("slots").value(shard.slots.toUtf8());
        json.key("slot_count").value(shard.slotCount);
        json.key("node_id").value(shard.nodeId);
        json.key("replica").value(shard.replica);
        json.key("dbsize");
        shard.dbsize ? json.value(std::int64_t(*shard.dbsize)) : json.null();
        json.key("complete").value(shard.complete);
        json.key("error");
        shard.error ? json.value(shard.error->message.toUtf8()) : json.null();
        json.endObject();
    }
    json.endArray();
}

} // namespace keylens::report
