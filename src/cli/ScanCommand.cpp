#include "cli/Commands.h"
#include "cli/ExitCode.h"
#include "cli/Output.h"
#include "cli/ReportArguments.h"
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
    const QCommandLineOption help(QStringLiteral("help"), QStringLiteral("Show this help."));
    parser.addOption(help);
    redis::addConnectionOptions(parser);
    addScanOptions(parser);
    addReportOptions(parser);
    if (!parser.parse(arguments))
        return usageError(parser, parser.errorText());
    if (parser.isSet(help)) {
        writeStdout(parser.helpText().replace(QStringLiteral("[options]"), QStringLiteral("scan [options]")).toUtf8());
        return ExitOk;
    }
    if (parser.positionalArguments().size() > 1)
        return usageError(parser, QStringLiteral("scan takes at most one URI"));

    redis::Result<redis::ConnectionOptions> connection = redis::connectionOptionsFrom(
        parser, parser.positionalArguments().value(0), QProcessEnvironment::systemEnvironment());
    if (!connection) {
        if (connection.error().kind == redis::ErrorKind::Unsupported) {
            writeStderr("keylens-cli: " + connection.error().message.toUtf8() + '\n');
            return ExitConnection;
        }
        return usageError(parser, connection.error().message);
    }
    scan::ScanOptions options;
    options.connection = *connection;
    char delimiter = ':';
    ReportRequest request;
    QString problem;
    if (!readScanOptions(parser, &options, &delimiter, &problem) || !readReportRequest(parser, &request, &problem))
        return usageError(parser, problem);

    keyspace::Keyspace keyspace(delimiter);
    const ScanOutcome outcome = runScanJob(options, keyspace);
    return finishScan(outcome, keyspace, request);
}

} // namespace keylens::cli
