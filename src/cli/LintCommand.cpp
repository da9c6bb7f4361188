#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/ExitCode.h"
#include "cli/Output.h"
#include "cli/ReportFile.h"
#include "lint/Linter.h"
#include "redis/ConnectionArguments.h"
#include "report/LintReport.h"

#include <QCommandLineParser>

namespace keylens::cli {

namespace {

// The lowest severity that fails the run, as a number above every severity for `never`.
constexpr int Never = int(lint::Severity::Error) + 1;

bool readFailOn(const QString& text, int* failOn)
{
    if (text == QLatin1String("error"))
        *failOn = int(lint::Severity::Error);
    else if (text == QLatin1String("warning"))
        *failOn = int(lint::Severity::Warning);
    else if (text == QLatin1String("info"))
        *failOn = int(lint::Severity::Info);
    else if (text == QLatin1String("never"))
        *failOn = Never;
    else
        return false;
    return true;
}

} // namespace

int runLintCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Scan a Redis keyspace and check its key names against a naming convention (a lint profile)."));
    parser.addPositionalArgument(QStringLiteral("uri"), QStringLiteral("redis://… or unix://… (optional)"),
                                 QStringLiteral("[URI]"));
    redis::addConnectionOptions(parser);
    addScanOptions(parser);
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
    int failLevel = int(lint::Severity::Error);
    if (parser.isSet(failOn) && !readFailOn(parser.value(failOn), &failLevel))
        return usageError(
            QStringLiteral("--fail-on takes error, warning, info or never, not '%1'").arg(parser.value(failOn)));
    const QString formatName = parser.isSet(format) ? parser.value(format) : QStringLiteral("text");
    if (formatName != QLatin1String("text") && formatName != QLatin1String("json"))
        return usageError(QStringLiteral("--format takes text or json, not '%1'").arg(formatName));
    std::size_t examples = 20;
    if (parser.isSet(maxExamples)) {
        bool ok = false;
        const int value = parser.value(maxExamples).toInt(&ok);
        if (!ok || value < 0)
            return usageError(
                QStringLiteral("--max-examples takes a whole number, not '%1'").arg(parser.value(maxExamples)));
        examples = std::size_t(value);
    }
    const QString outputPath = parser.value(output);
    if (const QString problem = checkReportDestination(outputPath); !problem.isEmpty())
        return usageError(problem);

    char delimiter = ':';
    QString problem;
    if (!readScanOptions(parser, &options, &delimiter, &problem))
        return usageError(problem);
    settings->delimiter = delimiter;

    keyspace::Keyspace keyspace(delimiter);
    const ScanOutcome outcome = runScanJob(options, keyspace);
    if (outcome.summary.error && outcome.summary.scanCalls == 0) {
        writeStderr("keylens-cli: " + outcome.summary.error->message.toUtf8() + '\n');
        return ExitConnection;
    }
    lint::Linter linter(*settings, examples);
    linter.lint(keyspace);
    const report::LintReport lintReport{profileName, delimiter, outcome.summary, &linter};
    const QByteArray document =
        formatName == QLatin1String("json") ? report::lintToJson(lintReport) : report::lintToText(lintReport);
    if (!writeReport(outputPath, document, &problem)) {
        writeStderr("keylens-cli: " + problem.toUtf8() + '\n');
        return ExitFailure;
    }
    if (outcome.interrupted)
        return ExitInterrupted;
    if (outcome.summary.error) {
        writeStderr("keylens-cli: the scan stopped early: " + outcome.summary.error->message.toUtf8() + '\n');
        return ExitFailure;
    }
    const std::optional<lint::Severity> worst = linter.worst();
    return worst && int(*worst) >= failLevel ? ExitFailure : ExitOk;
}

} // namespace keylens::cli
