#include "models/EstimatedMemory.h"

#include "keyspace/Units.h"
#include "models/DisplayText.h"

#include <QCoreApplication>

#include <algorithm>

namespace keylens::models {

QString estimatedCell(const QString& memory)
{
    if (memory.isEmpty() || memory == QStringLiteral("–"))
        return memory;
    return QStringLiteral("≈ ") + memory;
}

QString estimatedFigure(const QString& memory, bool estimated)
{
    if (!estimated)
        return memory;
    return QCoreApplication::translate("EstimatedMemory", "%1 estimated").arg(memory);
}

QString estimatedMemoryNote()
{
    return QCoreApplication::translate(
        "EstimatedMemory", "Estimated: read from an RDB file, so no server was asked (MEMORY USAGE). Each key's "
                           "memory is worked out from its encoding and element sizes as Redis 7 would hold it, with "
                           "jemalloc's size classes; within a few percent of the server's figure for most keys.");
}

QString memoryRangeNote(std::uint64_t memoryBytes, std::uint64_t preallocatedBytes)
{
    if (preallocatedBytes == 0)
        return {};
    return QCoreApplication::translate("EstimatedMemory",
                                       "Between %1 as the server that wrote the file held it and %2 on a server that "
                                       "loads the file: the server that adds a stream's entries allocates its newest "
                                       "node 4 KiB ahead of them, a server that loads the file allocates each node at "
                                       "its size.")
        .arg(displayText(keyspace::formatBytes(memoryBytes)),
             displayText(keyspace::formatBytes(memoryBytes - std::min(memoryBytes, preallocatedBytes))));
}

} // namespace keylens::models
