#include "lint/SegmentShape.h"

#include "lint/Characters.h"
#include "lint/SegmentUnits.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace keylens::lint {

namespace {

// Each byte's counters, one per byte of a 64-bit word (digit, lower, upper, hex letter, base64 mark, dash, dot,
// colon): a segment is counted with a table load and an add per byte, without a branch to mispredict on random ids.
enum MixLane : unsigned { DigitLane, LowerLane, UpperLane, HexLane, Base64Lane, DashLane, DotLane, ColonLane };

constexpr std::array<std::uint64_t, 256> mixIncrements()
{
    std::array<std::uint64_t, 256> table{};
    const auto lane = [](MixLane which) { return std::uint64_t(1) << (8 * unsigned(which)); };
    for (int byte = 0; byte < 256; ++byte) {
        const char c = char(byte);
        std::uint64_t& increment = table[std::size_t(byte)];
        if (isDigit(c))
            increment = lane(DigitLane);
        else if (isLower(c))
            increment = lane(LowerLane) | (c <= 'f' ? lane(HexLane) : 0);
        else if (isUpper(c))
            increment = lane(UpperLane) | (c <= 'F' ? lane(HexLane) : 0);
        else
            increment = (c == '-' ? lane(DashLane) : 0) | (c == '.' ? lane(DotLane) : 0) |
                        (c == ':' ? lane(ColonLane) : 0) |
                        (c == '+' || c == '/' || c == '=' || c == '-' || c == '_' ? lane(Base64Lane) : 0);
    }
    return table;
}
constexpr std::array<std::uint64_t, 256> MixIncrements = mixIncrements();

// What a segment is made of, counted in one pass: each shape's test first asks whether the counts allow
// it, so a segment is read once or twice rather than once per shape (this runs on every key's segments).
struct Mix
{
    qsizetype size = 0;
    qsizetype digits = 0;
    qsizetype lower = 0;
    qsizetype upper = 0;
    qsizetype hexLetters = 0;  // a-f, A-F
    qsizetype base64Marks = 0; // + / = - _
    qsizetype dashes = 0;
    qsizetype dots = 0;
    qsizetype colons = 0;
    qsizetype ats = 0;

    explicit Mix(QByteArrayView text)
        : size(text.size())
    {
        // Byte-wide counters, emptied into the wide ones every 255 bytes, before one could overflow.
        for (qsizetype from = 0; from < text.size(); from += 255) {
            const qsizetype to = std::min(text.size(), from + 255);
            std::uint64_t lanes = 0;
            for (qsizetype i = from; i < to; ++i) {
                lanes += MixIncrements[static_cast<unsigned char>(text[i])];
                ats += text[i] == '@';
            }
            const auto count = [lanes](MixLane which) { return qsizetype(lanes >> (8 * unsigned(which)) & 0xff); };
            digits += count(DigitLane);
            lower += count(LowerLane);
            upper += count(UpperLane);
            hexLetters += count(HexLane);
            base64Marks += count(Base64Lane);
            dashes += count(DashLane);
            dots += count(DotLane);
            colons += count(ColonLane);
        }
    }
    qsizetype letters() const { return lower + upper; }
};

// The number in text[from, from + length), or -1 when those are not all digits.
long long number(QByteArrayView text, qsizetype from, qsizetype length)
{
    if (from < 0 || from + length > text.size())
        return -1;
    long long value = 0;
    for (qsizetype i = from; i < from + length; ++i) {
        if (!isDigit(text[i]))
            return -1;
        value = value * 10 + (text[i] - '0');
    }
    return value;
}

bool isYear(long long year)
{
    return year >= 1970 && year <= 2099;
}
bool isMonth(long long month)
{
    return month >= 1 && month <= 12;
}
bool isDay(long long day)
{
    return day >= 1 && day <= 31;
}

Shape digitsShape(QByteArrayView digits)
{
    if (digits.size() == 8 && isYear(number(digits, 0, 4)) && isMonth(number(digits, 4, 2)) &&
        isDay(number(digits, 6, 2)))
        return Shape::Date; // 20240310
    if (digits.size() == 6 && isYear(number(digits, 0, 4)) && isMonth(number(digits, 4, 2)))
        return Shape::Date; // 202403
    // Epoch times from 2001-09-09 (10 digits begin there) to 2100.
    if (digits.size() == 10 && number(digits, 0, 10) < 4'102'444'800LL)
        return Shape::Epoch;
    if (digits.size() == 13 && number(digits, 0, 13) < 4'102'444'800'000LL)
        return Shape::Epoch;
    return Shape::Integer;
}

bool isUuid(QByteArrayView text)
{
    if (text.size() != 36)
        return false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? text[i] != '-' : !isHexDigit(text[i]))
            return false;
    }
    return true;
}

