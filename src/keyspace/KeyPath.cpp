#include "keyspace/KeyPath.h"

namespace keylens::keyspace {

QByteArray joinSegments(std::span<const QByteArrayView> segments, char delimiter)
{
    QByteArray out;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        if (i > 0)
            out.append(delimiter);
        out.append(segments[i]);
    }
    return out;
}

} // namespace keylens::keyspace
