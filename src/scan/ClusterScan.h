#pragma once

#include "redis/ClusterTopology.h"
#include "scan/ScanLoop.h"

namespace keylens::scan {

// Scans a Redis Cluster as one keyspace, on the calling thread, blocking until every shard is done.
//
// `topology` is what the node the user gave said of the shards (redis::discoverCluster): every shard's primary (or a
// replica, ScanOptions::fromReplicas) is scanned at once, one thread and one connection each, by the single-server
// scan. Their batches go to `sink` tagged with the shard's index (KeyBatch::shard), from several threads: the sink must
// take them so.
//
// A shard that cannot be scanned is reported in its ShardScan and the summary's error, and the others go on. When
// one fails, the cluster is asked again: if a replica took over its slots, the new primary is scanned from the
// start (the keys found twice are dropped at ingest). Keys that moved to another shard while they were asked about
// (MOVED, ASK: a reshard) are asked about again where they went; a change of slot owners is reported.
ScanSummary runClusterScan(std::uint64_t jobId, const ScanOptions& options, redis::ClusterTopology topology,
                           const redis::ServerInfo& seedInfo, ScanControl& control, ScanSink& sink);

} // namespace keylens::scan
