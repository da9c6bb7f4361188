#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/ExitCode.h"
#include "cli/Output.h"
#include "redis/ConnectionArguments.h"

#include <QCommandLineParser>
#include <QProcessEnvironment>

namespace keylens::cli {

int runScanCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Scan a Redis keyspace and report its namespaces, memory and TTLs."));
    parser.addPositionalArgument(QStringLiteral("uri"), QStringLiteral("redis://… or unix://… (optional)"),
                                 QStringLiteral("[URI]"));
    redis::addConnectionOptions(parser);
    addScanOptions(parser);
    addReportOptions(parser);
    if (const std::optional<int> done = parseCommandLine(parser, arguments, QStringLiteral("scan")))
        return *done;
    if (const QString warning = redis::hidePasswordsGivenOnCommandLine(parser); !warning.isEmpty())
        writeStderr("keylens-cli: " + warning.toUtf8() + '\n');
    if (parser.positionalArguments().size() > 1)
        return usageError(QStringLiteral("scan takes at most one URI"));

    redis::Result<redis::ConnectionOptions> connection = redis::connectionOptionsFrom(
        parser, parser.positionalArguments().value(0), QProcessEnvironment::systemEnvironment());
    if (!connection) {
        if (connection.error().kind == redis::ErrorKind::Unsupported) {
            writeStderr("keylens-cli: " + connection.error().message.toUtf8() + '\n');
            return ExitConnection;
        }
        return usageError(connection.error().message);
    }
    scan::ScanOptions options;
    options.connection = *connection;
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
