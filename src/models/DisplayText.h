#pragma once

#include <QByteArray>
#include <QString>

namespace keylens::models {

// The formatting helpers of the keyspace library (units, escaped keys) produce UTF-8 bytes, which is
// what the CLI prints; widgets want QString.
inline QString displayText(const QByteArray& utf8)
{
    return QString::fromUtf8(utf8);
}

} // namespace keylens::models
