#pragma once

#include "keyspace/Delimiters.h"

#include <QByteArray>
#include <QByteArrayView>

namespace keylens::keyspace {

// A glob over key bytes with the syntax of SCAN MATCH: `*`, `?`, `[abc]`, `[^a-z]` and `\`
// escapes. Matching is byte-wise, so binary keys filter like any other.
class KeyGlob
{
public:
    enum class Case { Sensitive, Insensitive }; // Insensitive folds ASCII letters only

    KeyGlob() = default;
    explicit KeyGlob(QByteArray pattern, Case sensitivity = Case::Sensitive);

    // The bytes with the glob characters escaped, so that a pattern matches them and nothing else.
    static QByteArray escaped(QByteArrayView bytes);

    bool isEmpty() const { return m_pattern.isEmpty(); }
    const QByteArray& pattern() const { return m_pattern; }
    bool matches(QByteArrayView key) const;

    // A cheap test on a key's last segment alone (what follows its last delimiter; the whole key when it has
    // none): false when no key ending so can match, because the pattern ends in literal bytes the segment does not
    // end with. True says nothing: ask matches(). Filtering millions of keys, it spares most of them the reading of
    // their ancestors' segments, which is where the time goes.
    bool lastSegmentMayMatch(QByteArrayView segment, const Delimiters& delimiters, bool wholeKey) const;
    // Whether any key of one segment (no delimiter in it) may match: not when the literal tail holds a delimiter.
    // lastSegmentMayMatch(…, true) is false for every segment otherwise, so a pass can skip asking it.
    bool keyOfOneSegmentMayMatch(const Delimiters& delimiters) const
    {
        return lastDelimiterIn(m_literalTail, delimiters) < 0;
    }
    // Where the last of `delimiters` stands in `bytes`, or -1.
    static qsizetype lastDelimiterIn(QByteArrayView bytes, const Delimiters& delimiters);

    // The literal bytes before the first wildcard (unescaped, case-folded): every key it matches starts with them.
    const QByteArray& literalHead() const { return m_literalHead; }
    // How many of `bytes`' first bytes agree with the literal head from its byte `at` on (folded as the glob folds).
    qsizetype headAgreement(QByteArrayView bytes, qsizetype at = 0) const;
    bool hasWildcard() const { return m_hasWildcard; }
    // The pattern is the literal head, one run of `*`, then the literal tail: a key matches exactly when it starts
    // with the head, ends with the tail, and is long enough for both (`user:*`, `*:profile`, `cache:*:meta`).
    bool isHeadStarTail() const { return m_headStarTail; }
    const QByteArray& literalTail() const { return m_literalTail; }

private:
    QByteArray m_pattern;
    Case m_case = Case::Sensitive;
    QByteArray m_literalTail; // the pattern's last bytes after its last wildcard, unescaped and case-folded
    QByteArray m_literalHead;
    bool m_hasWildcard = false;
    bool m_headStarTail = false;
};

} // namespace keylens::keyspace
