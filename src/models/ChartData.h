#pragma once

#include "keyspace/Keyspace.h"

#include <QString>

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

namespace keylens::models {

// What the charts of one node (or pattern) show, taken from the store by one walk over its keys.
struct ChartData
{
    struct Bar
    {
        QString label;
        std::uint64_t keys = 0;
        std::uint64_t memoryBytes = 0;
        std::uint64_t count = 1; // > 1 for the "other" bar: how many it sums
    };
    // The TTL buckets, in this order: no TTL, under 1 min, 1 h, 1 day, 1 week, longer ("none", "<1m", …).
    static constexpr int TtlBuckets = 6;
    static QString ttlBucketName(int bucket);
    // Idle ages (OBJECT IDLETIME as of nowMs): under 1 hour, 1 day, 1 week, 30 days, longer ("<1h", …, "≥30d").
    static constexpr int IdleBuckets = 5;
    static QString idleBucketName(int bucket);
    static int idleBucketOf(keyspace::KeyAccess access, std::int64_t nowMs); // -1: no idle time
    // Key-name lengths in buckets of this many bytes, the last one open-ended.
    static constexpr int NameLengthStep = 4;
    static constexpr int NameLengthBuckets = 64; // up to 256 bytes, then "256 and more"
    // Memory per key: bucket b holds keys of [2^b, 2^(b+1)) bytes.
    static constexpr int MemoryBuckets = 40;
    static constexpr int TimelineMinutes = 24 * 60;
    static constexpr int TopBars = 9; // then "other"

    std::int64_t nowMs = 0;
    std::uint64_t keys = 0;
    std::uint64_t memoryBytes = 0;
    // Children (namespaces, keys or patterns), biggest first, TopBars of them and an "other" bar.
    std::vector<Bar> byMemory;
    std::vector<Bar> byKeys;
    keyspace::PerKeyType<std::uint64_t> types{};
    std::array<std::uint64_t, TtlBuckets> ttlKeys{};
    std::array<std::uint64_t, TtlBuckets> ttlMemory{};
    std::uint64_t ttlUnknown = 0; // PTTL denied: in no bucket
    std::array<std::uint64_t, IdleBuckets> idleKeys{};
    std::array<std::uint64_t, IdleBuckets> idleMemory{};
    std::uint64_t idleUnknown = 0; // no idle time measured: in no bucket
    std::array<std::uint64_t, NameLengthBuckets> nameLengths{};
    std::array<std::uint64_t, MemoryBuckets> memoryPerKey{}; // measured keys only
    std::array<std::uint32_t, TimelineMinutes> expiriesPerMinute{};

    static int ttlBucketOf(std::int64_t expiresAtMs, std::int64_t nowMs); // -1: not measured
    static int memoryBucketOf(std::uint64_t bytes);
    static int nameLengthBucketOf(std::size_t bytes);
};

// One walk over the keys below some roots (a node's subtree, or a pattern's members' subtrees), in steps,
// so that the GUI thread can run it a slice at a time while a scan adds keys, or a worker thread in one
// go once the store stops changing. Without recursion.
class ChartWalk
{
public:
    // The bar a key counts towards: the first-level node below a root that it is in (a root that is
    // itself a key counts as its own bar). Asked once per first-level node, in the constructor.
    using BarOf = std::function<QString(keyspace::NodeId firstLevel)>;

    ChartWalk(const keyspace::Keyspace& store, std::vector<keyspace::NodeId> roots, std::int64_t nowMs,
              const BarOf& barOf);
    // Walks up to `nodes` more nodes; true once every key was counted.
    bool step(std::size_t nodes);
    bool isDone() const { return m_stack.empty(); }
    const keyspace::Keyspace& store() const { return m_store; }
    // The figures once done (the bars sorted, "other" summed).
    ChartData result() const;

private:
    struct Visit
    {
        keyspace::NodeId node;
        std::uint32_t bar; // index in m_bars
    };
    void count(keyspace::NodeId key, std::uint32_t bar);

    const keyspace::Keyspace& m_store;
    std::vector<Visit> m_stack;
    std::vector<ChartData::Bar> m_bars;
    ChartData m_data;
};

} // namespace keylens::models
