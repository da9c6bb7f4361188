#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/ExitCode.h"
#include "cli/Output.h"
#include "cli/ReportFile.h"
#include "history/SnapshotFile.h"
#include "history/SnapshotOfScan.h"

#include <QCommandLineParser>
#include <QDateTime>

namespace keylens::cli {

usage::Command scanCommand()
{
    usage::Command command;
    command.name = QStringLiteral("scan");
    command.summary = QStringLiteral("Scan a keyspace and report its namespaces, memory and TTLs");
    command.description =
        QStringLiteral("Scan a Redis keyspace (every key: SCAN with pipelined TYPE, "
                       "PTTL and MEMORY USAGE) and report its namespaces, memory, TTLs and biggest keys.");
    command.arguments = {uriArgument()};
    command.options = {{QStringLiteral("snapshot"),
                        QStringLiteral("Also save a snapshot of the scan to this file, for 'keylens-cli diff'."),
                        QStringLiteral("file")},
                       noCatalogueOption()};
    command.groups = {connectionGroup(), scanGroup(), reportGroup()};
    command.choices = scanChoices();
    return command;
}

int runScanCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    scanCommand().addTo(parser);
    if (const std::optional<int> done = parseCommandLine(parser, arguments, QStringLiteral("scan")))
        return *done;
    scan::ScanOptions options;
    if (const std::optional<int> failed = readConnection(parser, QStringLiteral("scan"), &options.connection))
        return *failed;
    keyspace::Delimiters delimiter(':');
    ReportRequest request;
    QString problem;
    if (!readScanOptions(parser, &options, &delimiter, &problem) || !readReportRequest(parser, &request, &problem))
        return usageError(problem);

    const QString snapshotPath = parser.value(QStringLiteral("snapshot"));
    if (problem = checkReportDestination(snapshotPath); !problem.isEmpty())
        return usageError(problem);

    keyspace::Keyspace keyspace(delimiter);
    request.options.libraryCatalogue = catalogueWanted(parser);
    const ScanOutcome outcome = runScanJob(options, keyspace, nullptr, {}, {}, request.options.libraryCatalogue);
    const bool nothingRead = outcome.summary.error && outcome.summary.scanCalls == 0; // refused by finishScan
    if (!snapshotPath.isEmpty() && !nothingRead) {
        // Written before the report: a scan cut short is still saved, marked partial.
        report::ReportOptions snapshotOptions = history::snapshotReportOptions();
        snapshotOptions.libraryCatalogue = request.options.libraryCatalogue;
        const report::ScanReport measured =
            report::buildReport(keyspace, outcome.summary, outcome.duplicates, snapshotOptions,
                                QDateTime::currentMSecsSinceEpoch(), outcome.librarySets);
        if (const QString failed = history::writeSnapshotFile(snapshotPath, history::snapshotOf(measured));
            !failed.isEmpty()) {
            writeStderr("keylens-cli: " + failed.toUtf8() + '\n');
            return ExitFailure;
        }
    }
    return finishScan(outcome, keyspace, request);
}

} // namespace keylens::cli
