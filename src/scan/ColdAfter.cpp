#include "scan/ColdAfter.h"

#include "keyspace/Units.h"

namespace keylens::scan {

std::optional<std::int64_t> parseColdAfter(QByteArrayView text)
{
    const std::optional<std::int64_t> ms = keyspace::parseDuration(text.trimmed());
    if (!ms || *ms < 1000)
        return std::nullopt;
    return *ms / 1000;
}

} // namespace keylens::scan
