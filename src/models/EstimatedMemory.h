#pragma once

#include <QString>

#include <cstdint>

namespace keylens::models {

// Memory read from an RDB file is estimated from the encodings (rdb::memory), not asked of a server with MEMORY
// USAGE: every figure the window shows of it says so, in the same words.

// A table cell: "≈ 1.2 MiB" (a cell without a figure, "–", stays as it is).
QString estimatedCell(const QString& memory);
// A figure in a sentence or a details field: "1.2 MiB estimated".
QString estimatedFigure(const QString& memory, bool estimated);
// The tooltip that says how.
QString estimatedMemoryNote();
// Where streams read from the file make the memory a range (SubtreeTotals::preallocatedBytes > 0), its two ends and
// why; empty where there is none.
QString memoryRangeNote(std::uint64_t memoryBytes, std::uint64_t preallocatedBytes);

} // namespace keylens::models
