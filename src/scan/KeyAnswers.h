#pragma once

#include "keyspace/NamespaceStats.h"
#include "redis/Reply.h"
#include "scan/MemorySampling.h"
#include "scan/ScanTypes.h"

#include <cstdint>
#include <optional>

namespace keylens::scan {

// The answers about one key, each absent when it was not asked.
struct KeyAnswers
{
    std::optional<redis::Reply> type;
    std::optional<redis::Reply> pttl;
    std::optional<redis::Reply> memory;
    std::optional<redis::Reply> access; // to `accessAsked`
    AccessQuestion accessAsked = AccessQuestion::None;
    // MEMORY USAGE asked again with SAMPLES (`checkAsked`), after `memory`'s default figure (MemorySampling.h).
    std::optional<redis::Reply> memoryCheck;
    MemoryCheck checkAsked = MemoryCheck::None;
};

// What the answers to TYPE, PTTL, MEMORY USAGE and OBJECT IDLETIME/FREQ say about one key. Error answers leave their
// field unknown: the caller reports them. Returns false when the key vanished (TYPE none, PTTL -2, MEMORY USAGE or
// OBJECT nil) between SCAN and the questions. `nowMs` turns the PTTL into an absolute expiry, and the idle time
// into the time of the last access. A memory check's whole figure replaces the default one; a bigger sample's marks
// it sampled where it differs.
bool keyFromAnswers(const KeyAnswers& answers, std::int64_t nowMs, keyspace::KeyInfo* info);

// A cluster node's answer that the key is not here (MOVED, ASK): its slot moved to another shard.
bool isRedirect(const std::optional<redis::Reply>& answer);

} // namespace keylens::scan
