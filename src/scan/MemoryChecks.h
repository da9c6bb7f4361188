#pragma once

#include "redis/Connection.h"
#include "scan/KeyAnswers.h"

#include <QByteArrayView>

#include <functional>
#include <optional>
#include <vector>

namespace keylens::scan {

// The second MEMORY USAGE of a batch's keys (MemorySampling.h), for the scan loop and the cluster's moved keys alike.
// Appends MEMORY USAGE … SAMPLES for each key (`keyAt(i)`, answered by `answers[i]`) whose default figure may have been
// sampled, and marks its answer's checkAsked; `exactCap` is --exact-memory's cap, 0 without it. Returns how many.
std::size_t appendMemoryChecks(redis::Connection& connection, std::vector<KeyAnswers>& answers,
                               const std::function<QByteArrayView(std::size_t)>& keyAt, std::uint64_t exactCap);

// Reads the answers of appendMemoryChecks into memoryCheck, in the same order. A failed read, or an error that the
// whole batch must be asked again for (BUSY, LOADING…), is returned; other errors stay in the answers.
std::optional<redis::Error> readMemoryChecks(redis::Connection& connection, std::vector<KeyAnswers>& answers);

} // namespace keylens::scan
