#include "keyspace/Delimiters.h"

namespace keylens::keyspace {

Delimiters::Delimiters(char primary)
    : m_bytes(1, primary)
{
    m_table.set(static_cast<unsigned char>(primary));
}

std::optional<Delimiters> Delimiters::parse(QByteArrayView text)
{
    QByteArray bytes;
    for (qsizetype i = 0; i < text.size();) {
        char byte = text[i];
        if (text.sliced(i).startsWith("\\t")) {
            byte = '\t';
            i += 2;
        } else if (text.sliced(i).startsWith("\\x")) {
            bool ok = false;
            const int value = text.sliced(i + 2).first(std::min<qsizetype>(2, text.size() - i - 2)).toInt(&ok, 16);
            if (!ok || text.size() - i < 4)
                return std::nullopt;
            byte = static_cast<char>(value);
            i += 4;
        } else {
            ++i;
        }
        bytes.append(byte); // a byte twice (`::`) is a typo, not a set: ofBytes says no
    }
    return ofBytes(bytes);
}

std::optional<Delimiters> Delimiters::ofBytes(QByteArrayView bytes)
{
    if (bytes.isEmpty())
        return std::nullopt;
    Delimiters delimiters(bytes.front());
    for (qsizetype i = 1; i < bytes.size(); ++i) {
        if (delimiters.contains(bytes[i]))
            return std::nullopt;
        delimiters = delimiters.with(bytes[i]);
    }
    return delimiters;
}

Delimiters Delimiters::with(char more) const
{
    Delimiters out = *this;
    if (!contains(more)) {
        out.m_bytes.append(more);
        out.m_table.set(static_cast<unsigned char>(more));
    }
    return out;
}

QByteArray Delimiters::text() const
{
    QByteArray out;
    for (const char byte : m_bytes) {
        const auto value = static_cast<unsigned char>(byte);
        if (byte == '\t')
            out += "\\t";
        else if (byte == '\\' || value < 0x20 || value >= 0x7f)
            out.append("\\x").append(QByteArray::number(value, 16).rightJustified(2, '0'));
        else
            out += byte;
    }
    return out;
}

} // namespace keylens::keyspace
