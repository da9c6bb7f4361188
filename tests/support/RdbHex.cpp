#include "RdbHex.h"

#include <QFile>

namespace keylens::test {

QByteArray handBuiltRdb(const char* name)
{
    QFile file(QStringLiteral(KEYLENS_FIXTURES_DIR "/rdb/") + QLatin1String(name));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QByteArray hex;
    for (QByteArray line : file.readAll().split('\n')) {
        if (const qsizetype comment = line.indexOf('#'); comment >= 0)
            line.truncate(comment);
        for (const QByteArray& token : line.simplified().split(' ')) {
            if (token.isEmpty())
                continue;
            if (token.size() != 2 || QByteArray::fromHex(token).size() != 1)
                return {};
            hex += token;
        }
    }
    return QByteArray::fromHex(hex);
}

} // namespace keylens::test
