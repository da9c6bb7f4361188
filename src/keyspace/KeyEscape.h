#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

namespace keylens::keyspace {

// True when the bytes are valid UTF-8 without control characters, i.e. safe to show as they are.
bool isPrintableUtf8(QByteArrayView bytes);

// The way redis-cli shows a binary-safe string, without the surrounding quotes: printable ASCII as is,
// `\\` and `\"` escaped, \n \r \t \a \b by name, every other byte as \xhh.
QByteArray escapeLikeRedisCli(QByteArrayView bytes);

// What a person should see for a key or segment: the bytes themselves when they are printable UTF-8,
// otherwise the redis-cli escaping.
QByteArray displayBytes(QByteArrayView bytes);
// The same as a QString, for messages and widgets.
QString displayString(QByteArrayView bytes);

} // namespace keylens::keyspace
