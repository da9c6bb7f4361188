#pragma once

#include "keyspace/KeyType.h"

#include <QByteArrayView>

#include <cstdint>

namespace keylens::scan {

// MEMORY USAGE without SAMPLES measures a collection on its first 5 elements and scales their average up to the
// whole (Redis's objectComputeSize, OBJ_COMPUTE_SIZE_DEF_SAMPLES): a hash or set in a hash table, a sorted set in a
// skiplist, a list of more than 5 quicklist nodes, a stream of more than 5 listpack nodes. Strings and the compact
// encodings (listpack, intset) are measured whole whatever SAMPLES says. Against SAMPLES 0, namespaces read BullMQ
// -8 %, Bee-Queue -12.6 %, the demo's leaderboard -4.75 %.
inline constexpr int DefaultMemorySamples = 5;

// Whether a default figure was sampled is asked again with SAMPLES 64: a key of at most 5 elements (or nodes), and
// every compact encoding, answers both with the same figure, so a different one proves that the server scaled 5 up.
// The converse misses only a collection whose first 64 elements average exactly what its first 5 do (elements of one
// size, where scaling up is right). MEMORY USAGE finds the key without touching it (dictFind, no lookupKey): its LRU
// idle time and LFU counter stay as they were. About 1-2 us of server time a key, where SAMPLES 0 takes 15 ns an
// element (and up to ten times that when the elements are out of the cache).
inline constexpr int CheckMemorySamples = 64;

// Below this default figure no key is sampled: on Redis 7.0 the smallest that is (a set of 6 one-byte members in a
// hash table, under a one-byte name) measures 392 bytes. It keeps the check off most small collections: of the demo
// keyspace's 200,000 keys (108,000 collections), 21,544 are asked again.
inline constexpr std::uint64_t SampledFromBytes = 256;

// --exact-memory's default cap on the elements of a collection measured whole: 1.5 ms of the server's time at 15 ns an
// element, up to 17 ms out of the cache. Bigger collections keep their sampled figure, counted as such.
inline constexpr std::uint64_t DefaultExactMemoryCap = 100'000;

enum class MemoryCheck : std::uint8_t {
    None,
    WasSampled, // SAMPLES 64: tells whether the default figure was sampled
    Whole,      // SAMPLES 0: every element (--exact-memory, below its cap)
};

// The most elements (nodes, for a list or a stream) a collection whose figure is `memoryBytes` can hold: MEMORY USAGE
// counts at least so many bytes for each in Redis 6.2-7.4 (a hash field 40: its dictEntry and two allocations; a set
// member 32; a sorted-set member 80, with its skiplist node; a quicklist node 40; a stream node 24), and a sampled
// figure scales an average of such, so that the bound is never below the real count. 0 for what is no collection.
std::uint64_t elementBound(keyspace::KeyType type, std::uint64_t memoryBytes);

// What to ask again about a key whose default MEMORY USAGE answered `memoryBytes`. `exactCap`: --exact-memory's cap on
// elements, 0 without it.
MemoryCheck memoryCheckFor(keyspace::KeyType type, std::uint64_t memoryBytes, std::uint64_t exactCap);

// The SAMPLES argument of the check: "64" or "0".
QByteArrayView samplesArgument(MemoryCheck check);

} // namespace keylens::scan
