#pragma once

#include "redis/Connection.h"

#include <cstdint>
#include <functional>

namespace keylens::demo {

struct DemoOptions
{
    // What --keys and --demo-keys take at most: 50 million keys are ~4 GB in the demo's server.
    static constexpr std::uint64_t MaximumKeys = 50'000'000;
    std::uint64_t keys = 200'000; // exactly this many keys (at least the fixed ones, about 70)
    std::uint64_t seed = 20261129;
    std::function<bool()> shouldStop; // polled every few thousand keys; true ends seeding with ErrorKind::Cancelled
};

// Writes a realistic, messy keyspace into the connection's database: what an app that grew for a few
// years looks like. Users, sessions, API and query caches, job queues (hand-rolled, BullMQ, Sidekiq
// and Celery shapes), rate limits, locks, carts, leaderboards, streams and feature flags, with the
// mistakes the key-design articles warn about planted among them: mixed case, other delimiters, ids
// first, timestamps and data in key names, caches without TTL, big keys, cryptic abbreviations,
// placeholders, deep nesting, binary and very long names. Deterministic for a given seed.
redis::Status seedDemoKeyspace(redis::Connection& connection, const DemoOptions& options);

// The number of one-off keys every demo keyspace has, whatever its size.
std::uint64_t demoFixedKeyCount();

} // namespace keylens::demo
