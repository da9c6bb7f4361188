#pragma once

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

    // A cheap test on a key's last segment alone (what follows its last `delimiter`; the whole key when it has
    // none): false when no key ending so can match, because the pattern ends in literal bytes the segment does not
    // end with. True says nothing: ask matches(). Filtering millions of keys, it spares most of them the reading of
    // their ancestors' segments, which is where the time goes.
    bool lastSegmentMayMatch(QByteArrayView segment, char delimiter, bool wholeKey) const;

private:
    QByteArray m_pattern;
    Case m_case = Case::Sensitive;
    QByteArray m_literalTail; // the pattern's last bytes after its last wildcard, unescaped and case-folded
};

} // namespace keylens::keyspace
