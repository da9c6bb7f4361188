#include "models/FindingsText.h"

#include "keyspace/Keyspace.h"
#include "keyspace/Units.h"
#include "lint/Rules.h"
#include "models/DisplayText.h"
#include "models/KeyspaceView.h"

#include <QCoreApplication>
#include <QStringList>

namespace keylens::models {

namespace {

QString count(std::uint64_t value)
{
    return displayText(keyspace::formatCount(value));
}

} // namespace

QString findingsCell(const std::array<std::uint64_t, 3>& bySeverity)
{
    // The total: the colour says the worst kind, the tooltip and the details pane the split by severity.
    // (Every split tried, "2 E · 2,362 W", was cut off in a column narrow enough to leave room for names.)
    const std::uint64_t total = bySeverity[0] + bySeverity[1] + bySeverity[2];
    return total == 0 ? QString() : count(total);
}

std::uint64_t findingsSortKey(const std::array<std::uint64_t, 3>& bySeverity)
{
    const std::uint64_t total = bySeverity[0] + bySeverity[1] + bySeverity[2];
    const std::uint64_t worst = std::uint64_t(keyspace::worstSeverity(bySeverity) + 1);
    return worst << 60 | std::min<std::uint64_t>(total, (std::uint64_t(1) << 60) - 1);
}

QString findingsBySeverity(const std::array<std::uint64_t, 3>& bySeverity)
{
    QStringList parts;
    for (const lint::Severity severity : {lint::Severity::Error, lint::Severity::Warning, lint::Severity::Info}) {
        const std::uint64_t n = bySeverity[std::size_t(severity)];
        if (n == 0)
            continue;
        QString name = QString::fromLatin1(lint::severityName(severity));
        if (n != 1 && severity != lint::Severity::Info)
            name += u's';
        parts << count(n) + u' ' + name;
    }
    return parts.join(QStringLiteral(", "));
}

QString findingsSummary(const std::array<std::uint64_t, 3>& bySeverity)
{
    return QCoreApplication::translate("FindingsText", "%1 naming findings: %2")
        .arg(count(bySeverity[0] + bySeverity[1] + bySeverity[2]), findingsBySeverity(bySeverity));
}

QString findingsOfKey(const keyspace::Keyspace& store, keyspace::NodeId key)
{
    const std::uint32_t rules = store.findingRules(key);
    QStringList lines;
    for (std::size_t i = 0; i < lint::allRules().size(); ++i) {
        if (rules >> i & 1) {
            const lint::RuleInfo& rule = lint::allRules()[i];
            lines << QStringLiteral("%1: %2").arg(QLatin1String(rule.id), QString::fromUtf8(rule.rationale));
        }
    }
    return lines.join(u'\n');
}

QString findingRulesOfKey(const KeyspaceView& view, NodeRef key)
{
    return view.isKey(key) ? findingRulesOfKey(*view.store(), key.node) : QStringLiteral("none");
}

QString findingRulesOfKey(const keyspace::Keyspace& store, keyspace::NodeId key)
{
    const std::uint32_t rules = store.findingRules(key);
    const int worst = store.worstFinding(key);
    QStringList parts;
    for (std::size_t i = 0; i < lint::allRules().size(); ++i) {
        if (rules >> i & 1)
            parts << QLatin1String(lint::allRules()[i].id);
    }
    if (parts.isEmpty())
        return QStringLiteral("none");
    return parts.join(QStringLiteral(", ")) + QCoreApplication::translate("FindingsText", " (worst: %1)")
                                                  .arg(QLatin1String(lint::severityName(lint::Severity(worst))));
}

} // namespace keylens::models
