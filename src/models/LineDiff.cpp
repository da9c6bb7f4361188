#include "models/LineDiff.h"

#include <QCoreApplication>
#include <QStringList>

#include <vector>

namespace keylens::models {

QString lineDiff(const QString& server, const QString& mine, int maxLines)
{
    const QStringList a = server.split(u'\n');
    const QStringList b = mine.split(u'\n');
    if (a.size() > maxLines || b.size() > maxLines)
        return QCoreApplication::translate("LineDiff", "On the server now:\n%1\n\nYour edit:\n%2").arg(server, mine);
    // Longest common subsequence of lines, filled from the end so the walk below goes forwards.
    const std::size_t n = std::size_t(a.size()), m = std::size_t(b.size());
    std::vector<std::uint32_t> common((n + 1) * (m + 1), 0);
    const auto at = [m, &common](std::size_t i, std::size_t j) -> std::uint32_t& { return common[i * (m + 1) + j]; };
    for (std::size_t i = n; i-- > 0;)
        for (std::size_t j = m; j-- > 0;)
            at(i, j) = a[qsizetype(i)] == b[qsizetype(j)] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    QStringList out;
    std::size_t i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && a[qsizetype(i)] == b[qsizetype(j)]) {
            out << QStringLiteral("  ") + a[qsizetype(i)];
            ++i, ++j;
        } else if (j < m && (i == n || at(i, j + 1) >= at(i + 1, j))) {
            out << QStringLiteral("+ ") + b[qsizetype(j++)];
        } else {
            out << QStringLiteral("- ") + a[qsizetype(i++)];
        }
    }
    return out.join(u'\n');
}

} // namespace keylens::models