// hh:mm[:ss[.fff]][Z|±hh:mm] after an ISO date's 'T'.
bool isIsoTime(QByteArrayView time)
{
    if (time.size() < 5 || number(time, 0, 2) < 0 || number(time, 0, 2) > 23 || time[2] != ':' ||
        number(time, 3, 2) < 0 || number(time, 3, 2) > 59)
        return false;
    qsizetype at = 5;
    if (at < time.size() && time[at] == ':') {
        if (number(time, at + 1, 2) < 0 || number(time, at + 1, 2) > 60)
            return false;
        at += 3;
        if (at < time.size() && time[at] == '.') {
            ++at;
            while (at < time.size() && isDigit(time[at]))
                ++at;
        }
    }
    const QByteArrayView zone = time.sliced(at);
    return zone.isEmpty() || zone == "Z" ||
           ((zone.startsWith('+') || zone.startsWith('-')) && (zone.size() == 3 || zone.size() == 6) &&
            number(zone, 1, 2) >= 0);
}

// ISO 8601's basic form: 20240310T103000[Z], as file names and S3 keys write it.
bool isBasicDateTime(QByteArrayView text)
{
    if ((text.size() != 15 && text.size() != 16) || text[8] != 'T' || (text.size() == 16 && text[15] != 'Z'))
        return false;
    return digitsShape(text.first(8)) == Shape::Date && number(text, 9, 2) >= 0 && number(text, 9, 2) <= 23 &&
           number(text, 11, 2) >= 0 && number(text, 11, 2) <= 59 && number(text, 13, 2) >= 0 &&
           number(text, 13, 2) <= 60;
}

bool isDate(QByteArrayView text)
{
    // 2024-03-10, 2024-03, 2024-03-10T10:30:00Z, 20240310T103000Z, 2024Q1, 2024-W10
    if (isBasicDateTime(text))
        return true;
    if (text.size() >= 6 && isYear(number(text, 0, 4))) {
        if (text.size() == 6 && (text[4] == 'Q' || text[4] == 'q'))
            return text[5] >= '1' && text[5] <= '4';
        if (text[4] == '-') {
            if (text.size() == 8 && text[5] == 'W')
                return number(text, 6, 2) >= 1 && number(text, 6, 2) <= 53;
            if (text.size() == 7)
                return isMonth(number(text, 5, 2));
            if (text.size() >= 10 && isMonth(number(text, 5, 2)) && text[7] == '-' && isDay(number(text, 8, 2)))
                return text.size() == 10 || (text[10] == 'T' && isIsoTime(text.sliced(11)));
        }
    }
    // hour0 .. hour23: an hourly bucket
    if (text.startsWith("hour") && (text.size() == 5 || text.size() == 6)) {
        const long long hour = number(text, 4, text.size() - 4);
        return hour >= 0 && hour <= 23;
    }
    return false;
}

bool isEmail(QByteArrayView text)
{
    const qsizetype at = text.indexOf('@');
    if (at <= 0 || at != text.lastIndexOf('@'))
        return false;
    const QByteArrayView domain = text.sliced(at + 1);
    const qsizetype dot = domain.lastIndexOf('.');
    if (dot <= 0 || domain.size() - dot - 1 < 2)
        return false;
    const auto local = [](char c) { return isLetter(c) || isDigit(c) || c == '.' || c == '-' || c == '_' || c == '+'; };
    // A host name: letters, digits, '-' and dots, ending in a name of letters. `x@example.com_settings` is no address
    // but one glued to a word (Bottleneck's `b_<id>_settings` with an e-mail for its id).
    const auto host = [](char c) { return isLetter(c) || isDigit(c) || c == '.' || c == '-'; };
    return std::all_of(text.begin(), text.begin() + at, local) && std::all_of(domain.begin(), domain.end(), host) &&
           std::all_of(domain.begin() + dot + 1, domain.end(), isLetter);
}

bool isIpv4(QByteArrayView text)
{
    int parts = 0;
    qsizetype from = 0;
    while (from <= text.size()) {
        qsizetype end = text.indexOf('.', from);
        if (end < 0)
            end = text.size();
        const qsizetype length = end - from;
        const long long part = length >= 1 && length <= 3 ? number(text, from, length) : -1;
        if (part < 0 || part > 255)
            return false;
        ++parts;
        from = end + 1;
        if (end == text.size())
            break;
    }
    return parts == 4;
}

