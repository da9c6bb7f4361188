#pragma once

#include <QByteArrayView>

#include <span>

namespace keylens::lint {

// IPv6 addresses in keys delimited by ':': the address's own ':' split it into segments (`rl:2001:db8::/56` is
// `rl`, `2001`, `db8`, ``, `/56`). These tell such runs of segments apart, for the pattern view (which folds them into
// one `<ip>` level), the findings' patterns, and the key rules (whose `::` is no empty segment, and whose groups are
// no levels).

// Up to four hex digits, or empty (a part of `::`).
bool isAddressGroup(QByteArrayView group);

// RFC 4291's text forms without an embedded IPv4: eight groups, or fewer with one `::` (an empty group inside, or two
// at either end); and it must look like an address, not a run of small numbers or letters (`1::2`, `a::b`): a group
// of three or four digits, and two groups that are not empty.
bool isAddress(std::span<const QByteArrayView> groups);

// The bytes of `piece` before its first inner delimiter (`1` of `1/search/hour`), and after its last one (`fe80` of
// `LIMITER/fe80`): where an address split over segments starts and ends.
QByteArrayView headPiece(QByteArrayView segment);
QByteArrayView tailPiece(QByteArrayView segment);

// In `segments` (a key split on ':'), the segment after `first` where an address that starts in `first` ends, or -1:
// the longest valid run of groups, the last of which may go on past an inner delimiter (`1/search/hour`).
qsizetype addressRunEnd(std::span<const QByteArrayView> segments, qsizetype first);

} // namespace keylens::lint
