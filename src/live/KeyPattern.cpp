#include "live/KeyPattern.h"

#include "keyspace/KeyPath.h"
#include "lint/SegmentShape.h"

namespace keylens::live {

QByteArray patternOfKey(QByteArrayView key, const keyspace::Delimiters& delimiters)
{
    QByteArray out;
    out.reserve(key.size());
    bool first = true;
    keyspace::forEachSegment(key, delimiters, [&](QByteArrayView segment, char joiner) {
        if (!first)
            out += joiner != 0 ? joiner : delimiters.primary();
        first = false;
        out += lint::patternOf(segment);
    });
    return out;
}

} // namespace keylens::live
