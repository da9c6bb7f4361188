#pragma once

#include <cstdint>

namespace keylens::models {

// What a row held in an earlier scan, beside what it holds now: the Δ Keys and Δ Memory cells (DeltaCells.h).
struct RowDelta
{
    enum Kind : std::uint8_t {
        Unknown,  // the earlier scan did not list it (past its snapshot's depth or width), or it is a key
        Compared, // listed then and now
        New,      // absent then, and the earlier scan listed every namespace where it would have been
        Gone,     // listed then, absent now (a struck-out row)
        Pending,  // the scan on screen is still running: its figures are partial, compared once it ends
    };
    Kind kind = Unknown;
    std::uint64_t keysBefore = 0;
    std::uint64_t memoryBefore = 0;
    std::uint64_t keysNow = 0;
    std::uint64_t memoryNow = 0;
    // Both scans measured every key's memory: else a memory difference says nothing (see SnapshotDiff).
    bool memoryCompared = false;

    std::int64_t keysDelta() const { return std::int64_t(keysNow) - std::int64_t(keysBefore); }
    std::int64_t memoryDelta() const { return std::int64_t(memoryNow) - std::int64_t(memoryBefore); }
};

} // namespace keylens::models