bool isIpv6(QByteArrayView text)
{
    // An IPv4-mapped address (::ffff:192.0.2.1): the IPv4 part stands for the last two groups.
    if (const qsizetype lastColon = text.lastIndexOf(':'); lastColon >= 0 && text.sliced(lastColon).contains('.')) {
        const QByteArrayView head = text.first(lastColon + 1);
        return (head == "::" || head == "::ffff:" || head == "0:0:0:0:0:ffff:") && isIpv4(text.sliced(lastColon + 1));
    }
    const auto colons = std::count(text.begin(), text.end(), ':');
    if (colons < 2 || colons > 7 || text.size() < 3)
        return false;
    const auto allowed = [](char c) { return isHexDigit(c) || c == ':'; };
    if (!std::all_of(text.begin(), text.end(), allowed))
        return false;
    qsizetype run = 0;
    for (const char c : text) {
        run = c == ':' ? 0 : run + 1;
        if (run > 4)
            return false;
    }
    return colons == 7 || text.contains("::");
}

// 10.0.0.0/8: an IPv4 block (the IPv6 ones hold the key delimiter ':', and are found across levels).
bool isCidr(QByteArrayView text)
{
    const qsizetype slash = text.indexOf('/');
    if (slash < 7 || slash + 1 >= text.size() || text.size() - slash - 1 > 2)
        return false;
    const long long prefix = number(text, slash + 1, text.size() - slash - 1);
    return prefix >= 0 && prefix <= 32 && isIpv4(text.first(slash));
}

// 1.4.2, v2.0.0, 2.0.0-rc.1, 1.0.0+build.5: three numbers at the core, as semver.org writes them.
bool isSemver(QByteArrayView text)
{
    qsizetype at = text.startsWith('v') ? 1 : 0;
    for (int part = 0; part < 3; ++part) {
        const qsizetype from = at;
        while (at < text.size() && isDigit(text[at]))
            ++at;
        if (at == from || at - from > 9)
            return false;
        if (part < 2) {
            if (at >= text.size() || text[at] != '.')
                return false;
            ++at;
        }
    }
    if (at == text.size())
        return true;
    if (text[at] != '-' && text[at] != '+')
        return false;
    const QByteArrayView suffix = text.sliced(at + 1);
    return !suffix.isEmpty() && std::all_of(suffix.begin(), suffix.end(), [](char c) {
        return isLetter(c) || isDigit(c) || c == '.' || c == '-' || c == '+';
    });
}

// The caller has seen letters and digits both (Mix).
bool isUlid(QByteArrayView text)
{
    if (text.size() != 26 || text[0] < '0' || text[0] > '7')
        return false;
    const auto crockford = [](char c) {
        const char upper = isLower(c) ? char(c - 'a' + 'A') : c;
        return isDigit(upper) ||
               (upper >= 'A' && upper <= 'Z' && upper != 'I' && upper != 'L' && upper != 'O' && upper != 'U');
    };
    return std::all_of(text.begin(), text.end(), crockford);
}

bool isHexDigest(const Mix& mix)
{
    if (mix.size < 12 || mix.digits + mix.hexLetters != mix.size || mix.digits == 0)
        return false;
    // Twelve hex characters with a digit and a letter are not a word; below sixteen, all-digit runs are
    // numbers (handled before) and all-letter runs may be words (`deadbeefcafe`).
    return mix.size >= 16 || mix.hexLetters > 0;
}

