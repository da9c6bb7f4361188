#include "keyspace/KeyGlob.h"

#include <algorithm>
#include <utility>

namespace keylens::keyspace {

namespace {

char fold(char c, KeyGlob::Case sensitivity)
{
    if (sensitivity == KeyGlob::Case::Insensitive && c >= 'A' && c <= 'Z')
        return char(c - 'A' + 'a');
    return c;
}

// Matches a bracket expression starting after '['; advances `p` past its closing ']'.
bool matchBracket(const char*& p, const char* pEnd, char c, KeyGlob::Case sensitivity)
{
    bool negate = false;
    if (p < pEnd && *p == '^') {
        negate = true;
        ++p;
    }
    bool matched = false;
    while (p < pEnd && *p != ']') {
        if (*p == '\\' && p + 1 < pEnd) {
            ++p;
            matched |= fold(*p, sensitivity) == c;
            ++p;
        } else if (p + 2 < pEnd && p[1] == '-' && p[2] != ']') {
            char low = fold(p[0], sensitivity);
            char high = fold(p[2], sensitivity);
            if (static_cast<unsigned char>(low) > static_cast<unsigned char>(high))
                std::swap(low, high);
            const auto u = static_cast<unsigned char>(c);
            matched |= u >= static_cast<unsigned char>(low) && u <= static_cast<unsigned char>(high);
            p += 3;
        } else {
            matched |= fold(*p, sensitivity) == c;
            ++p;
        }
    }
    if (p < pEnd)
        ++p; // the ']'
    return matched != negate;
}

} // namespace

KeyGlob::KeyGlob(QByteArray pattern, Case sensitivity)
    : m_pattern(std::move(pattern))
    , m_case(sensitivity)
{
    // Forward, as matches() reads the pattern: a wildcard (*, ?, a bracket) starts the literal tail over.
    int starRuns = 0;
    bool otherWildcard = false;
    bool lastWasStar = false;
    for (qsizetype i = 0; i < m_pattern.size(); ++i) {
        const char c = m_pattern[i];
        const bool star = c == '*';
        if (star && !lastWasStar)
            ++starRuns;
        lastWasStar = star;
        if (!m_hasWildcard && (c == '*' || c == '?' || c == '['))
            m_literalHead = m_literalTail;
        if (c == '\\' && i + 1 < m_pattern.size()) {
            m_literalTail += fold(m_pattern[++i], m_case);
        } else if (c == '*' || c == '?') {
            m_hasWildcard = true;
            otherWildcard |= c == '?';
            m_literalTail.clear();
        } else if (c == '[') {
            m_hasWildcard = true;
            otherWildcard = true;
            m_literalTail.clear();
            // Past the bracket's end, as matchBracket finds it.
            ++i;
            if (i < m_pattern.size() && m_pattern[i] == '^')
                ++i;
            while (i < m_pattern.size() && m_pattern[i] != ']')
                i += m_pattern[i] == '\\' ? 2 : 1;
        } else {
            m_literalTail += fold(c, m_case);
        }
    }
    if (!m_hasWildcard)
        m_literalHead = m_literalTail;
    m_headStarTail = starRuns == 1 && !otherWildcard;
}

qsizetype KeyGlob::headAgreement(QByteArrayView bytes, qsizetype at) const
{
    const qsizetype length = std::min(bytes.size(), std::max<qsizetype>(m_literalHead.size() - at, 0));
    qsizetype i = 0;
    while (i < length && fold(bytes[i], m_case) == m_literalHead[at + i])
        ++i;
    return i;
}

qsizetype KeyGlob::lastDelimiterIn(QByteArrayView bytes, const Delimiters& delimiters)
{
    if (delimiters.isSingle())
        return bytes.lastIndexOf(delimiters.primary());
    for (qsizetype i = bytes.size() - 1; i >= 0; --i)
        if (delimiters.contains(bytes[i]))
            return i;
    return -1;
}

bool KeyGlob::lastSegmentMayMatch(QByteArrayView segment, const Delimiters& delimiters, bool wholeKey) const
{
    if (m_literalTail.isEmpty())
        return true;
    // The key ends with the tail. Past the tail's last delimiter, the tail is all of the segment (a segment holds no
    // delimiter), and a key of one segment has none to match it; a tail without one lies within the segment.
    if (wholeKey && !keyOfOneSegmentMayMatch(delimiters))
        return false;
    const qsizetype cut = lastDelimiterIn(m_literalTail, delimiters);
    const QByteArrayView last = cut < 0 ? QByteArrayView(m_literalTail) : QByteArrayView(m_literalTail).sliced(cut + 1);
    if (cut >= 0 ? segment.size() != last.size() : segment.size() < last.size())
        return false;
    const QByteArrayView end = segment.sliced(segment.size() - last.size());
    for (qsizetype i = 0; i < last.size(); ++i) {
        if (fold(end[i], m_case) != last[i])
            return false;
    }
    return true;
}

QByteArray KeyGlob::escaped(QByteArrayView bytes)
{
    QByteArray out;
    out.reserve(bytes.size());
    for (const char c : bytes) {
        if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\')
            out += '\\';
        out += c;
    }
    return out;
}

bool KeyGlob::matches(QByteArrayView key) const
{
    // Iterative matching with one backtrack point for the last '*': linear for the patterns people
    // type, and never recursive, so a 16 KB key cannot blow the stack.
    const char* p = m_pattern.constData();
    const char* const pEnd = p + m_pattern.size();
    const char* s = key.data();
    const char* const sEnd = s + key.size();
    const char* starP = nullptr;
    const char* starS = nullptr;

    while (s < sEnd) {
        if (p < pEnd && *p == '*') {
            while (p < pEnd && *p == '*')
                ++p;
            if (p == pEnd)
                return true;
            starP = p;
            starS = s;
            continue;
        }
        bool stepMatched = false;
        const char* next = p;
        if (p < pEnd) {
            const char c = fold(*s, m_case);
            if (*p == '?') {
                stepMatched = true;
                next = p + 1;
            } else if (*p == '[') {
                next = p + 1;
                stepMatched = matchBracket(next, pEnd, c, m_case);
            } else if (*p == '\\' && p + 1 < pEnd) {
                stepMatched = fold(p[1], m_case) == c;
                next = p + 2;
            } else {
                stepMatched = fold(*p, m_case) == c;
                next = p + 1;
            }
        }
        if (stepMatched) {
            p = next;
            ++s;
        } else if (starP) {
            p = starP;
            s = ++starS;
        } else {
            return false;
        }
    }
    while (p < pEnd && *p == '*')
        ++p;
    return p == pEnd;
}

} // namespace keylens::keyspace
