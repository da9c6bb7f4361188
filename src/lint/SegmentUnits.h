#pragma once

#include "lint/SegmentShape.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QVarLengthArray>

namespace keylens::lint {

// Keys written by libraries and people join words and ids with more than the key delimiter: `users/104/avatar_url`,
// `LIMITER/192.0.2.7/search/3/hour`, `user_1792_profile`, Django's `views.decorators.cache.cache_page.<hex>`.
// A segment is cut at its inner delimiters (/ . _ - | , # ; = and a URL's ? &, and spaces) into units: ids, which may
// span inner delimiters (an IPv4's dots, a date's or a UUID's dashes, an e-mail's dots, a base64url token's '-' and
// '_', a URL path after
// `//`), and the words between them, consecutive words making one unit (`celery-task-meta`).
struct SegmentUnit
{
    QByteArrayView text;     // the unit's bytes, a view into the segment
    QByteArray folded;       // its placeholder (`<ip>`, `SKU<int>`), null for words
    char delimiterAfter = 0; // the inner delimiter that follows it; 0 for the segment's last unit
};
using SegmentUnits = QVarLengthArray<SegmentUnit, 4>;

// One unit for a segment that is one id, one word, or has no inner delimiter; never empty.
SegmentUnits segmentUnits(QByteArrayView segment);
// The same for a segment whose shape is known already (shapeOf(segment), from SegmentShapes).
SegmentUnits segmentUnits(QByteArrayView segment, Shape whole);

inline constexpr auto isInnerDelimiter = [](char c) {
    return c == '/' || c == '.' || c == '_' || c == '-' || c == '|' || c == ',' || c == '#' || c == ';' || c == '=' ||
           c == ' ' || c == '?' || c == '&';
};

} // namespace keylens::lint
