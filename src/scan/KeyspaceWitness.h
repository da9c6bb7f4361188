#pragma once

#include "redis/Error.h"

#include <QByteArray>
#include <QByteArrayView>

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

namespace keylens::redis {
class Connection;
}

namespace keylens::scan {

// Tells whether the keys a scan stored are still the server's at its end. A FLUSHALL, a FLUSHDB or a server that
// restarted empty (or loaded another dataset) mid-scan leaves a store full of keys the server no longer has, and
// SCAN's cursor simply ends early: nothing in the scan itself looks wrong.
//
// It keeps a uniform sample of the keys without a TTL (keys with one may expire on their own while the scan runs;
// keys without one only go if someone deletes them) and, at the end, asks DBSIZE and EXISTS of the sample.
class KeyspaceWitness
{
public:
    static constexpr std::size_t SampleSize = 64;
    // Of the keys sampled, the share that must be gone before the keyspace counts as replaced.
    static constexpr double GoneShare = 0.75;
    // Fewer sampled keys than this say nothing about a share: only an empty server is then judged.
    static constexpr std::size_t SmallestSample = 16;

    // A key stored by the scan; `persistent` when it has no TTL.
    void keyStored(QByteArrayView key, bool persistent);
    // The server restarted (or another took over) and the scan started over: the keys sampled so far are judged on
    // their own at the end, so that a new dataset's keys cannot hide that the old ones are gone.
    void serverReplaced();

    // Nothing when the keyspace is still the one scanned (or when the server would not say: a denied DBSIZE or
    // EXISTS proves nothing), otherwise an error that says what happened. `stored` is the number of keys stored.
    std::optional<redis::Error> check(redis::Connection& connection, std::uint64_t stored) const;

private:
    struct Sample
    {
        std::vector<QByteArray> keys;
        std::uint64_t seen = 0; // persistent keys offered
    };
    // Of `sample`, how many EXISTS answered, and how many said gone (read from replies already pipelined).
    struct Verdict
    {
        std::size_t answered = 0;
        std::size_t gone = 0;
        bool mostlyGone() const;
    };

    Sample m_sample;
    std::optional<Sample> m_beforeRestart;
    std::minstd_rand m_random{0x4b4c}; // a fixed seed: the sample only needs to be spread, not secret
};

} // namespace keylens::scan
