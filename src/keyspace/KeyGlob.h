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

    // What a person types in a filter box: a pattern with a glob character is taken as it is,
    // a plain word matches every key that contains it (`session` means `*session*`).
    static KeyGlob fromFilterText(QByteArrayView text);

    bool isEmpty() const { return m_pattern.isEmpty(); }
    const QByteArray& pattern() const { return m_pattern; }
    bool matches(QByteArrayView key) const;

private:
    QByteArray m_pattern;
    Case m_case = Case::Sensitive;
};

} // namespace keylens::keyspace
