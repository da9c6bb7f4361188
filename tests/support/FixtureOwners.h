#pragma once

// What the real-library fixtures' tests share: owners.tsv's rows (the drivers' record of who wrote each key), the
// key of a finding in lint JSON, and the share the floors are stated in.
#include <QByteArray>
#include <QByteArrayView>
#include <QFile>
#include <QJsonObject>
#include <QString>

#include <cstddef>
#include <map>

namespace keylens::test {

// A key's owner as owners.tsv says: the library's id and its role (queue, cache, session…).
struct Owner
{
    QByteArray library;
    QByteArray role;
};

// owners.tsv writes a key's other bytes as \xHH.
inline QByteArray unescapeOwnerKey(QByteArrayView text)
{
    QByteArray out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == '\\' && i + 3 < text.size() && text[i + 1] == 'x') {
            out += char(text.sliced(i + 2, 2).toByteArray().toInt(nullptr, 16));
            i += 3;
        } else {
            out += text[i];
        }
    }
    return out;
}

// Every row of an owners.tsv, by key; empty when the file cannot be read or a row has not its three fields.
inline std::map<QByteArray, Owner> readOwners(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    std::map<QByteArray, Owner> owners;
    while (!file.atEnd()) {
        const QList<QByteArray> fields = file.readLine().chopped(1).split('\t');
        if (fields.size() != 3)
            return {};
        owners[unescapeOwnerKey(fields[2])] = {fields[0], fields[1]};
    }
    return owners;
}

// A finding's key in lint JSON: `key_base64` where the key is not UTF-8 text, `key` otherwise.
inline QByteArray keyOfFinding(const QJsonObject& finding)
{
    const QString base64 = finding.value(QStringLiteral("key_base64")).toString();
    return base64.isEmpty() ? finding.value(QStringLiteral("key")).toString().toUtf8()
                            : QByteArray::fromBase64(base64.toLatin1());
}

inline double percent(std::size_t part, std::size_t whole)
{
    return whole == 0 ? 100.0 : 100.0 * double(part) / double(whole);
}

} // namespace keylens::test
