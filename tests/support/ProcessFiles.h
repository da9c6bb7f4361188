#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

namespace keylens::test {

// A process's arguments as `ps` shows them to every user (NUL-separated); empty when it is gone.
inline QByteArray processCommandLine(qint64 pid)
{
    QFile file(QStringLiteral("/proc/%1/cmdline").arg(pid));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace keylens::test
