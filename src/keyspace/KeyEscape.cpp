#include "keyspace/KeyEscape.h"

#include <QUtf8StringView>

namespace keylens::keyspace {

int hexDigitValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int decodeUtf8(QByteArrayView bytes, qsizetype i, char32_t* codePoint)
{
    const auto byte = [&](qsizetype k) { return static_cast<unsigned char>(bytes[k]); };
    const unsigned char lead = byte(i);
    int length = 0;
    char32_t value = 0;
    char32_t minimum = 0;
    if (lead < 0x80) {
        *codePoint = lead;
        return 1;
    } else if ((lead & 0xe0) == 0xc0) {
        length = 2, value = lead & 0x1f, minimum = 0x80;
    } else if ((lead & 0xf0) == 0xe0) {
        length = 3, value = lead & 0x0f, minimum = 0x800;
    } else if ((lead & 0xf8) == 0xf0) {
        length = 4, value = lead & 0x07, minimum = 0x10000;
    } else {
        return 0;
    }
    if (i + length > bytes.size())
        return 0;
    for (int k = 1; k < length; ++k) {
        const unsigned char next = byte(i + k);
        if ((next & 0xc0) != 0x80)
            return 0;
        value = (value << 6) | (next & 0x3f);
    }
    if (value < minimum || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff))
        return 0;
    *codePoint = value;
    return length;
}

namespace {

bool isControl(char32_t codePoint)
{
    return codePoint < 0x20 || codePoint == 0x7f || (codePoint >= 0x80 && codePoint < 0xa0);
}

} // namespace

bool isPrintableUtf8(QByteArrayView bytes)
{
    for (qsizetype i = 0; i < bytes.size();) {
        if (bytes[i] >= 0x20 && bytes[i] < 0x7f) { // printable ASCII, most keys' every byte: nothing to decode
            ++i;
            continue;
        }
        char32_t codePoint = 0;
        const int length = decodeUtf8(bytes, i, &codePoint);
        if (length == 0 || isControl(codePoint))
            return false;
        i += length;
    }
    return true;
}

bool isInvisibleOrBidi(char32_t c)
{
    return c == 0xa0 || c == 0xad || c == 0x34f || c == 0x61c || c == 0x115f || c == 0x1160 || c == 0x17b4 ||
           c == 0x17b5 || c == 0x180e || (c >= 0x2000 && c <= 0x200f) || (c >= 0x2028 && c <= 0x202f) ||
           (c >= 0x205f && c <= 0x206f) || c == 0x3000 || c == 0x3164 || (c >= 0xfe00 && c <= 0xfe0f) || c == 0xfeff ||
           c == 0xffa0 || (c >= 0xfff9 && c <= 0xfffb) || (c >= 0xe0000 && c <= 0xe007f);
}

QByteArray escapeLikeRedisCli(QByteArrayView bytes)
{
    static constexpr char hexDigits[] = "0123456789abcdef";
    QByteArray out;
    out.reserve(bytes.size() + 8);
    for (const char c : bytes) {
        const auto u = static_cast<unsigned char>(c);
        switch (c) {
        case '\\':
            out.append("\\\\");
            break;
        case '"':
            out.append("\\\"");
            break;
        case '\n':
            out.append("\\n");
            break;
        case '\r':
            out.append("\\r");
            break;
        case '\t':
            out.append("\\t");
            break;
        case '\a':
            out.append("\\a");
            break;
        case '\b':
            out.append("\\b");
            break;
        default:
            if (u >= 0x20 && u < 0x7f) {
                out.append(c);
            } else {
                out.append("\\x");
                out.append(hexDigits[u >> 4]);
                out.append(hexDigits[u & 0xf]);
            }
        }
    }
    return out;
}

QByteArray displayValue(QByteArrayView bytes)
{
    return isPrintableUtf8(bytes) ? bytes.toByteArray() : escapeLikeRedisCli(bytes);
}

namespace {

// Raw is unambiguous: printable UTF-8, nothing invisible, no quote or backslash (which the quoted form uses), and no
// space at either end (which a reader cannot see).
bool showsAsItIs(QByteArrayView bytes)
{
    if (bytes.isEmpty() || bytes.front() == ' ' || bytes.back() == ' ')
        return false;
    for (qsizetype i = 0; i < bytes.size();) {
        char32_t codePoint = 0;
        const int length = decodeUtf8(bytes, i, &codePoint);
        if (length == 0 || isControl(codePoint) || isInvisibleOrBidi(codePoint) || codePoint == '"' ||
            codePoint == '\\')
            return false;
        i += length;
    }
    return true;
}

} // namespace

QByteArray displayBytes(QByteArrayView bytes)
{
    if (showsAsItIs(bytes))
        return bytes.toByteArray();
    // redis-cli's quoting, except that printable non-ASCII characters stay as they are: the escapes are then only
    // for what cannot be seen, and the form stays one-to-one.
    QByteArray out;
    out.reserve(bytes.size() + 8);
    out.append('"');
    for (qsizetype i = 0; i < bytes.size();) {
        char32_t codePoint = 0;
        const int length = decodeUtf8(bytes, i, &codePoint);
        if (length > 1 && !isControl(codePoint) && !isInvisibleOrBidi(codePoint)) {
            out.append(bytes.sliced(i, length));
            i += length;
        } else {
            out.append(escapeLikeRedisCli(bytes.sliced(i, 1)));
            ++i;
        }
    }
    out.append('"');
    return out;
}

QString displayString(QByteArrayView bytes)
{
    return QString::fromUtf8(displayBytes(bytes));
}

} // namespace keylens::keyspace