bool isToken(QByteArrayView text, const Mix& mix)
{
    if (mix.size < 16 || mix.letters() + mix.digits + mix.base64Marks != mix.size || mix.letters() == 0)
        return false;
    // `views/products/1-20240310/index` is a path of words, not base64 that happens to hold a '/'.
    int wordParts = 0;
    for (qsizetype start = 0; start <= text.size();) {
        qsizetype end = text.indexOf('/', start);
        if (end < 0)
            end = text.size();
        const QByteArrayView part = text.sliced(start, end - start);
        wordParts += part.size() >= 3 && std::all_of(part.begin(), part.end(), isLower);
        start = end + 1;
    }
    if (wordParts >= 2)
        return false;
    // `customer1234567profile` is words glued to a number: lower-case runs of four letters or more with a vowel cover
    // half of it, around one or two runs of digits. A random id over [a-z0-9] (Django's session keys) has such runs
    // too, but its digits are scattered in many runs.
    qsizetype wordy = 0, digitRuns = 0;
    for (qsizetype i = 0; i < text.size();) {
        qsizetype end = i;
        while (end < text.size() && isLower(text[end]))
            ++end;
        const QByteArrayView run = text.sliced(i, end - i);
        if (run.size() >= 4 && std::any_of(run.begin(), run.end(), isVowel))
            wordy += run.size();
        digitRuns += isDigit(text[i]) && (i == 0 || !isDigit(text[i - 1])) ? 1 : 0;
        i = std::max(end, i + 1);
    }
    if (wordy * 2 >= text.size() && digitRuns <= 2)
        return false;
    if (mix.digits > 0)
        return true;
    // Random base64 without a digit (one 32-character session id in a few hundred): its letters are about
    // half capitals, where words in camelCase or SHOUTING are mostly one case.
    return mix.size >= 20 && mix.upper * 4 >= mix.letters() && mix.lower * 4 >= mix.letters();
}

// Glued ids are looked for in segments up to this long: ids are short, and the search is quadratic.
constexpr qsizetype MaxGluedSegment = 256;

bool isSeparator(char c)
{
    return c == '-' || c == '_' || c == '.';
}

// `task-meta-…` begins with a word part: as a tail it is more words, not a token.
bool startsWithWordPart(QByteArrayView text)
{
    const auto end = std::find_if(text.begin(), text.end(), isSeparator);
    return end != text.end() && end != text.begin() && std::all_of(text.begin(), end, isLetter);
}

Shape baseShape(QByteArrayView segment)
{
    if (segment.isEmpty())
        return Shape::Word;
    const Mix mix(segment);
    if (mix.digits == mix.size)
        return digitsShape(segment);
    if (mix.size == 36 && mix.dashes == 4 && isUuid(segment))
        return Shape::Uuid;
    if ((isDigit(segment[0]) || segment[0] == 'h') && isDate(segment))
        return Shape::Date;
    if (mix.ats == 1 && isEmail(segment))
        return Shape::Email;
    if ((mix.dots == 3 && mix.digits + mix.dots == mix.size && isIpv4(segment)) || (mix.colons >= 2 && isIpv6(segment)))
        return Shape::Ip;
    if (mix.dots == 3 && mix.base64Marks == 1 && isCidr(segment))
        return Shape::Cidr;
    if (mix.dots >= 2 && (isDigit(segment[0]) || segment[0] == 'v') && isSemver(segment))
        return Shape::Semver;
    if (mix.size == 26 && mix.digits > 0 && mix.letters() > 0 && isUlid(segment))
        return Shape::Ulid;
    if (isHexDigest(mix))
        return Shape::Hex;
    if (isToken(segment, mix))
        return Shape::Token;
    return Shape::Word;
}

// The length of the UTF-8 sequence that starts at text[at], or 0 when none does (a control byte, DEL, a stray
// continuation byte, an overlong or cut sequence): a byte of binary data.
qsizetype textCharacterAt(QByteArrayView text, qsizetype at)
{
    const auto byte = static_cast<unsigned char>(text[at]);
    if (byte < 0x80)
        return byte >= 0x20 && byte != 0x7f ? 1 : 0;
    const qsizetype length = byte >= 0xc2 && byte <= 0xdf   ? 2
                             : byte >= 0xe0 && byte <= 0xef ? 3
                             : byte >= 0xf0 && byte <= 0xf4 ? 4
                                                            : 0;
    if (length == 0 || at + length > text.size())
        return 0;
    for (qsizetype i = at + 1; i < at + length; ++i)
        if ((static_cast<unsigned char>(text[i]) & 0xc0) != 0x80)
            return 0;
    return length;
}

// Where the first byte that is not text is, or -1.
qsizetype firstBinaryByte(QByteArrayView text)
{
    for (qsizetype at = 0; at < text.size();) {
        const qsizetype length = textCharacterAt(text, at);
        if (length == 0)
            return at;
        at += length;
    }
    return -1;
}

bool hasNonAscii(QByteArrayView text)
{
    return std::any_of(text.begin(), text.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return byte < 0x20 || byte >= 0x7f;
    });
}

} // namespace

