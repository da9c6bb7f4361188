// SARIF 2.1.0 for `keylens-cli lint --format sarif`: what code-scanning dashboards read. A Redis key is
// no file, so each result points at the key as a logical location; the rules travel in the driver so a
// viewer can show their rationale and fix.

#include "keyspace/KeyEscape.h"
#include "lint/FindingEvidence.h"
#include "report/JsonWriter.h"
#include "report/LintReport.h"

namespace keylens::report {

namespace {

// SARIF's levels: "note" is its word for info.
QByteArrayView sarifLevel(lint::Severity severity)
{
    switch (severity) {
    case lint::Severity::Error:
        return "error";
    case lint::Severity::Warning:
        return "warning";
    case lint::Severity::Info:
        break;
    }
    return "note";
}

void writeRules(JsonWriter& json, const lint::Profile& profile)
{
    json.key("rules").beginArray();
    for (const lint::RuleInfo& rule : lint::allRules()) {
        json.beginObject();
        json.key("id").value(rule.id);
        json.key("shortDescription").beginObject().key("text").value(rule.rationale).endObject();
        json.key("help").beginObject().key("text").value(rule.fix).endObject();
        json.key("defaultConfiguration").beginObject();
        json.key("enabled").value(profile.isEnabled(rule));
        json.key("level").value(sarifLevel(profile.severityOf(rule)));
        json.endObject();
        json.endObject();
    }
    json.endArray();
}

void writeResult(JsonWriter& json, const lint::Finding& finding, const keyspace::Delimiters& delimiter)
{
    json.beginObject();
    json.key("ruleId").value(finding.rule->id);
    json.key("ruleIndex").value(std::uint64_t(lint::ruleIndex(*finding.rule)));
    json.key("level").value(sarifLevel(finding.severity));
    json.key("message").beginObject().key("text").value(findingMessage(finding)).endObject();
    const QByteArray name = keyspace::displayBytes(finding.key);
    json.key("locations").beginArray().beginObject();
    json.key("logicalLocations").beginArray().beginObject();
    json.key("name").value(name);
    json.key("fullyQualifiedName").value(name);
    json.key("kind").value("resource");
    json.endObject().endArray();
    json.endObject().endArray();
    // Results with one fingerprint are one finding from run to run: the rule and the exact key.
    json.key("partialFingerprints").beginObject();
    json.key("keylensRuleAndKey/v1").value(QByteArray(finding.rule->id + QByteArray(":") + finding.key.toBase64()));
    json.endObject();
    json.key("properties").beginObject();
    json.bytesField("key", finding.key);
    json.bytesField("namespace", findingNamespace(finding.key, delimiter));
    json.key("fix").value(lint::fixOf(finding));
    json.key("evidence").beginArray();
    for (const QByteArray& evidence : lint::evidenceOf(finding))
        json.value(keyspace::displayBytes(evidence)); // a key's bytes in it are escaped
    json.endArray();
    json.endObject();
    json.endObject();
}

} // namespace

QByteArray lintToSarif(const LintReport& report)
{
    const lint::Linter& linter = *report.linter;
    QByteArray out;
    JsonWriter json(&out);
    json.beginObject();
    json.key("$schema").value(
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json");
    json.key("version").value("2.1.0");
    json.key("runs").beginArray().beginObject();

    json.key("tool").beginObject().key("driver").beginObject();
    json.key("name").value("keylens");
    json.key("semanticVersion").value(KEYLENS_VERSION);
    writeRules(json, linter.profile());
    json.endObject().endObject();

    json.key("invocations").beginArray().beginObject();
    json.key("executionSuccessful").value(report.summary.complete);
    json.key("toolExecutionNotifications").beginArray();
    for (const QString& notice : report.allNotices()) {
        json.beginObject();
        json.key("level").value("warning");
        json.key("message").beginObject().key("text").value(notice.toUtf8()).endObject();
        json.endObject();
    }
    json.endArray();
    json.endObject().endArray();

    json.key("results").beginArray();
    for (const lint::RuleSummary& rule : linter.summaries()) {
        for (const lint::Finding& finding : rule.examples)
            writeResult(json, finding, report.delimiter);
    }
    json.endArray();

    // The exact counts, which the results (up to --max-examples per rule) may not all list.
    json.key("properties").beginObject();
    json.key("profile").value(linter.profile().name.toUtf8());
    json.key("keys_scanned").value(linter.keysLinted());
    json.key("findings").value(linter.findings());
    json.key("by_rule").beginObject();
    for (const lint::RuleSummary& rule : linter.summaries())
        json.key(rule.rule->id).value(rule.findings);
    json.endObject();
    json.endObject();

    json.endObject().endArray();
    json.endObject();
    out += '\n';
    return out;
}

} // namespace keylens::report
