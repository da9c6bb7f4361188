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

private:
    QByteArray m_pattern;
    Case m_case = Case::Sensitive;
};

} // namespace keylens::keyspace