QByteArray percentDecoded(QByteArrayView text)
{
    if (!text.contains('%'))
        return {};
    QByteArray out;
    bool decoded = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size() && isHexDigit(text[i + 1]) && isHexDigit(text[i + 2])) {
            const auto nibble = [](char c) { return isDigit(c) ? c - '0' : (c | 0x20) - 'a' + 10; };
            out.append(char(nibble(text[i + 1]) << 4 | nibble(text[i + 2])));
            i += 2;
            decoded = true;
        } else {
            out.append(text[i]);
        }
    }
    return decoded ? out : QByteArray();
}

Shape shapeOf(QByteArrayView segment)
{
    // Most segments are lower-case words, and no id is letters a to z only: answered in one pass.
    // (A lambda, not the function's address: GCC did not inline the pointer here, and this ran 1.7x slower.)
    if (std::all_of(segment.begin(), segment.end(), [](char c) { return isLower(c); }))
        return Shape::Word;
    // Raw bytes: every digest written as bytes is one pattern, not one a key. A word before them is kept
    // (`sess<binary>`, binaryTailFrom).
    if (binaryTailFrom(segment) == 0)
        return Shape::Binary;
    Shape shape = baseShape(segment);
    // `user-profile-1234567890` has the characters of a token, but it is words with an id glued on.
    if (shape == Shape::Token && isId(gluedIdOf(segment).shape))
        return Shape::Word;
    // An address or an e-mail as a URL carries it: the decoded bytes' shape.
    if (shape == Shape::Word || shape == Shape::Token) {
        if (const QByteArray decoded = percentDecoded(segment); !decoded.isNull()) {
            if (const Shape decodedShape = baseShape(decoded); isId(decodedShape))
                shape = decodedShape;
        }
    }
    return shape;
}

qsizetype binaryTailFrom(QByteArrayView segment)
{
    // Most segments are printable ASCII, told in one branch-free pass; only the others are read as UTF-8.
    if (!hasNonAscii(segment))
        return -1;
    const qsizetype binary = firstBinaryByte(segment);
    if (binary < 0)
        return -1;
    // The word is letters and inner delimiters; a digest's first bytes may be letters too, which sibling keys
    // (PatternTree) tell apart: here the word stops at the first byte that is neither.
    qsizetype word = 0;
    while (word < binary && (isLetter(segment[word]) || isInnerDelimiter(segment[word])))
        ++word;
    return word;
}

QByteArray numberedSeries(QByteArrayView text)
{
    if (text.isEmpty() || !isLetter(text.front()) || text.size() > MaxGluedSegment ||
        std::none_of(text.begin(), text.end(), isDigit)) // most words: nothing allocated
        return {};
    QByteArray out;
    bool numbered = false;
    for (qsizetype i = 0; i < text.size();) {
        const char c = text[i];
        if (isDigit(c)) {
            if (!isLetter(text[i - 1]))
                return {}; // `a_17`: an id after a delimiter is folded as one already
            while (i < text.size() && isDigit(text[i]))
                ++i;
            out.append("<int>");
            numbered = true;
            continue;
        }
        if (!isLetter(c) && !isInnerDelimiter(c))
            return {};
        out.append(c);
        ++i;
    }
    return numbered ? out : QByteArray();
}

QByteArrayView placeholder(Shape shape)
{
    switch (shape) {
    case Shape::Integer:
        return "<int>";
    case Shape::Uuid:
        return "<uuid>";
    case Shape::Ulid:
        return "<ulid>";
    case Shape::Hex:
        return "<hex>";
    case Shape::Token:
        return "<token>";
    case Shape::Email:
        return "<email>";
    case Shape::Ip:
        return "<ip>";
    case Shape::Date:
        return "<date>";
    case Shape::Epoch:
        return "<epoch>";
    case Shape::Cidr:
        return "<cidr>";
    case Shape::Semver:
        return "<semver>";
    case Shape::Path:
        return "<path>";
    case Shape::Binary:
        return "<binary>";
    case Shape::Word:
    case Shape::Count:
        break;
    }
    return {};
}

SegmentClass classOf(QByteArrayView segment)
{
    const Shape shape = shapeOf(segment);
    const bool plain = shape == Shape::Word && segment.size() >= 3 &&
                       std::all_of(segment.begin(), segment.end(), [](char c) { return isLower(c) || isDigit(c); });
    return {shape, plain};
}

