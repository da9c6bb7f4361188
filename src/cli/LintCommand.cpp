#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/ExitCode.h"
#include "cli/ReportFile.h"
#include "lint/Linter.h"
#include "report/LintReport.h"

#include <QCommandLineParser>

namespace keylens::cli {

int runLintCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Scan a Redis keyspace and check its key names against a naming convention (a lint profile)."));
    addServerOptions(parser);
    const QCommandLineOption profile(QStringLiteral("profile"),
                                     QStringLiteral("The naming convention: default or strict (default: default)."),
                                     QStringLiteral("name"));
    const QCommandLineOption failOn(
        QStringLiteral("fail-on"),
        QStringLiteral("Exit 1 when a finding is at least this severe: error, warning, info or never (default error)."),
        QStringLiteral("severity"));
    const QCommandLineOption format(QStringLiteral("format"), QStringLiteral("text or json (default text)."),
                                    QStringLiteral("format"));
    const QCommandLineOption maxExamples(
        QStringLiteral("max-examples"),
        QStringLiteral("Findings listed per rule (default 20; 0 lists every finding). Counts are always exact."),
        QStringLiteral("n"));
    const QCommandLineOption output(QStringLiteral("output"),
                                    QStringLiteral("Write the report to this file instead of stdout."),
                                    QStringLiteral("file"));
    parser.addOptions({profile, failOn, format, maxExamples, output});
    if (const std::optional<int> done = parseCommandLine(parser, arguments, QStringLiteral("lint")))
        return *done;
    scan::ScanOptions options;
    if (const std::optional<int> failed = readConnection(parser, QStringLiteral("lint"), &options.connection))
        return *failed;

    const QString profileName = parser.isSet(profile) ? parser.value(profile) : QStringLiteral("default");
    std::optional<lint::KeyRuleSettings> settings = lint::builtInProfile(profileName.toUtf8());
    if (!settings)
        return usageError(QStringLiteral("--profile takes default or strict, not '%1' (profile files are not "
                                         "supported yet)")
                              .arg(profileName));
    // The lowest severity that fails the run; nothing for `never`.
    std::optional<lint::Severity> failSeverity = lint::Severity::Error;
    if (parser.isSet(failOn)) {
        failSeverity = lint::severityFromName(parser.value(failOn).toUtf8());
        if (!failSeverity && parser.value(failOn) != QLatin1String("never"))
            return usageError(
                QStringLiteral("--fail-on takes error, warning, info or never, not '%1'").arg(parser.value(failOn)));
    }
    const QString formatName = parser.isSet(format) ? parser.value(format) : QStringLiteral("text");
    if (formatName != QLatin1String("text") && formatName != QLatin1String("json"))
        return usageError(QStringLiteral("--format takes text or json, not '%1'").arg(formatName));
    int examples = 20;
    QString problem;
    if (!readWholeNumber(parser, QStringLiteral("max-examples"), 0, &examples, &problem))
        return usageError(problem);
    const QString outputPath = parser.value(output);
    if (problem = checkReportDestination(outputPath); !problem.isEmpty())
        return usageError(problem);

    char delimiter = ':';
    if (!readScanOptions(parser, &options, &delimiter, &problem))
        return usageError(problem);
    settings->delimiter = delimiter;

    keyspace::Keyspace keyspace(delimiter);
    const ScanOutcome outcome = runScanJob(options, keyspace);
    if (const std::optional<int> refused = refuseWhenNothingWasRead(outcome))
        return *refused;
    lint::Linter linter(*settings, std::size_t(examples));
    linter.lint(keyspace);
    const report::LintReport lintReport{profileName, delimiter, outcome.summary, &linter};
    const QByteArray document =
        formatName == QLatin1String("json") ? report::lintToJson(lintReport) : report::lintToText(lintReport);
    if (const int delivered = deliverReport(outcome, outputPath, document); delivered != ExitOk)
        return delivered;
    const std::optional<lint::Severity> worst = linter.worst();
    return failSeverity && worst && *worst >= *failSeverity ? ExitFailure : ExitOk;
}

} // namespace keylens::cli
