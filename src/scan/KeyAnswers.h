#pragma once

#include "keyspace/NamespaceStats.h"
#include "redis/Reply.h"

#include <cstdint>
#include <optional>

namespace keylens::scan {

// What the answers to TYPE, PTTL and MEMORY USAGE say about one key (each absent when it was not asked). Error
// answers leave their field unknown: the caller reports them. Returns false when the key vanished (TYPE none, PTTL
// -2, MEMORY USAGE nil) between SCAN and the questions. `nowMs` turns the PTTL into an absolute expiry.
bool keyFromAnswers(const std::optional<redis::Reply>& type, const std::optional<redis::Reply>& pttl,
                    const std::optional<redis::Reply>& memory, std::int64_t nowMs, keyspace::KeyInfo* info);

// A cluster node's answer that the key is not here (MOVED, ASK): its slot moved to another shard.
bool isRedirect(const std::optional<redis::Reply>& answer);

} // namespace keylens::scan