GluedId gluedIdOf(QByteArrayView segment)
{
    if (segment.size() > MaxGluedSegment)
        return {};
    // The leftmost separator whose tail is a whole id wins, so `celery-task-meta-<uuid>` keeps the
    // UUID's own dashes in the id.
    for (qsizetype i = 1; i + 1 < segment.size(); ++i) {
        if (!isSeparator(segment[i]))
            continue;
        // The glued-on part must be words: letters between separators (`user-profile`, `userSettings`), at
        // least three of them. Not `2024` of `2024-03-10`, nor `24acf412` of a UUID, nor `nk` of a token.
        const QByteArrayView word = segment.first(i);
        if (!std::all_of(word.begin(), word.end(), [](char c) { return isLetter(c) || isSeparator(c); }))
            break; // every later prefix contains this one
        if (std::count_if(word.begin(), word.end(), isLetter) < 3)
            continue;
        const QByteArrayView tail = segment.sliced(i + 1);
        const Shape shape = baseShape(tail);
        // A token's own '-' and '_' make random splits: only a lower-case word of five letters or more is
        // glued to a token (`session-<token>`); a random 32-character id starts with four lower-case
        // letters and a '-' once in a few hundred, with five once in a few thousand.
        const bool lowerWord = std::none_of(word.begin(), word.end(), isUpper) &&
                               std::count_if(word.begin(), word.end(), isLetter) >= 5 &&
                               std::any_of(word.begin(), word.end(), isVowel);
        if (isId(shape) && !(shape == Shape::Token && (startsWithWordPart(tail) || !lowerWord)))
            return {segment.first(i + 1), shape};
    }
    return {};
}

QByteArrayView numberedCodePrefix(QByteArrayView segment)
{
    const auto digits = std::find_if(segment.begin(), segment.end(), isDigit);
    const qsizetype letters = digits - segment.begin();
    if (letters == 0 || segment.size() - letters < 4 || !std::all_of(segment.begin(), digits, isLetter) ||
        !std::all_of(digits, segment.end(), isDigit))
        return {};
    return segment.first(letters);
}

bool isDateSplitAcross(QByteArrayView year, QByteArrayView month)
{
    return year.size() == 4 && isYear(number(year, 0, 4)) && month.size() == 2 && isMonth(number(month, 0, 2));
}

const QByteArray& sharedPlaceholder(Shape shape)
{
    static const std::array<QByteArray, std::size_t(Shape::Count)> placeholders = [] {
        std::array<QByteArray, std::size_t(Shape::Count)> out;
        for (std::size_t shape = 0; shape < out.size(); ++shape)
            out[shape] = placeholder(Shape(shape)).toByteArray();
        return out;
    }();
    return placeholders[std::size_t(shape)];
}

QByteArray foldedPiece(QByteArrayView piece)
{
    if (const Shape shape = shapeOf(piece); isId(shape))
        return sharedPlaceholder(shape);
    if (const QByteArrayView code = numberedCodePrefix(piece); !code.isEmpty())
        return code.toByteArray().append(placeholder(Shape::Integer));
    return {};
}

QByteArray foldedSegment(QByteArrayView segment)
{
    return foldedSegment(segment, shapeOf(segment));
}

QByteArray foldedSegment(QByteArrayView segment, Shape whole)
{
    const SegmentUnits units = segmentUnits(segment, whole);
    if (units.size() == 1)
        return units.front().folded;
    QByteArray out;
    bool folded = false;
    for (const SegmentUnit& unit : units) {
        folded |= !unit.folded.isNull();
        out.append(unit.folded.isNull() ? unit.text : QByteArrayView(unit.folded));
        if (unit.delimiterAfter)
            out.append(unit.delimiterAfter);
    }
    return folded ? out : QByteArray();
}

QByteArray patternOf(QByteArrayView segment, Shape whole)
{
    if (isId(whole) && whole != Shape::Token)
        return sharedPlaceholder(whole);
    QByteArray folded = foldedSegment(segment, whole);
    return folded.isNull() ? segment.toByteArray() : folded;
}

QByteArray patternOf(QByteArrayView segment)
{
    return patternOf(segment, shapeOf(segment));
}

void appendPatternOf(QByteArray& pattern, QByteArrayView segment, Shape whole)
{
    if (isId(whole) && whole != Shape::Token) {
        pattern += sharedPlaceholder(whole);
        return;
    }
    // An id between words of one segment is an id too (`user_<int>_profile`), so is the number of a code (`SKU<int>`:
    // one pattern for a catalogue, not one per item), and an id with inner delimiters of its own stays one
    // (`LIMITER/<ip>/search`, `mail_<email>_settings`). The rules still read the code as the name it is: only the
    // pattern folds it.
    const QByteArray folded = foldedSegment(segment, whole);
    pattern += folded.isNull() ? segment : QByteArrayView(folded);
}

} // namespace keylens::lint
