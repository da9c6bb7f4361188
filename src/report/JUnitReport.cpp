// JUnit XML for `keylens-cli lint --format junit`: CI servers show test cases, so each rule of the
// profile is one, failed when it found keys that fail the run.

#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "report/LintReport.h"

#include <QXmlStreamWriter>

namespace keylens::report {

namespace {

bool failsTheRun(const lint::RuleSummary& summary, std::optional<lint::Severity> failOn)
{
    if (!failOn)
        return false;
    for (std::size_t severity = std::size_t(*failOn); severity < summary.bySeverity.size(); ++severity) {
        if (summary.bySeverity[severity] > 0)
            return true;
    }
    return false;
}

QString examplesText(const lint::RuleSummary& summary)
{
    QString text;
    for (const lint::Finding& finding : summary.examples) {
        text += QString::fromLatin1(lint::severityName(finding.severity)) + QLatin1String(": ") +
                QString::fromUtf8(keyspace::displayBytes(finding.key));
        if (!finding.detail.isEmpty())
            text += QLatin1String(" (") + QString::fromUtf8(keyspace::displayBytes(finding.detail)) + QLatin1Char(')');
        text += QLatin1Char('\n');
    }
    if (summary.findings > summary.examples.size())
        text += QStringLiteral("… and %1 more\n").arg(summary.findings - summary.examples.size());
    return text;
}

} // namespace

QByteArray lintToJUnit(const LintReport& report)
{
    const lint::Linter& linter = *report.linter;
    const lint::Profile& profile = linter.profile();
    std::vector<lint::RuleSummary> byRule(lint::allRules().size());
    for (const lint::RuleSummary& summary : linter.summaries())
        byRule[lint::ruleIndex(*summary.rule)] = summary;

    int failures = 0;
    int skipped = 0;
    for (std::size_t i = 0; i < byRule.size(); ++i) {
        failures += failsTheRun(byRule[i], report.failOn) ? 1 : 0;
        skipped += profile.isEnabled(lint::allRules()[i]) ? 0 : 1;
    }
    const QString tests = QString::number(byRule.size());
    const QString suiteName = QStringLiteral("keylens lint (profile %1)").arg(profile.name);

    QByteArray out;
    QXmlStreamWriter xml(&out);
    xml.setAutoFormatting(true);
    xml.writeStartDocument();
    xml.writeStartElement(QStringLiteral("testsuites"));
    xml.writeAttribute(QStringLiteral("name"), QStringLiteral("keylens lint"));
    xml.writeAttribute(QStringLiteral("tests"), tests);
    xml.writeAttribute(QStringLiteral("failures"), QString::number(failures));
    xml.writeAttribute(QStringLiteral("errors"), QStringLiteral("0"));
    xml.writeAttribute(QStringLiteral("time"), QString::number(double(report.summary.durationMs) / 1000.0));
    xml.writeStartElement(QStringLiteral("testsuite"));
    xml.writeAttribute(QStringLiteral("name"), suiteName);
    xml.writeAttribute(QStringLiteral("tests"), tests);
    xml.writeAttribute(QStringLiteral("failures"), QString::number(failures));
    xml.writeAttribute(QStringLiteral("errors"), QStringLiteral("0"));
    xml.writeAttribute(QStringLiteral("skipped"), QString::number(skipped));
    xml.writeAttribute(QStringLiteral("hostname"), report.summary.server.address);

    xml.writeStartElement(QStringLiteral("properties"));
    const auto property = [&](const QString& name, const QString& value) {
        xml.writeStartElement(QStringLiteral("property"));
        xml.writeAttribute(QStringLiteral("name"), name);
        xml.writeAttribute(QStringLiteral("value"), value);
        xml.writeEndElement();
    };
    property(QStringLiteral("profile"), profile.name);
    property(QStringLiteral("keys_scanned"), QString::number(linter.keysLinted()));
    property(QStringLiteral("scan_complete"),
             report.summary.complete ? QStringLiteral("true") : QStringLiteral("false"));
    xml.writeEndElement();

    for (std::size_t i = 0; i < byRule.size(); ++i) {
        const lint::RuleInfo& rule = lint::allRules()[i];
        const lint::RuleSummary& summary = byRule[i];
        xml.writeStartElement(QStringLiteral("testcase"));
        xml.writeAttribute(QStringLiteral("classname"), QStringLiteral("keylens.lint"));
        xml.writeAttribute(QStringLiteral("name"), QString::fromLatin1(rule.id));
        if (!profile.isEnabled(rule)) {
            xml.writeEmptyElement(QStringLiteral("skipped"));
            xml.writeAttribute(QStringLiteral("message"), QStringLiteral("disabled by the profile"));
        } else if (failsTheRun(summary, report.failOn)) {
            xml.writeStartElement(QStringLiteral("failure"));
            xml.writeAttribute(QStringLiteral("type"),
                               QString::fromLatin1(lint::severityName(profile.severityOf(rule))));
            xml.writeAttribute(QStringLiteral("message"),
                               QStringLiteral("%1 keys: %2")
                                   .arg(QString::fromUtf8(keyspace::formatCount(summary.findings)),
                                        QString::fromUtf8(rule.rationale)));
            xml.writeCharacters(QStringLiteral("fix: %1\n").arg(QString::fromUtf8(rule.fix)) + examplesText(summary));
            xml.writeEndElement();
        } else if (summary.findings > 0) {
            xml.writeTextElement(QStringLiteral("system-out"), examplesText(summary));
        }
        xml.writeEndElement();
    }
    if (const QStringList notices = report.allNotices(); !notices.isEmpty())
        xml.writeTextElement(QStringLiteral("system-err"), notices.join(QLatin1Char('\n')));
    xml.writeEndElement();
    xml.writeEndElement();
    xml.writeEndDocument();
    return out;
}

} // namespace keylens::report
