#pragma once

#include "keyspace/Delimiters.h"

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

// Splits `key` on any of `delimiters` and calls `onSegment(QByteArrayView segment, char joiner)` for each, with the
// delimiter before the segment (0 for the first). The segments and their joiners give back the exact key bytes.
template<typename Callback> void forEachSegment(QByteArrayView key, const Delimiters& delimiters, Callback&& onSegment)
{
    if (delimiters.isSingle()) {
        char joiner = 0;
        forEachSegment(key, delimiters.primary(), [&](QByteArrayView segment) {
            onSegment(segment, joiner);
            joiner = delimiters.primary();
        });
        return;
    }
    qsizetype start = 0;
    char joiner = 0;
    for (qsizetype i = 0; i < key.size(); ++i) {
        if (!delimiters.contains(key[i]))
            continue;
        onSegment(key.sliced(start, i - start), joiner);
        joiner = key[i];
        start = i + 1;
    }
    onSegment(key.sliced(start), joiner);
}

// Joins segments with the delimiter: the inverse of forEachSegment.
QByteArray joinSegments(std::span<const QByteArrayView> segments, char delimiter);

} // namespace keylens::keyspace
