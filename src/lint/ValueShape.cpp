#include "lint/ValueShape.h"

#include "lint/Characters.h"

#include <algorithm>
#include <array>

namespace keylens::lint {

namespace {

struct Magic
{
    QByteArrayView bytes;
    const char* name;
};

// Frames and serializations that announce themselves in their first bytes.
constexpr std::array Magics{
    Magic{QByteArrayView("\xac\xed\x00\x05", 4), "Java serialization"},
    Magic{QByteArrayView("\x1f\x8b\x08", 3), "gzip"},
    Magic{QByteArrayView("\x28\xb5\x2f\xfd", 4), "zstd"},
    Magic{QByteArrayView("\x04\x22\x4d\x18", 4), "LZ4"},
    Magic{QByteArrayView("\xff\x06\x00\x00sNaPpY", 10), "Snappy"},
    Magic{QByteArrayView("\x00\x00\x00\x01", 4), "igbinary"},
    Magic{QByteArrayView("\x00\x00\x00\x02", 4), "igbinary"},
};

std::uint8_t byteAt(QByteArrayView bytes, qsizetype i)
{
    return i < bytes.size() ? std::uint8_t(bytes[i]) : 0;
}

// Python's pickle from protocol 2 on: PROTO and its number, after one marker byte at most (cachelib and
// Flask-Caching put '!' before it).
bool isPickle(QByteArrayView value)
{
    for (qsizetype at = 0; at < 2; ++at) {
        if (byteAt(value, at) == 0x80 && byteAt(value, at + 1) >= 2 && byteAt(value, at + 1) <= 5)
            return true;
    }
    return false;
}

// PHP's serialize(): `i:42;`, `b:1;`, `d:0.5;`, `s:5:"hello";`, `a:2:{…`, `O:8:"stdClass":…`, `N;`.
bool isPhpSerialized(QByteArrayView value)
{
    if (value.startsWith("N;"))
        return true;
    if (value.size() < 4 || !QByteArrayView("sidbaOCE").contains(value[0]) || value[1] != ':')
        return false;
    qsizetype i = 2;
    if (value[i] == '-')
        ++i;
    const qsizetype digits = i;
    while (i < value.size() && (isDigit(value[i]) || value[i] == '.' || value[i] == 'E' || value[i] == '+'))
        ++i;
    if (i == digits || i >= value.size())
        return false;
    const bool scalar = value[0] == 'i' || value[0] == 'd' || value[0] == 'b';
    return value[i] == (scalar ? ';' : ':');
}

// Ruby's Marshal: version 4.8, then a type byte.
bool isRubyMarshal(QByteArrayView value)
{
    return value.size() >= 3 && value[0] == '\x04' && value[1] == '\x08' &&
           QByteArrayView("0TFi\"[{}:;@oIeCulcmSdf/").contains(value[2]);
}

// MessagePack: a map whose first key is a short string of printable bytes (`\x84\xa3sid…`).
bool isMessagePackMap(QByteArrayView value)
{
    const std::uint8_t first = byteAt(value, 0);
    qsizetype at = 1;
    if (first == 0xde)
        at = 3;
    else if (first == 0xdf)
        at = 5;
    else if (first < 0x81 || first > 0x8f)
        return false;
    const std::uint8_t key = byteAt(value, at);
    if (key < 0xa1 || key > 0xbf)
        return false;
    const qsizetype length = key & 0x1f;
    const QByteArrayView name = value.sliced(std::min(value.size(), at + 1))
                                    .first(std::min(length, value.size() - std::min(value.size(), at + 1)));
    return !name.isEmpty() && std::all_of(name.begin(), name.end(), [](char c) { return c > ' ' && c < 0x7f; });
}

// zlib's header: deflate with a 32 KB window (0x78) and a check that makes the pair a multiple of 31.
bool isZlib(QByteArrayView value)
{
    const std::uint8_t flags = byteAt(value, 1);
    return byteAt(value, 0) == 0x78 && (flags == 0x01 || flags == 0x5e || flags == 0x9c || flags == 0xda);
}

const char* serializationOf(QByteArrayView value)
{
    if (isPickle(value))
        return "pickle";
    for (const Magic& magic : Magics) {
        if (value.startsWith(magic.bytes))
            return magic.name;
    }
    if (isRubyMarshal(value))
        return "Ruby Marshal";
    if (isZlib(value))
        return "zlib";
    if (isPhpSerialized(value))
        return "PHP serialize";
    if (isMessagePackMap(value))
        return "MessagePack";
    return nullptr;
}

// A field that says when the value stops being good: `expires`, `expiresAt`, `expires_at`, `exp`, `ttl`, a cookie's
// `maxAge` and `originalMaxAge`… compared on its letters, in lower case.
bool isExpiryField(QByteArrayView name)
{
    QByteArray letters;
    for (const char c : name) {
        if (isLetter(c))
            letters += toLower(c);
        else if (c != '_' && c != '-')
            return false;
    }
    for (const char* expiry : {"expires", "expire", "expiry", "expiresat", "expireat", "expiration", "expirationtime",
                               "expiresin", "exp", "ttl", "maxage", "originalmaxage", "validuntil"}) {
        if (letters == expiry)
            return true;
    }
    return false;
}

// A JSON object's or array's field names, as far as the prefix goes: the first one, and whether any says when the
// value expires.
struct JsonFields
{
    QByteArray first;
    bool expiry = false;
};
JsonFields jsonFields(QByteArrayView text)
{
    JsonFields fields;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] != '"')
            continue;
        qsizetype end = i + 1;
        while (end < text.size() && text[end] != '"')
            end += text[end] == '\\' ? 2 : 1;
        if (end >= text.size())
            break; // cut off by the prefix
        qsizetype after = end + 1;
        while (after < text.size() && text[after] == ' ')
            ++after;
        if (after < text.size() && text[after] == ':') { // a field's name, not a string value
            const QByteArrayView name = text.sliced(i + 1, end - i - 1);
            if (fields.first.isNull())
                fields.first = name.toByteArray();
            fields.expiry = fields.expiry || isExpiryField(name);
        }
        i = end;
    }
    return fields;
}

