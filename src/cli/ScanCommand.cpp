#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/ExitCode.h"
#include "cli/Output.h"

#include <QCommandLineParser>

namespace keylens::cli {

int runScanCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Scan a Redis keyspace and report its namespaces, memory and TTLs."));
    addServerOptions(parser);
    addReportOptions(parser);
    if (const std::optional<int> done = parseCommandLine(parser, arguments, QStringLiteral("scan")))
        return *done;
    scan::ScanOptions options;
    if (const std::optional<int> failed = readConnection(parser, QStringLiteral("scan"), &options.connection))
        return *failed;
    char delimiter = ':';
    ReportRequest request;
    QString problem;
    if (!readScanOptions(parser, &options, &delimiter, &problem) || !readReportRequest(parser, &request, &problem))
        return usageError(problem);

    keyspace::Keyspace keyspace(delimiter);
    const ScanOutcome outcome = runScanJob(options, keyspace);
    return finishScan(outcome, keyspace, request);
}

} // namespace keylens::cli
