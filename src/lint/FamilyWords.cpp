#include "lint/FamilyWords.h"

#include "keyspace/KeyPath.h"
#include "lint/Characters.h"
#include "lint/SegmentUnits.h"

namespace keylens::lint {

namespace {

void append(FamilyWords& out, QByteArray text, bool id, qsizetype start, qsizetype end)
{
    out.append({std::move(text), id, start, end});
}

// Numbers of fewer digits are part of a word (`v3`, `db8`, `5xx`), longer ones are ids glued to it
// (`order1234profile`), as numbered codes start at four digits (SegmentShape.h).
constexpr qsizetype IdDigits = 4;

qsizetype digitsAt(QByteArrayView text, qsizetype i)
{
    qsizetype end = i;
    while (end < text.size() && isDigit(text[end]))
        ++end;
    return end - i;
}

// A word unit's runs of letters and digits, cut where a capital starts a new word (`userSettings`, the H of `XMLHttp`)
// and around a number of IdDigits or more; lower-cased, a number as `<int>`. Bytes from 0x80 are letters of UTF-8
// words (`用户`). Every other byte joins them.
void appendRuns(QByteArrayView unit, FamilyWords& out, qsizetype limit, qsizetype offset)
{
    const auto isAlnum = [](char c) { return isLetter(c) || isDigit(c) || static_cast<unsigned char>(c) >= 0x80; };
    qsizetype i = 0;
    while (i < unit.size() && out.size() < limit) {
        if (!isAlnum(unit[i])) {
            ++i;
            continue;
        }
        const qsizetype start = i;
        if (const qsizetype digits = digitsAt(unit, i);
            digits >= IdDigits || (digits > 0 && (i + digits == unit.size() || !isLetter(unit[i + digits])))) {
            i += digits; // a number on its own, or long enough to be an id
            append(out, sharedPlaceholder(Shape::Integer), true, offset + start, offset + i);
            continue;
        }
        for (++i; i < unit.size() && isAlnum(unit[i]); ++i) {
            const bool camel = isUpper(unit[i]) && (isLower(unit[i - 1]) || isDigit(unit[i - 1]));
            const bool acronymEnd =
                isUpper(unit[i]) && isUpper(unit[i - 1]) && i + 1 < unit.size() && isLower(unit[i + 1]);
            if (camel || acronymEnd || (isDigit(unit[i]) && !isDigit(unit[i - 1]) && digitsAt(unit, i) >= IdDigits))
                break;
        }
        QByteArray word = unit.sliced(start, i - start).toByteArray();
        for (char& c : word)
            c = toLower(c);
        append(out, std::move(word), false, offset + start, offset + i);
    }
}

} // namespace

void appendFamilyWords(QByteArrayView segment, Shape shape, FamilyWords& out, qsizetype limit, qsizetype offset)
{
    if (out.size() >= limit)
        return;
    // A token may be words and ids joined (`BACKOFFICE_SESS_<token>`): cut as the key rules cut it.
    const SegmentUnits units = shape == Shape::Token ? segmentUnits(segment) : SegmentUnits{};
    if (isId(shape) && units.size() <= 1) {
        append(out, sharedPlaceholder(shape), true, offset, offset + segment.size());
        return;
    }
    for (const SegmentUnit& unit : shape == Shape::Token ? units : segmentUnits(segment, shape)) {
        if (out.size() >= limit)
            return;
        const qsizetype start = offset + (unit.text.data() - segment.data());
        if (!unit.folded.isNull())
            append(out, unit.folded, true, start, start + unit.text.size());
        else
            appendRuns(unit.text, out, limit, start);
    }
}

FamilyWords familyWordsOfKey(QByteArrayView key, const keyspace::Delimiters& delimiters, qsizetype limit)
{
    FamilyWords words;
    keyspace::forEachSegment(key, delimiters, [&](QByteArrayView segment, char) {
        appendFamilyWords(segment, shapeOf(segment), words, limit, segment.data() - key.data());
    });
    return words;
}

} // namespace keylens::lint