bool isNumber(QByteArrayView value)
{
    return !value.isEmpty() && value.size() <= 32 && std::any_of(value.begin(), value.end(), isDigit) &&
           std::all_of(value.begin(), value.end(),
                       [](char c) { return isDigit(c) || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E'; });
}

// 32 or 40 hex digits, or a UUID with its dashes: a random token, whole (a value cut at the prefix is longer).
bool isRandomToken(QByteArrayView value)
{
    if (value.size() == 36 && value[8] == '-' && value[13] == '-' && value[18] == '-' && value[23] == '-') {
        return std::all_of(value.begin(), value.end(), [](char c) { return isHexDigit(c) || c == '-'; });
    }
    return (value.size() == 32 || value.size() == 40) && std::all_of(value.begin(), value.end(), isHexDigit);
}

} // namespace

ValueKind valueKindOf(QByteArrayView firstBytes)
{
    if (const char* serialization = serializationOf(firstBytes))
        return {ValueShape::Serialized, serialization, QByteArray(serialization)};
    QByteArrayView text = firstBytes;
    while (!text.isEmpty() && (text.front() == ' ' || text.front() == '\n' || text.front() == '\t'))
        text = text.sliced(1);
    if (text.startsWith('{') ||
        (text.startsWith('[') && (text.size() == 1 || QByteArrayView("{[\"]0123456789-tfn ").contains(text[1])))) {
        const JsonFields fields = jsonFields(text);
        if (fields.expiry)
            return {ValueShape::ExpiryJson, "JSON with an expiry field", "json:" + fields.first};
        return {ValueShape::Json, "JSON", "json:" + fields.first};
    }
    if (isNumber(firstBytes))
        return {ValueShape::Number, "a number", {}};
    if (firstBytes.size() < ValuePrefixBytes && isRandomToken(firstBytes))
        return {ValueShape::RandomToken, "a random token", QByteArray("token")};
    return {};
}

} // namespace keylens::lint
