#pragma once

#include <QString>

namespace keylens::models {

// Memory read from an RDB file is estimated from the encodings (rdb::memory), not asked of a server with MEMORY
// USAGE: every figure the window shows of it says so, in the same words.

// A table cell: "≈ 1.2 MiB" (a cell without a figure, "–", stays as it is).
QString estimatedCell(const QString& memory);
// A figure in a sentence or a details field: "1.2 MiB estimated".
QString estimatedFigure(const QString& memory, bool estimated);
// The tooltip that says how.
QString estimatedMemoryNote();

} // namespace keylens::models
