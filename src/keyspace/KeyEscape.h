#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

namespace keylens::keyspace {

// The value of a hex digit (0-9, a-f, A-F), or -1: for reading the \xHH that escapeLikeRedisCli writes.
int hexDigitValue(char c);

// Characters that print as nothing, as a space, or that reorder the text around them (U+202E RIGHT-TO-LEFT OVERRIDE):
// shown raw, two keys that differ only in them would look the same, or a key would look like another.
bool isInvisibleOrBidi(char32_t codePoint);
// One UTF-8 sequence at `i`: its length, or 0 when it is malformed, overlong, a surrogate or past U+10FFFF; the code
// point in `codePoint`.
int decodeUtf8(QByteArrayView bytes, qsizetype i, char32_t* codePoint);

// True when the bytes are valid UTF-8 without control characters, i.e. safe to show as they are.
bool isPrintableUtf8(QByteArrayView bytes);

// The way redis-cli shows a binary-safe string, without the surrounding quotes: printable ASCII as is,
// `\\` and `\"` escaped, \n \r \t \a \b by name, every other byte as \xhh.
QByteArray escapeLikeRedisCli(QByteArrayView bytes);

// What a person should see for a key or segment, such that two distinct keys never look the same: the bytes
// themselves when that is unambiguous (printable UTF-8, no quote or backslash, no space at either end, no invisible
// or direction-changing character), otherwise redis-cli's quoting: "tab\tkey", "back\\slash", "" for the empty
// key, "\xe2\x80\xaeevil" for a right-to-left override. Printable non-ASCII characters stay readable inside the
// quotes ("café\t"). A shown form that starts with a quote is always the quoted one.
QByteArray displayBytes(QByteArrayView bytes);
// The same as a QString, for messages and widgets.
QString displayString(QByteArrayView bytes);
// For values (a hash field's value, a list element): the bytes as they are when printable UTF-8, otherwise the
// redis-cli escaping, unquoted. A value cell is read next to its type and length, not told apart from others.
QByteArray displayValue(QByteArrayView bytes);

} // namespace keylens::keyspace
