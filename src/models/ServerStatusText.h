#pragma once

#include "redis/ServerStatus.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace keylens::models {

// One line of the server panel: "Used memory: 1.2 GiB".
struct StatusLine
{
    QString label;
    QString value;
    QString toolTip;       // the INFO fields it comes from
    bool available = true; // false: the value says the server did not give it (shown greyed)
};

struct StatusGroup
{
    QString title;
    std::vector<StatusLine> lines;
};

// What the scan counted, set beside the server's own figures so the overhead shows.
struct ScannedTotals
{
    std::uint64_t keys = 0;
    std::uint64_t memoryBytes = 0;
    bool complete = false; // the scan went through the whole keyspace
};

// The server at a glance, in words: version and uptime; memory (used, peak, fragmentation, the limit and the
// eviction policy, and the scanned keys' share of used_memory); keys per database and the hit rate; clients, ops/s,
// evicted and expired keys; persistence; replication. A section the server refused reads "not available".
std::vector<StatusGroup> describeServerStatus(const redis::ServerStatus& status, const ScannedTotals& scanned);

} // namespace keylens::models
