#include "edit/RenamePlan.h"

#include "keyspace/KeyEscape.h"

#include <QByteArrayList>
#include <QSet>

namespace keylens::edit {

namespace {

QByteArray quoted(const QByteArray& bytes)
{
    return '"' + keyspace::escapeLikeRedisCli(bytes) + '"';
}

} // namespace

QByteArray formatRenameScript(const RenamePlan& plan)
{
    QByteArray script;
    for (std::size_t i = 0; i < plan.from.size() && i < plan.to.size(); ++i)
        script += "RENAMENX " + quoted(plan.from[i]) + ' ' + quoted(plan.to[i]) + '\n';
    return script;
}

std::vector<bool> renameCollisions(const keyspace::Keyspace& store, const std::vector<QByteArray>& to)
{
    std::vector<bool> collides(to.size(), false);
    QSet<QByteArray> taken;
    for (std::size_t i = 0; i < to.size(); ++i) {
        const keyspace::NodeId node = store.find(to[i]);
        collides[i] = (node != keyspace::InvalidNode && store.isKey(node)) || taken.contains(to[i]);
        taken.insert(to[i]);
    }
    return collides;
}

std::optional<std::vector<QByteArray>> splitRedisCliLine(QByteArrayView line)
{
    std::vector<QByteArray> arguments;
    qsizetype at = 0;
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (true) {
        while (at < line.size() && space(line[at]))
            ++at;
        if (at >= line.size())
            return arguments;
        QByteArray argument;
        if (line[at] == '"') {
            ++at;
            bool closed = false;
            while (at < line.size() && !closed) {
                const char c = line[at];
                if (c == '\\' && at + 3 < line.size() && line[at + 1] == 'x' &&
                    keyspace::hexDigitValue(line[at + 2]) >= 0 && keyspace::hexDigitValue(line[at + 3]) >= 0) {
                    argument.append(
                        char(keyspace::hexDigitValue(line[at + 2]) * 16 + keyspace::hexDigitValue(line[at + 3])));
                    at += 4;
                    continue;
                }
                if (c == '\\' && at + 1 < line.size()) {
                    const char escaped = line[at + 1];
                    argument.append(escaped == 'n'   ? '\n'
                                    : escaped == 'r' ? '\r'
                                    : escaped == 't' ? '\t'
                                    : escaped == 'b' ? '\b'
                                    : escaped == 'a' ? '\a'
                                                     : escaped);
                    at += 2;
                    continue;
                }
                if (c == '"') {
                    closed = true;
                    ++at;
                    if (at < line.size() && !space(line[at]))
                        return std::nullopt; // a closing quote must end the argument
                    continue;
                }
                argument.append(c);
                ++at;
            }
            if (!closed)
                return std::nullopt;
        } else if (line[at] == '\'') {
            ++at;
            bool closed = false;
            while (at < line.size() && !closed) {
                if (line[at] == '\\' && at + 1 < line.size() && line[at + 1] == '\'') {
                    argument.append('\'');
                    at += 2;
                } else if (line[at] == '\'') {
                    closed = true;
                    ++at;
                    if (at < line.size() && !space(line[at]))
                        return std::nullopt;
                } else {
                    argument.append(line[at++]);
                }
            }
            if (!closed)
                return std::nullopt;
        } else {
            while (at < line.size() && !space(line[at]))
                argument.append(line[at++]);
        }
        arguments.push_back(std::move(argument));
    }
}

std::optional<QByteArray> unescapeRedisCli(QByteArrayView escaped)
{
    // The inside of one double-quoted argument.
    const std::optional<std::vector<QByteArray>> parts =
        splitRedisCliLine(QByteArray(QByteArray("\"") + escaped.toByteArray() + QByteArray("\"")));
    if (!parts || parts->size() != 1)
        return std::nullopt;
    return parts->front();
}

redis::Result<RenamePlan> parseRenameScript(const QByteArray& script)
{
    RenamePlan plan;
    int lineNumber = 0;
    for (const QByteArray& line : script.split('\n')) {
        ++lineNumber;
        if (line.trimmed().isEmpty())
            continue;
        const std::optional<std::vector<QByteArray>> arguments = splitRedisCliLine(line);
        if (!arguments || arguments->size() != 3 ||
            (arguments->front().toUpper() != "RENAMENX" && arguments->front().toUpper() != "RENAME"))
            return redis::Error{redis::ErrorKind::Usage,
                                QStringLiteral("line %1 of the plan is not RENAMENX \"old\" \"new\"").arg(lineNumber)};
        plan.from.push_back(arguments->at(1));
        plan.to.push_back(arguments->at(2));
    }
    return plan;
}

} // namespace keylens::edit
