#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <span>

namespace keylens::keyspace {

// Splits `key` on `delimiter`, keeping empty segments, and calls `onSegment(QByteArrayView)` for each.
// A key always has at least one segment (the empty key has one empty segment), so joining the
// segments with the delimiter gives back the exact key bytes.
template<typename Callback> void forEachSegment(QByteArrayView key, char delimiter, Callback&& onSegment)
{
    qsizetype start = 0;
    for (;;) {
        const qsizetype end = key.indexOf(delimiter, start);
        if (end < 0) {
            onSegment(key.sliced(start));
            return;
        }
        onSegment(key.sliced(start, end - start));
        start = end + 1;
    }
}

// Joins segments with the delimiter: the inverse of forEachSegment.
QByteArray joinSegments(std::span<const QByteArrayView> segments, char delimiter);

// Parses a --delimiter argument: one literal byte, or an escape ("\t", "\x1f") for one that is hard to type.
// Returns false when the text does not name exactly one byte.
bool parseDelimiter(QByteArrayView text, char* delimiter);

} // namespace keylens::keyspace
