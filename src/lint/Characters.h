#pragma once

#include <QByteArrayView>
#include <QVarLengthArray>

#include <algorithm>

namespace keylens::lint {

// ASCII character classes for key segments (bytes, not locale-aware: keys are bytes). Lambdas, not functions: passed
// to std::find_if and the like on every key's bytes, a function pointer was called, a lambda is inlined.
inline constexpr auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
inline constexpr auto isUpper = [](char c) { return c >= 'A' && c <= 'Z'; };
inline constexpr auto isLower = [](char c) { return c >= 'a' && c <= 'z'; };
inline constexpr auto isLetter = [](char c) { return isLower(c) || isUpper(c); };
constexpr char toLower(char c)
{
    return isUpper(c) ? char(c - 'A' + 'a') : c;
}
inline constexpr auto isHexDigit = [](char c) {
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
};
// a e i o u y, either case: a run of letters with none is rarely a word a person typed.
inline bool isVowel(char c)
{
    return QByteArrayView("aeiouy").contains(toLower(c));
}
// What joins the words of one segment when the delimiter does not (`user_settings`, `order-detail`).
inline constexpr auto isWordSeparator = [](char c) { return c == '_' || c == '-' || c == '.' || c == '/' || c == '|'; };

// A lower-cased copy of a short word, on the stack: for lookups that run on every key or node, where a
// QByteArray::toLower() each time was a measurable share of the linter's cost.
class LowerCase
{
public:
    explicit LowerCase(QByteArrayView text)
        : m_text(text.size())
    {
        std::transform(text.begin(), text.end(), m_text.begin(), toLower);
    }
    QByteArrayView view() const { return {m_text.data(), m_text.size()}; }

private:
    QVarLengthArray<char, 64> m_text;
};

} // namespace keylens::lint
