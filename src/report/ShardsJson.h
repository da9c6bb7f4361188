#pragma once

#include "scan/ScanTypes.h"

namespace keylens::report {

class JsonWriter;

// `"shards": [{"address", "keys", "memory_bytes", "slots", …}]`, one per shard of a cluster scan, by first slot; an
// empty list for a single server. Written by both `scan` and `lint` documents.
void writeShards(JsonWriter& json, const scan::ScanSummary& summary);

} // namespace keylens::report
