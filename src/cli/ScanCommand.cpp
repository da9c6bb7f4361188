#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/ExitCode.h"
#include "cli/Output.h"

#include <QCommandLineParser>

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

    keyspace::Keyspace keyspace(delimiter);
    const ScanOutcome outcome = runScanJob(options, keyspace);
    return finishScan(outcome, keyspace, request);
}

} // namespace keylens::cli
