#include "report/JsonWriter.h"

#include "keyspace/KeyEscape.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace keylens::report {

QByteArray JsonWriter::quoted(QByteArrayView utf8)
{
    static constexpr char hexDigits[] = "0123456789abcdef";
    const auto escape = [&](QByteArray& out, char16_t unit) {
        out.append("\\u");
        for (int shift = 12; shift >= 0; shift -= 4)
            out.append(hexDigits[(unit >> shift) & 0xf]);
    };
    QByteArray out;
    out.reserve(utf8.size() + 2);
    out.append('"');
    for (qsizetype i = 0; i < utf8.size();) {
        const char c = utf8[i];
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x80) {
            // Characters that print as nothing or reorder the text (U+202E RIGHT-TO-LEFT OVERRIDE) are escaped: the
            // string decodes to the same bytes, and a person reading the file sees them.
            char32_t codePoint = 0;
            const int length = keyspace::decodeUtf8(utf8, i, &codePoint);
            if (length > 0 && keyspace::isInvisibleOrBidi(codePoint)) {
                if (codePoint > 0xffff) {
                    escape(out, char16_t(0xd800 + ((codePoint - 0x10000) >> 10)));
                    escape(out, char16_t(0xdc00 + ((codePoint - 0x10000) & 0x3ff)));
                } else {
                    escape(out, char16_t(codePoint));
                }
            } else {
                out.append(utf8.sliced(i, std::max(length, 1)));
            }
            i += std::max(length, 1);
            continue;
        }
        if (c == '"' || c == '\\') {
            out.append('\\').append(c);
        } else if (c == '\n') {
            out.append("\\n");
        } else if (c == '\t') {
            out.append("\\t");
        } else if (c == '\r') {
            out.append("\\r");
        } else if (u < 0x20 || u == 0x7f) {
            escape(out, char16_t(u));
        } else {
            out.append(c);
        }
        ++i;
    }
    out.append('"');
    return out;
}

void JsonWriter::newline()
{
    m_out->append('\n');
    m_out->append(QByteArray(static_cast<qsizetype>(m_hasItems.size()) * 2, ' '));
}

void JsonWriter::beforeValue()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (!m_hasItems.empty()) {
        if (m_hasItems.back())
            m_out->append(',');
        m_hasItems.back() = true;
        newline();
    }
}

JsonWriter& JsonWriter::beginObject()
{
    beforeValue();
    m_out->append('{');
    m_hasItems.push_back(false);
    return *this;
}

JsonWriter& JsonWriter::beginDocument(int schema)
{
    beginObject();
    key("tool").value("keylens");
    key("version").value(KEYLENS_VERSION);
    return key("schema").value(schema);
}

JsonWriter& JsonWriter::endObject()
{
    const bool hadItems = m_hasItems.back();
    m_hasItems.pop_back();
    if (hadItems)
        newline();
    m_out->append('}');
    if (m_hasItems.empty())
        m_out->append('\n');
    return *this;
}

JsonWriter& JsonWriter::beginArray()
{
    beforeValue();
    m_out->append('[');
    m_hasItems.push_back(false);
    return *this;
}

JsonWriter& JsonWriter::endArray()
{
    const bool hadItems = m_hasItems.back();
    m_hasItems.pop_back();
    if (hadItems)
        newline();
    m_out->append(']');
    return *this;
}

JsonWriter& JsonWriter::key(QByteArrayView name)
{
    beforeValue();
    m_out->append(quoted(name)).append(": ");
    m_afterKey = true;
    return *this;
}

JsonWriter& JsonWriter::value(QByteArrayView text)
{
    beforeValue();
    m_out->append(quoted(text));
    return *this;
}

JsonWriter& JsonWriter::value(std::int64_t number)
{
    beforeValue();
    m_out->append(QByteArray::number(static_cast<qint64>(number)));
    return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t number)
{
    beforeValue();
    m_out->append(QByteArray::number(static_cast<quint64>(number)));
    return *this;
}

JsonWriter& JsonWriter::value(double number)
{
    if (!std::isfinite(number))
        return null();
    beforeValue();
    m_out->append(QByteArray::number(number, 'g', 6)); // "0.2", "1e-05": valid JSON either way
    return *this;
}

JsonWriter& JsonWriter::value(bool flag)
{
    beforeValue();
    m_out->append(flag ? "true" : "false");
    return *this;
}

JsonWriter& JsonWriter::bytesField(QByteArrayView field, QByteArrayView bytes)
{
    key(field).bytesValue(bytes);
    if (keyspace::isPrintableUtf8(bytes))
        return *this;
    return key(QByteArray(field.toByteArray()).append("_base64")).value(bytes.toByteArray().toBase64());
}

JsonWriter& JsonWriter::bytesValue(QByteArrayView bytes)
{
    return keyspace::isPrintableUtf8(bytes) ? value(bytes) : value(keyspace::escapeLikeRedisCli(bytes));
}

JsonWriter& JsonWriter::null()
{
    beforeValue();
    m_out->append("null");
    return *this;
}

} // namespace keylens::report
