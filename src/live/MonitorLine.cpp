#include "live/MonitorLine.h"

#include "keyspace/KeyEscape.h"

namespace keylens::live {

namespace {

// The quoted argument that starts at `at` (its opening quote), unescaped; `at` moves past its closing quote.
std::optional<QByteArray> quoted(QByteArrayView line, qsizetype& at)
{
    QByteArray out;
    for (++at; at < line.size(); ++at) {
        const char c = line[at];
        if (c == '"') {
            ++at;
            return out;
        }
        if (c != '\\' || at + 1 >= line.size()) {
            out += c;
            continue;
        }
        const char next = line[++at];
        switch (next) {
        case 'n':
            out += '\n';
            break;
        case 'r':
            out += '\r';
            break;
        case 't':
            out += '\t';
            break;
        case 'a':
            out += '\a';
            break;
        case 'b':
            out += '\b';
            break;
        case 'x':
            if (at + 2 < line.size() && keyspace::hexDigitValue(line[at + 1]) >= 0 &&
                keyspace::hexDigitValue(line[at + 2]) >= 0) {
                out += char(keyspace::hexDigitValue(line[at + 1]) * 16 + keyspace::hexDigitValue(line[at + 2]));
                at += 2;
            } else {
                out += 'x';
            }
            break;
        default: // \" and \\ and anything else: the byte itself
            out += next;
        }
    }
    return std::nullopt; // no closing quote
}

} // namespace

std::optional<MonitorLine> parseMonitorLine(QByteArrayView line)
{
    const qsizetype open = line.indexOf('[');
    const qsizetype close = open < 0 ? -1 : line.indexOf(']', open);
    if (open <= 0 || close < 0)
        return std::nullopt;
    MonitorLine parsed;
    bool ok = false;
    parsed.timestamp = line.first(open).trimmed().toDouble(&ok);
    if (!ok)
        return std::nullopt;
    const QByteArrayView client = line.sliced(open + 1, close - open - 1);
    const qsizetype space = client.indexOf(' ');
    parsed.db = (space < 0 ? client : client.first(space)).toInt(&ok);
    if (!ok)
        return std::nullopt;
    for (qsizetype at = close + 1; at < line.size();) {
        if (line[at] == ' ') {
            ++at;
            continue;
        }
        if (line[at] != '"')
            return std::nullopt;
        std::optional<QByteArray> argument = quoted(line, at);
        if (!argument)
            return std::nullopt;
        parsed.arguments.push_back(std::move(*argument));
    }
    if (parsed.arguments.empty())
        return std::nullopt;
    return parsed;
}

} // namespace keylens::live
