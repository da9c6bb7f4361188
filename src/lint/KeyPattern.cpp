#include "lint/KeyPattern.h"

#include "keyspace/KeyPath.h"
#include "lint/AddressGroups.h"
#include "lint/SegmentShape.h"

#include <QVarLengthArray>

#include <span>

namespace keylens::lint {

QByteArray patternOfKey(QByteArrayView key, const keyspace::Delimiters& delimiters)
{
    QVarLengthArray<QByteArrayView, 12> segments;
    QVarLengthArray<char, 12> joiners; // before each segment (none before the first)
    keyspace::forEachSegment(key, delimiters, [&](QByteArrayView segment, char joiner) {
        segments.append(segment);
        joiners.append(joiner != 0 ? joiner : delimiters.primary());
    });
    const std::span<const QByteArrayView> all(segments.data(), std::size_t(segments.size()));
    QByteArray out;
    out.reserve(key.size());
    for (qsizetype i = 0; i < segments.size(); ++i) {
        if (i > 0)
            out += joiners[i];
        // An IPv6 address that ':' split is folded whole, as the scan's patterns and the key rules keep it
        // (`rl:2001:db8::1:login` is `rl:<ip>:login`, not a level per group).
        const qsizetype end = delimiters.contains(':') ? addressRunEnd(all, i) : -1;
        if (end < 0) {
            out += patternOf(segments[i]);
            continue;
        }
        const char* from = segments[i].data();
        out += patternOf(QByteArrayView(from, segments[end].data() + segments[end].size() - from));
        i = end;
    }
    return out;
}

} // namespace keylens::lint
