#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <cstdint>
#include <vector>

namespace keylens::report {

// A small streaming JSON writer that keeps fields in the order they are written (QJsonObject sorts
// them) and writes 64-bit integers exactly. Strings must be UTF-8; callers escape binary keys first.
class JsonWriter
{
public:
    explicit JsonWriter(QByteArray* out)
        : m_out(out)
    {}

    JsonWriter& beginObject();
    // Opens a keylens document: the object with its `tool`, `version` and `schema` fields.
    JsonWriter& beginDocument(int schema);
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(QByteArrayView name);

    JsonWriter& value(QByteArrayView text);
    JsonWriter& value(const char* text) { return value(QByteArrayView(text)); }
    JsonWriter& value(const QByteArray& text) { return value(QByteArrayView(text)); }
    JsonWriter& value(std::int64_t number);
    JsonWriter& value(std::uint64_t number);
    JsonWriter& value(std::uint32_t number) { return value(std::uint64_t(number)); }
    JsonWriter& value(int number) { return value(std::int64_t(number)); }
    JsonWriter& value(double number);
    JsonWriter& value(bool flag);
    JsonWriter& null();
    // A key, path or name as `field`: as it is when printable UTF-8, else redis-cli escaped plus the exact
    // bytes in `<field>_base64`.
    JsonWriter& bytesField(QByteArrayView field, QByteArrayView bytes);
    // The same text without the exact bytes, for a list of keys (`examples`).
    JsonWriter& bytesValue(QByteArrayView bytes);

    static QByteArray quoted(QByteArrayView utf8);

private:
    void beforeValue();
    void newline();

    QByteArray* m_out;
    std::vector<bool> m_hasItems; // per open container
    bool m_afterKey = false;
};

} // namespace keylens::report
