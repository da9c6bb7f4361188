#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/ExitCode.h"
#include "cli/ReportFile.h"
#include "inspect/EndOfScanReads.h"
#include "lint/Linter.h"
#include "lint/ProfileFile.h"
#include "lint/SegmentShapes.h"
#include "lint/ValueShape.h"
#include "report/LintReport.h"

#include <QCommandLineParser>

namespace keylens::cli {

usage::Command lintCommand()
{
    usage::Command command;
    command.name = QStringLiteral("lint");
    command.summary = QStringLiteral("Scan a keyspace and check its key names against a naming convention");
    command.description =
        QStringLiteral("Scan a Redis keyspace and check its key names against a naming convention (a lint profile).");
    command.arguments = {uriArgument()};
    command.options = {
        {QStringLiteral("profile"),
         QStringLiteral("The naming convention: default, strict, or a profile file in JSON (see "
                        "/usr/share/doc/keylens/examples/profile.json). Default: default."),
         QStringLiteral("name|file")},
        {QStringLiteral("fail-on"),
         QStringLiteral("Exit 1 when a finding is at least this severe: error, warning, info or never (default "
                        "error)."),
         QStringLiteral("severity")},
        {QStringLiteral("format"),
         QStringLiteral("text, json, sarif (SARIF 2.1.0) or junit (JUnit XML). Default text."),
         QStringLiteral("format")},
        {QStringLiteral("max-examples"),
         QStringLiteral("Findings listed per rule (default 20; 0 lists every finding). Counts are always exact."),
         QStringLiteral("n")},
        {QStringLiteral("output"), QStringLiteral("Write the report to this file instead of stdout."),
         QStringLiteral("file")},
        noCatalogueOption(),
    };
    command.groups = {connectionGroup(), scanGroup()};
    command.choices = scanChoices();
    command.choices.insert(QStringLiteral("format"), {QStringLiteral("text"), QStringLiteral("json"),
                                                      QStringLiteral("sarif"), QStringLiteral("junit")});
    command.choices.insert(QStringLiteral("fail-on"), {QStringLiteral("error"), QStringLiteral("warning"),
                                                       QStringLiteral("info"), QStringLiteral("never")});
    return command;
}

int runLintCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    lintCommand().addTo(parser);
    const QString profile = QStringLiteral("profile");
    const QString failOn = QStringLiteral("fail-on");
    const QString format = QStringLiteral("format");
    const QString maxExamples = QStringLiteral("max-examples");
    const QString output = QStringLiteral("output");
    if (const std::optional<int> done = parseCommandLine(parser, arguments, QStringLiteral("lint")))
        return *done;
    scan::ScanOptions options;
    if (const std::optional<int> failed = readConnection(parser, QStringLiteral("lint"), &options.connection))
        return *failed;

    QString problem;
    std::optional<lint::Profile> convention =
        lint::loadProfile(parser.isSet(profile) ? parser.value(profile) : QStringLiteral("default"), &problem);
    if (!convention)
        return usageError(QStringLiteral("--profile: %1").arg(problem));
    // The lowest severity that fails the run; nothing for `never`.
    std::optional<lint::Severity> failSeverity = lint::Severity::Error;
    if (parser.isSet(failOn)) {
        failSeverity = lint::severityFromName(parser.value(failOn).toUtf8());
        if (!failSeverity && parser.value(failOn) != QLatin1String("never"))
            return usageError(
                QStringLiteral("--fail-on takes error, warning, info or never, not '%1'").arg(parser.value(failOn)));
    }
    const QString formatName = parser.isSet(format) ? parser.value(format) : QStringLiteral("text");
    const std::optional<report::LintFormat> reportFormat = report::lintFormatFromName(formatName);
    if (!reportFormat)
        return usageError(QStringLiteral("--format takes text, json, sarif or junit, not '%1'").arg(formatName));
    int examples = 20;
    if (!readWholeNumber(parser, QStringLiteral("max-examples"), 0, &examples, &problem))
        return usageError(problem);
    const QString outputPath = parser.value(output);
    if (problem = checkReportDestination(outputPath); !problem.isEmpty())
        return usageError(problem);

    keyspace::Delimiters delimiter(':');
    if (!readScanOptions(parser, &options, &delimiter, &problem))
        return usageError(problem);
    convention->delimiters = delimiter;
    options.valuePrefixBytes = lint::ValuePrefixBytes; // an RDB file keeps a few values for the role evidence
    options.valueMembers = lint::SampledMembers;       // and a few members of collections without a TTL
    options.valueMemberBytes = lint::MemberBytes;
    convention->libraryCatalogue = convention->libraryCatalogue && catalogueWanted(parser);

    // The key-level rules run as each key enters the store; the rest once the scan is over.
    keyspace::Keyspace keyspace(delimiter);
    lint::Linter linter(*convention, std::size_t(examples));
    // Each new segment is classified while the scan waits on the server, not once per node after it.
    lint::SegmentShapes shapes;
    const ScanOutcome outcome = runScanJob(
        options, keyspace, nullptr,
        [&](keyspace::NodeId node, QByteArrayView key, const keyspace::KeyInfo& info) {
            shapes.catchUp(keyspace);
            linter.keyAdded(keyspace, node, key, info, &shapes);
        },
        [&](const redis::ServerInfo& server) {
            linter.setServerEvictsAllKeys(lint::Linter::evictsAllKeys(server.maxmemoryPolicy));
        },
        convention->libraryCatalogue);
    if (const std::optional<int> refused = refuseWhenNothingWasRead(outcome))
        return *refused;
    shapes.catchUp(keyspace);
    report::LintReport lintReport{delimiter, outcome.summary, &linter, &keyspace, {}, failSeverity, &shapes};
    // The server answers the length questions while the namespace-level rules run on the store; a scan that did not
    // finish asks nothing more (its library sets were not read either), and the report says what went unchecked.
    const bool finished = !outcome.interrupted && !outcome.summary.error;
    const bool fromFile = !options.rdbFile.isEmpty();
    linter.setValueSource(inspect::valueSourceFor(options, outcome.summary, finished));
    const inspect::BigKeyLengths lengths = inspect::judgeBesideLengths(
        keyspace, finished && !fromFile ? &options.connection : nullptr, inspect::touchingFor(options),
        outcome.librarySets, [&](const lint::SetMembers& members) { linter.finish(keyspace, members, &shapes); },
        nullptr, fromFile ? outcome.summary.knownLengths.get() : nullptr);
    if (const QString unchecked = inspect::recordBigKeyLengths(keyspace, linter, lengths); !unchecked.isEmpty())
        lintReport.notices << unchecked;
    const QByteArray document = report::formatLint(lintReport, *reportFormat);
    if (const int delivered = deliverReport(outcome, outputPath, document); delivered != ExitOk)
        return delivered;
    const std::optional<lint::Severity> worst = linter.worst();
    return failSeverity && worst && *worst >= *failSeverity ? ExitFailure : ExitOk;
}

} // namespace keylens::cli
