#include "report/LintReport.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/KeyGlob.h"
#include "keyspace/Units.h"
#include "lint/FindingEvidence.h"
#include "report/FindingGroups.h"
#include "report/JsonWriter.h"
#include "report/ShardsJson.h"
#include "report/TextReport.h"

#include <QString>

namespace keylens::report {

namespace {

using lint::Severity;

// `text` folded to lines of at most `width` columns, each starting with `indent`.
QByteArray wrapped(QByteArrayView text, const QByteArray& indent, qsizetype width = 78)
{
    QByteArray out;
    QByteArray line = indent;
    for (const QByteArray& word : text.toByteArray().split(' ')) {
        if (line.size() > indent.size() && line.size() + 1 + word.size() > width) {
            out += line + '\n';
            line = QByteArray(indent.size(), ' ');
        }
        if (line.size() > indent.size() && !line.endsWith(' '))
            line += ' ';
        line += word;
    }
    return out + line + '\n';
}

} // namespace

QByteArrayView findingNamespace(QByteArrayView key, const keyspace::Delimiters& delimiters)
{
    const qsizetype last = keyspace::KeyGlob::lastDelimiterIn(key, delimiters);
    return last < 0 ? QByteArrayView() : key.first(last + 1);
}

QByteArray findingMessage(const lint::Finding& finding)
{
    QByteArray text = finding.rule->rationale;
    if (!finding.detail.isEmpty())
        text += " (" + keyspace::displayBytes(finding.detail) + ')';
    return text;
}

QStringList LintReport::allNotices() const
{
    QStringList out = summary.notices;
    for (const QString& notice : linter->notices())
        out << notice;
    return out + notices;
}

std::optional<LintFormat> lintFormatFromName(const QString& name)
{
    if (name == QLatin1String("text"))
        return LintFormat::Text;
    if (name == QLatin1String("json"))
        return LintFormat::Json;
    if (name == QLatin1String("sarif"))
        return LintFormat::Sarif;
    if (name == QLatin1String("junit"))
        return LintFormat::JUnit;
    return std::nullopt;
}

QByteArray formatLint(const LintReport& report, LintFormat format)
{
    switch (format) {
    case LintFormat::Json:
        return lintToJson(report);
    case LintFormat::Sarif:
        return lintToSarif(report);
    case LintFormat::JUnit:
        return lintToJUnit(report);
    case LintFormat::Text:
        break;
    }
    return lintToText(report);
}

QByteArray lintToJson(const LintReport& report)
{
    const lint::Linter& linter = *report.linter;
    QByteArray out;
    JsonWriter json(&out);
    json.beginDocument(1);
    json.key("profile").value(linter.profile().name.toUtf8());
    json.key("keys_scanned").value(linter.keysLinted());
    json.key("scan").beginObject();
    json.key("complete").value(report.summary.complete);
    json.key("keys_seen").value(report.summary.keysSeen);
    // Memory figures the server scaled up from 5 elements (the groups' memory_bytes hold them), and --exact-memory.
    const keyspace::NamespaceStats totals =
        report.keyspace ? report.keyspace->stats(keyspace::Keyspace::root()) : keyspace::NamespaceStats();
    json.key("keys_memory_sampled").value(totals.keysMemorySampled);
    json.key("memory_sampled_bytes").value(totals.memorySampledBytes);
    json.key("exact_memory").value(report.summary.exactMemory);
    json.key("error");
    report.summary.error ? json.value(report.summary.error->message.toUtf8()) : json.null();
    json.endObject();
    writeShards(json, report.summary);
    json.key("notices").beginArray();
    for (const QString& notice : report.allNotices())
        json.value(notice.toUtf8());
    json.endArray();

    const std::vector<lint::RuleSummary> rules = linter.summaries();
    std::optional<FindingGroups> groups =
        report.keyspace ? std::optional<FindingGroups>(std::in_place, *report.keyspace, linter.libraries(),
                                                       report.segmentShapes, linter.coveredFindings())
                        : std::nullopt;
    json.key("summary").beginObject();
    json.key("findings").value(linter.findings());
    json.key("by_severity").beginObject();
    for (const Severity severity : {Severity::Error, Severity::Warning, Severity::Info})
        json.key(lint::severityName(severity)).value(linter.findings(severity));
    json.endObject();
    json.key("by_rule").beginObject();
    for (const lint::RuleSummary& rule : rules)
        json.key(rule.rule->id).value(rule.findings);
    json.endObject();
    if (groups) {
        json.key("patterns").value(groups->patternCount());
        json.key("groups").value(std::uint64_t(groups->groups().size()));
    }
    json.endObject();

    json.key("findings").beginArray();
    for (const lint::RuleSummary& rule : rules) {
        for (const lint::Finding& finding : rule.examples) {
            json.beginObject();
            json.key("rule").value(finding.rule->id);
            json.key("severity").value(lint::severityName(finding.severity));
            json.bytesField("key", finding.key);
            json.bytesField("namespace", findingNamespace(finding.key, report.delimiter));
            if (groups)
                json.bytesField("pattern", groups->patternOf(finding.key));
            json.key("message").value(findingMessage(finding));
            json.key("fix").value(lint::fixOf(finding));
            json.key("evidence").beginArray();
            for (const QByteArray& evidence : lint::evidenceOf(finding))
                json.value(keyspace::displayBytes(evidence)); // a key's bytes in it are escaped
            json.endArray();
            json.endObject();
        }
    }
    json.endArray();
    if (groups) {
        json.key("groups").beginArray();
        for (const FindingGroup& group : groups->groups()) {
            json.beginObject();
            json.key("rule").value(group.rule->id);
            json.bytesField("pattern", group.pattern);
            json.key("keys").value(group.keys);
            json.key("memory_bytes");
            group.memory.known() ? json.value(group.memory.bytes) : json.null();
            json.key("memory_lower_bound").value(group.memory.known() && group.memory.atLeast());
            json.key("library");
            group.library ? json.value(QByteArrayView(group.library->id)) : json.null();
            json.endObject();
        }
        json.endArray();
    }
    json.endObject();
    return out;
}

QByteArray lintToText(const LintReport& report)
{
    const lint::Linter& linter = *report.linter;
    const std::vector<lint::RuleSummary> rules = linter.summaries();
    QByteArray out = "Keylens " KEYLENS_VERSION " lint — " + report.summary.server.address.toUtf8() + " db" +
                     QByteArray::number(report.summary.server.db) + ", profile " + linter.profile().name.toUtf8() +
                     '\n';
    std::optional<FindingGroups> groups =
        report.keyspace ? std::optional<FindingGroups>(std::in_place, *report.keyspace, linter.libraries(),
                                                       report.segmentShapes, linter.coveredFindings())
                        : std::nullopt;
    out += keyspace::formatCounted(linter.keysLinted(), "key") + ", " +
           keyspace::formatCounted(linter.findings(), "finding") +
           (groups ? " in " + keyspace::formatCounted(groups->patternCount(), "pattern") : QByteArray()) + ": " +
           keyspace::formatCounted(linter.findings(Severity::Error), "error") + ", " +
           keyspace::formatCounted(linter.findings(Severity::Warning), "warning") + ", " +
           keyspace::formatCount(linter.findings(Severity::Info)) + " info\n";
    if (!report.summary.complete)
        out += "! the scan did not complete: these findings cover the keys scanned\n";
    for (const QString& notice : report.allNotices())
        out += wrapped(notice.toUtf8(), "! ");
    if (report.keyspace && report.summary.memoryMeasured)
        out += memorySamplingLines(report.summary, report.keyspace->stats(keyspace::Keyspace::root()));
    if (rules.empty())
        return out + "\nNo findings.\n";

    // Counts right-aligned under their headings; a rule can find keys at more than one severity.
    const auto column = [](const QByteArray& text, qsizetype width) {
        QByteArray cell(std::max<qsizetype>(1, width - text.size()), ' ');
        cell += text;
        return cell;
    };
    out += "\nRULE" + QByteArray(20, ' ') + column("ERRORS", 10) + column("WARNINGS", 10) + column("INFO", 10) +
           column("KEYS", 10) + '\n';
    for (const lint::RuleSummary& rule : rules) {
        const QByteArray name = rule.rule->id;
        out += name + QByteArray(std::max<qsizetype>(0, 24 - name.size()), ' ');
        for (const Severity severity : {Severity::Error, Severity::Warning, Severity::Info}) {
            const std::uint64_t count = rule.bySeverity[std::size_t(severity)];
            out += column(count ? keyspace::formatCount(count) : QByteArray("-"), 10);
        }
        out += column(keyspace::formatCount(rule.findings), 10);
        out += '\n';
    }
    for (const lint::RuleSummary& rule : rules) {
        out += '\n' + QByteArray(rule.rule->id) + " (" + keyspace::formatCount(rule.findings) + ")\n";
        out += wrapped(rule.rule->rationale, "  why: ") + wrapped(rule.rule->fix, "  fix: ");
        // The patterns first: a rule that found ten thousand keys usually found them in a handful of patterns.
        std::size_t examples = rule.examples.size();
        if (groups) {
            constexpr std::size_t ShownPatterns = 10;
            std::size_t shown = 0, more = 0;
            for (const FindingGroup& group : groups->groups()) {
                if (group.rule != rule.rule)
                    continue;
                if (shown++ >= ShownPatterns) {
                    ++more;
                    continue;
                }
                QByteArray pattern = keyspace::displayBytes(group.pattern);
                if (pattern.size() > 56)
                    pattern = pattern.left(55) + "…";
                QByteArray line = "    " + pattern + "  " + keyspace::formatCounted(group.keys, "key");
                if (group.memory.known())
                    line += ", " + keyspace::formatMemory(group.memory);
                if (group.library)
                    line += " [" + QByteArray(group.library->id) + ']';
                out += line + '\n';
            }
            if (more > 0)
                out += "    … and " + keyspace::formatCounted(more, "more pattern") + '\n';
            examples = std::min<std::size_t>(examples, 3);
            if (examples > 0)
                out += "  for example:\n";
        }
        for (std::size_t i = 0; i < examples; ++i) {
            const lint::Finding& finding = rule.examples[i];
            QByteArray key = keyspace::displayBytes(finding.key);
            if (key.size() > 72)
                key = key.left(71) + "…";
            out += "    " + key + '\n';
            if (!finding.detail.isEmpty())
                out += wrapped(keyspace::displayBytes(finding.detail), "      ");
            if (const QByteArrayList evidence = lint::evidenceOf(finding); !evidence.isEmpty())
                out += wrapped(keyspace::displayBytes(evidence.join("; ")), "      evidence: ");
            if (const QByteArrayView fix = lint::fixOf(finding); fix != QByteArrayView(rule.rule->fix))
                out += wrapped(fix, "      fix: "); // the rule's would be wrong for this key
        }
    }
    return out;
}

} // namespace keylens::report
