#pragma once

namespace keylens::lint {

// ASCII character classes for key segments (bytes, not locale-aware: keys are bytes).
constexpr bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}
constexpr bool isUpper(char c)
{
    return c >= 'A' && c <= 'Z';
}
constexpr bool isLetter(char c)
{
    return (c >= 'a' && c <= 'z') || isUpper(c);
}
constexpr char toLower(char c)
{
    return isUpper(c) ? char(c - 'A' + 'a') : c;
}
constexpr bool isHexDigit(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

} // namespace keylens::lint
