#pragma once

#include "lint/SegmentShape.h"

#include <QByteArray>
#include <QByteArrayView>

#include <cstdint>
#include <optional>

namespace keylens::lint {

// How a key spells the thing it names, for naming-variants.
//
// Its pattern is the key with every id replaced by its placeholder and nothing else changed: `User:<int>`,
// `user_<int>`, `userSettings_<int>`. Its words are what the pattern says, whatever the spelling: its
// words in lower case (camelCase and every separator split), in their order, then its placeholders, sorted, joined
// by spaces: `user <int>` for all of `user_123`, `User:123` and `USER-123`; `user settings <int>` for both
// `userSettings_123` and `user:123:settings`. Two patterns with the same words are variants of one name. The words'
// order is kept: `rate_EUR_GBP` and `rate_GBP_EUR` are two rates, not one spelled twice.

// A pattern spells each segment (a level of a key, between delimiters) in the one notation: lint::appendPatternOf
// (SegmentShape.h).
// The words of a pattern (the pattern of a pattern is itself, so its words are the key's).
QByteArray wordsOf(QByteArrayView pattern, char delimiter);
// A hash of the words of one spelled segment, such that the sum over a pattern's segments depends only
// on wordsOf(pattern): patterns with different sums have different words. It is cheap and allocates
// nothing, so a million patterns can be sorted into candidate groups before any words are built.
std::uint64_t wordsHashOf(QByteArrayView spelledSegment);

// Whether a pattern follows the convention's form: lower-case words, levels joined by the delimiter
// only. The variant to migrate to is one of these when there is one.
bool isConventionalSpelling(QByteArrayView pattern, char delimiter);
// A pattern rewritten into that form: words lower-cased, other separators and camelCase humps turned
// into the delimiter (`userSettings_<int>` -> `user:settings:<int>`).
QByteArray conventionalSpelling(QByteArrayView pattern, char delimiter);

// A key spelled another way: its ids (what its own pattern has placeholders for) put into `target`'s placeholders of
// the same kind, in order (`User_42` into `user:<int>` gives `user:42`). Nothing when the two patterns do not hold
// the same placeholders.
std::optional<QByteArray> respell(QByteArrayView key, QByteArrayView target, char delimiter);

} // namespace keylens::lint
