#include "lint/SegmentUnits.h"

#include "lint/Characters.h"
#include "lint/SegmentShape.h"

#include <algorithm>

namespace keylens::lint {

namespace {

// Beyond these a segment is not cut: its ids are looked for among a bounded number of spans.
constexpr qsizetype MaxPieces = 64;
constexpr qsizetype MaxSpan = 8; // pieces: a UUID has 5, an IPv4 4, a CIDR block 5

struct Piece
{
    qsizetype from;
    qsizetype to;            // exclusive
    char delimiterAfter = 0; // 0 for the last
};

// A word a person typed: letters only, four or more, in one case or capitalised. Random base64 is rarely that
// (a four-letter run in one case: about 3 %), so a token cut at such a piece is words with ids, not one token.
bool isWordLike(QByteArrayView piece)
{
    if (piece.size() < 4 || !std::all_of(piece.begin(), piece.end(), isLetter))
        return false;
    const bool restLower = std::all_of(piece.begin() + 1, piece.end(), isLower);
    const bool allUpper = std::all_of(piece.begin(), piece.end(), isUpper);
    return restLower || allUpper;
}

QVarLengthArray<Piece, 16> piecesOf(QByteArrayView segment)
{
    QVarLengthArray<Piece, 16> pieces;
    qsizetype from = 0;
    for (qsizetype i = 0; i < segment.size(); ++i) {
        if (!isInnerDelimiter(segment[i]))
            continue;
        pieces.append({from, i, segment[i]});
        from = i + 1;
        if (pieces.size() > MaxPieces)
            return {};
    }
    pieces.append({from, segment.size(), 0});
    return pieces;
}

// Typed words among a token's pieces: two word-like pieces, or one of five letters or more with a vowel
// (`user_1792_profile`, `session_<token>`). A random token cut at its '-' or '_' has one short run at most.
bool hasTypedWords(QByteArrayView text)
{
    int wordLike = 0;
    qsizetype from = 0;
    for (qsizetype i = 0; i <= text.size(); ++i) {
        if (i < text.size() && !isInnerDelimiter(text[i]))
            continue;
        const QByteArrayView piece = text.sliced(from, i - from);
        if (isWordLike(piece)) {
            const bool vowel = std::any_of(piece.begin(), piece.end(), isVowel);
            if (++wordLike >= 2 || (piece.size() >= 5 && vowel))
                return true;
        }
        from = i + 1;
    }
    return false;
}

// The shape of pieces [first, last] taken together, Word unless they are one id that holds its delimiters.
Shape spanShape(QByteArrayView segment, const QVarLengthArray<Piece, 16>& pieces, qsizetype first, qsizetype last)
{
    const QByteArrayView span = segment.sliced(pieces[first].from, pieces[last].to - pieces[first].from);
    const QByteArrayView head = segment.sliced(pieces[first].from, pieces[first].to - pieces[first].from);
    // A span starting with a typed word is an id only as an e-mail address (`jane.doe@example.com`).
    if (isWordLike(head) && !span.contains('@'))
        return Shape::Word;
    const Shape shape = shapeOf(span);
    // An address glued into a segment keeps the words before it: `b_per-user-ada@example.com_settings` is `b_` and an
    // address, not an address that starts with `b_` (a '_' in the local part of an address inside a key is far
    // likelier a word separator: the span is tried again from the next piece).
    if (shape == Shape::Email && span.first(span.indexOf('@')).contains('_'))
        return Shape::Word;
    if (shape != Shape::Token)
        return shape;
    // A token's own marks are '-' and '_' (base64url), and '/' of standard base64 when no piece is a word (Flask's
    // memoize keys: `+H3SLM2xim5/Jpkd…`); across '.', or a '/' between words, it is more likely words and ids.
    bool wordPiece = false;
    for (qsizetype i = first; i <= last; ++i)
        wordPiece = wordPiece || isWordLike(segment.sliced(pieces[i].from, pieces[i].to - pieces[i].from));
    for (qsizetype i = first; i < last; ++i) {
        const char mark = pieces[i].delimiterAfter;
        if (mark != '-' && mark != '_' && (mark != '/' || wordPiece))
            return Shape::Word;
    }
    return hasTypedWords(span) ? Shape::Word : Shape::Token;
}

// `//host/path` or a segment that starts with '/': the URL path from there on, or -1.
qsizetype pathStart(QByteArrayView segment)
{
    if (segment.size() >= 2 && segment[0] == '/' && segment.sliced(1).contains('/'))
        return 0;
    const qsizetype doubleSlash = segment.indexOf("//");
    return doubleSlash > 0 && doubleSlash + 2 < segment.size() ? doubleSlash : -1;
}

void appendUnits(QByteArrayView segment, SegmentUnits& units)
{
    const QVarLengthArray<Piece, 16> pieces = piecesOf(segment);
    if (pieces.isEmpty() || pieces.size() == 1) {
        units.append({segment, foldedPiece(segment), 0});
        return;
    }
    qsizetype wordsFrom = -1; // the first piece of the current run of words
    const auto closeWords = [&](qsizetype before) {
        if (wordsFrom < 0)
            return;
        units.append({segment.sliced(pieces[wordsFrom].from, pieces[before - 1].to - pieces[wordsFrom].from),
                      {},
                      pieces[before - 1].delimiterAfter});
        wordsFrom = -1;
    };
    for (qsizetype i = 0; i < pieces.size();) {
        const QByteArrayView piece = segment.sliced(pieces[i].from, pieces[i].to - pieces[i].from);
        // The longest span from here that is one id, down to the piece alone.
        qsizetype last = i;
        QByteArray folded;
        for (qsizetype end = std::min(pieces.size() - 1, i + MaxSpan - 1); end > i; --end) {
            if (const Shape shape = spanShape(segment, pieces, i, end); isId(shape)) {
                last = end;
                folded = sharedPlaceholder(shape);
                break;
            }
        }
        if (last == i)
            folded = foldedPiece(piece);
        // The value of a `name=value` pair (a URL's query) is data, whatever its words: `search?q=<value>&page=<int>`.
        if (folded.isNull() && i > 0 && pieces[i - 1].delimiterAfter == '=' && !piece.isEmpty())
            folded = QByteArray("<value>");
        if (folded.isNull()) {
            if (wordsFrom < 0)
                wordsFrom = i;
            ++i;
            continue;
        }
        closeWords(i);
        units.append(
            {segment.sliced(pieces[i].from, pieces[last].to - pieces[i].from), folded, pieces[last].delimiterAfter});
        i = last + 1;
    }
    closeWords(pieces.size());
}

} // namespace

SegmentUnits segmentUnits(QByteArrayView segment)
{
    return segmentUnits(segment, shapeOf(segment));
}

SegmentUnits segmentUnits(QByteArrayView segment, Shape whole)
{
    SegmentUnits units;
    if (isId(whole) && (whole != Shape::Token || !hasTypedWords(segment))) {
        units.append({segment, sharedPlaceholder(whole), 0});
        return units;
    }
    // A URL or an address carried percent-encoded (`https%3A%2F%2Fapi.example%2Fv1%3Fid%3D80`): one unit, folded as
    // the decoded text folds, so that its escapes do not make every key a pattern of its own.
    if (segment.contains('%')) {
        if (const QByteArray decoded = percentDecoded(segment); !decoded.isNull()) {
            const qsizetype scheme = decoded.indexOf("://");
            const bool url = scheme > 0 && std::all_of(decoded.begin(), decoded.begin() + scheme, isLetter);
            if (QByteArray folded = url ? QByteArray("<url>") : foldedSegment(decoded); !folded.isNull()) {
                units.append({segment, std::move(folded), 0});
                return units;
            }
        }
    }
    // A word and raw bytes (`sess` and a digest): one unit, whatever inner delimiters the bytes hold by chance.
    if (const qsizetype word = binaryTailFrom(segment); word > 0) {
        units.append({segment, segment.first(word).toByteArray().append(placeholder(Shape::Binary)), 0});
        return units;
    }
    if (std::none_of(segment.begin(), segment.end(), isInnerDelimiter)) {
        // A word (shapeOf said so already): only a numbered code folds, `SKU<int>`.
        const QByteArrayView code = isId(whole) ? QByteArrayView() : numberedCodePrefix(segment);
        units.append({segment,
                      isId(whole)      ? sharedPlaceholder(whole)
                      : code.isEmpty() ? QByteArray()
                                       : code.toByteArray().append(placeholder(Shape::Integer)),
                      0});
        return units;
    }
    const qsizetype path = pathStart(segment);
    if (path == 0) {
        units.append({segment, sharedPlaceholder(Shape::Path), 0});
        return units;
    }
    appendUnits(path > 0 ? segment.first(path) : segment, units);
    if (path > 0) {
        units.back().delimiterAfter = '/';
        units.append({segment.sliced(path + 1), sharedPlaceholder(Shape::Path), 0});
    }
    return units;
}

} // namespace keylens::lint
