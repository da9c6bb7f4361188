#pragma once

#include <QByteArray>
#include <QByteArrayView>

namespace keylens::lint {

// What a key segment looks like: a word a person chose, or an id a program generated. One definition of
// "id" for pattern inference (`user:<int>:profile`) and for the naming rules (words are checked for case
// and spelling; ids never are).
//
// Precedence, first match wins (so every segment has exactly one shape):
//   1. digits only: a date (`20240310`, `202403`), else epoch seconds or milliseconds (10 or 13 digits in
//      2001..2100), else an integer;
//   2. UUID (8-4-4-4-12 hex);
//   3. a date or time: ISO 8601 (`2024-03-10`, `2024-03`, `2024-03-10T10:30:00Z`, `20240310T103000Z`),
//      `2024Q1`, `2024-W10`, `hour12`;
//   4. email; 5. IPv4, IPv6 (with an IPv4-mapped tail: `::ffff:192.0.2.1`), an IPv4 CIDR block (`10.0.0.0/8`);
//      a semantic version (`1.4.2`, `v2.0.0-rc.1`);
//   6. ULID (26 Crockford base-32 characters with letters and digits);
//   7. hex: 16 or more hex digits with at least one digit (md5, sha1, sha256 and the like), or 12 to 15
//      that mix digits and letters (short ids: a Docker container's, a truncated session id);
//   8. opaque token: 16 or more base64/base62 characters mixing letters and digits;
//   9. anything else is a word: `settings`, `deadbeef`, `2fa`, `v1`.
// Before these, bytes that are not text (control bytes, or bytes from 0x80 that are not UTF-8) make a segment binary:
// a digest or a packed id written as raw bytes. A percent-encoded segment is classified decoded (`2001%3Adb8%3A%3A1`
// is an address, `ann%40example.org` an e-mail).
enum class Shape { Word, Integer, Uuid, Ulid, Hex, Token, Email, Ip, Date, Epoch, Cidr, Semver, Path, Binary, Count };

Shape shapeOf(QByteArrayView segment);
inline bool isId(Shape shape)
{
    return shape != Shape::Word;
}

// A segment's shape and, for a word, whether it is plain: lower-case letters and digits only, three bytes or more
// (`settings`, `v2api`). The key rules find nothing in a plain word but what its place in the key decides (a
// placeholder first, a namespace): told so, they skip its bytes. Most words of a keyspace are plain, and each key
// check read them again.
struct SegmentClass
{
    Shape shape = Shape::Word;
    bool plainWord = false;
};
SegmentClass classOf(QByteArrayView segment);

// The placeholder a pattern shows for a shape: "<int>", "<uuid>", "<ulid>", "<hex>", "<token>",
// "<email>", "<ip>", "<date>", "<epoch>", "<cidr>", "<semver>", "<path>", "<binary>" (an interface: the JSON and the
// GUI use them); empty for a word. A path is never a segment's shape: segmentUnits() finds it (`//host/a/b`).
QByteArrayView placeholder(Shape shape);

// An id glued to a word inside one segment, after its last word separator ('-', '_' or '.'):
// `celery-task-meta-<uuid>`, `user-profile-<int>`, `product_price_<int>`. The word part is `prefix`
// (separator included); Word when the segment is not of that form.
struct GluedId
{
    QByteArrayView prefix;
    Shape shape = Shape::Word;
};
GluedId gluedIdOf(QByteArrayView segment);

// The letters of a code with a number glued on (`SKU120279`, `INV2024001`), or empty. Four digits at
// least: `v2`, `ipv4` and `sha256` are names, not numbered items. Not an id for the naming rules (the
// code is a name someone chose), but patterns fold its number: `SKU<int>`, one pattern for a catalogue.
QByteArrayView numberedCodePrefix(QByteArrayView segment);

// The text with its %XX escapes decoded (`2001%3Adb8%3A%3A1` → `2001:db8::1`), or null when it has none.
QByteArray percentDecoded(QByteArrayView text);

// Where a word's raw bytes begin (`sess` + a 20-byte digest): the offset of the word's end when the segment is a word
// followed by bytes that are not text, or -1. A word of letters and inner delimiters; 0 when no word precedes them.
qsizetype binaryTailFrom(QByteArrayView segment);

// The text with each number glued to a letter before it folded (`user<int>`, `tenant<int>-`, `more<int>x<int>`), or
// null when it has none or is not letters, digits and inner delimiters starting with a letter. Not a fold on its own:
// `v2`, `sha256`, `ipv4` and `h264` are names. The pattern tree folds it only where many siblings share it, the
// evidence that the number is an item's, not part of a name.
QByteArray numberedSeries(QByteArrayView text);

// A date split over two levels, year then month: `2025` and `01` of `log:2025:01:15:…`.
bool isDateSplitAcross(QByteArrayView year, QByteArrayView month);

// A segment with its ids folded: the placeholder for an id (`<int>`), the words and the placeholders of a segment
// cut at its inner delimiters (`celery-task-meta-<uuid>`, `LIMITER/<ip>/search/<int>/hour`, `user_<int>_profile`;
// see SegmentUnits.h), a numbered code (`SKU<int>`); null for a word. A bare placeholder is shared, not allocated:
// the pattern tree asks this of every node.
QByteArray foldedSegment(QByteArrayView segment);
// The same for a segment whose shape is known already (shapeOf(segment), from SegmentShapes).
QByteArray foldedSegment(QByteArrayView segment, Shape whole);
// One piece without inner delimiters folded: its placeholder, `SKU<int>`, or null for a word.
QByteArray foldedPiece(QByteArrayView piece);
// The placeholder of a shape, shared (no allocation).
const QByteArray& sharedPlaceholder(Shape shape);
// The one pattern notation: a level of a key (a segment) as every pattern spells it, its ids folded
// (foldedSegment()), or the segment itself for a word. An id's bytes are not read when its shape is known (a token's
// are, for the typed words it may hold). The pattern view (patterns::PatternTree, live), naming-variants'
// lint::PatternIndex, the findings' groups (report::FindingGroups) and live::patternOfKey all spell a level with it,
// so that a pattern one names is a pattern the others have. The exact PatternTree differs where it must: it keeps a
// sparse id literal among its siblings' words (see PatternTree::split).
QByteArray patternOf(QByteArrayView segment, Shape whole);
QByteArray patternOf(QByteArrayView segment);
// The same, appended (no allocation for an id or a word).
void appendPatternOf(QByteArray& pattern, QByteArrayView segment, Shape whole);

} // namespace keylens::lint
