#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <bitset>
#include <optional>

namespace keylens::keyspace {

// The bytes a keyspace's keys are split on: one (`:`, the default) or several (`:/` for `user:1` beside
// `LIMITER/192.0.2.7/hour`). The first is the primary one: the naming convention's delimiter, the one a new name
// is joined with. A set of one behaves exactly as a plain char did.
class Delimiters
{
public:
    Delimiters(char primary = ':'); // implicit: a char is a set of one
    // Parses a --delimiter argument: literal bytes, with escapes (`\t`, `\x1f`) for those hard to type. Null for an
    // empty text, an escape that names no byte, or a byte named twice.
    static std::optional<Delimiters> parse(QByteArrayView text);
    // The set of these bytes as they are (a saved setting): null when empty or a byte is there twice.
    static std::optional<Delimiters> ofBytes(QByteArrayView bytes);

    char primary() const { return m_bytes.front(); }
    const QByteArray& bytes() const { return m_bytes; }
    bool isSingle() const { return m_bytes.size() == 1; }
    bool contains(char c) const { return m_table.test(static_cast<unsigned char>(c)); }
    // The same set with `more` added after the bytes it has (a suggestion taken up).
    Delimiters with(char more) const;
    // For a --delimiter argument or a settings field: the bytes, escaped where parse() needs it.
    QByteArray text() const;

    friend bool operator==(const Delimiters& a, const Delimiters& b) { return a.m_bytes == b.m_bytes; }

private:
    QByteArray m_bytes;
    std::bitset<256> m_table;
};

} // namespace keylens::keyspace
