#include "models/EstimatedMemory.h"

#include <QCoreApplication>

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

} // namespace keylens::models
