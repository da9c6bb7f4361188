#include "keyspace/KeyPath.h"

namespace keylens::keyspace {

QByteArray joinSegments(std::span<const QByteArrayView> segments, char delimiter)
{
    QByteArray out;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        if (i > 0)
            out.append(delimiter);
        out.append(segments[i]);
    }
    return out;
}

bool parseDelimiter(QByteArrayView text, char* delimiter)
{
    if (text.size() == 1) {
        *delimiter = text.front();
        return true;
    }
    if (text == "\\t") {
        *delimiter = '\t';
        return true;
    }
    if (text.size() == 4 && text.startsWith("\\x")) {
        bool ok = false;
        const int value = text.sliced(2).toByteArray().toInt(&ok, 16);
        if (ok) {
            *delimiter = static_cast<char>(value);
            return true;
        }
    }
    return false;
}

} // namespace keylens::keyspace
