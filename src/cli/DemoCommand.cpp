#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/ExitCode.h"
#include "cli/InterruptWatcher.h"
#include "cli/Output.h"
#include "demo/DemoKeyspace.h"
#include "demo/RedisServerProcess.h"
#include "keyspace/Units.h"
#include "redis/Connection.h"
#include "usage/OptionValues.h"

#include <QCommandLineParser>
#include <QElapsedTimer>

namespace keylens::cli {

usage::Command demoCommand()
{
    usage::Command command;
    command.name = QStringLiteral("demo");
    command.summary = QStringLiteral("Start a private redis-server with a messy demo keyspace and scan it");
    command.description = QStringLiteral(
        "Start a private redis-server (on a free loopback port, in a temporary directory), fill it with a "
        "realistic, messy keyspace, scan it and print the report. The server stops when the command ends, unless "
        "--keep.");
    command.options = {
        {QStringLiteral("keys"), QStringLiteral("How many keys to create (default 200000)."), QStringLiteral("n")},
        {QStringLiteral("seed"), QStringLiteral("Random seed, for another keyspace of the same shape."),
         QStringLiteral("n")},
        {QStringLiteral("keep"), QStringLiteral("Leave the server running and print its URI.")},
    };
    command.groups = {scanGroup(), reportGroup()};
    command.choices = scanChoices();
    return command;
}

int runDemoCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    demoCommand().addTo(parser);
    const QString keys = QStringLiteral("keys");
    const QString seed = QStringLiteral("seed");
    const QString keep = QStringLiteral("keep");
    if (const std::optional<int> done = parseCommandLine(parser, arguments, QStringLiteral("demo")))
        return *done;
    if (!parser.positionalArguments().isEmpty())
        return usageError(QStringLiteral("demo takes no URI: it starts its own server"));

    demo::DemoOptions demoOptions;
    if (parser.isSet(keys)) {
        const std::optional<std::uint64_t> count =
            usage::parseCount(parser.value(keys), 1, demo::DemoOptions::MaximumKeys);
        if (!count)
            return usageError(QStringLiteral("--keys takes a number from 1 to %1, not '%2'")
                                  .arg(demo::DemoOptions::MaximumKeys)
                                  .arg(parser.value(keys)));
        demoOptions.keys = *count;
    }
    if (parser.isSet(seed)) {
        const std::optional<std::uint64_t> number = usage::parseCount(parser.value(seed), 0);
        if (!number)
            return usageError(QStringLiteral("--seed takes a number, not '%1'").arg(parser.value(seed)));
        demoOptions.seed = *number;
    }
    scan::ScanOptions scanOptions;
    keyspace::Delimiters delimiter(':');
    ReportRequest request;
    QString problem;
    if (!readScanOptions(parser, &scanOptions, &delimiter, &problem, {.rdbFile = false}) ||
        !readReportRequest(parser, &request, &problem))
        return usageError(problem);

    demo::RedisServerProcess server;
    demo::RedisServerProcess::Options serverOptions;
    serverOptions.survivesUs = parser.isSet(keep);
    if (redis::Status started = server.start(serverOptions); !started) {
        writeStderr("keylens-cli: " + started.error().message.toUtf8() + '\n');
        return ExitFailure;
    }
    scanOptions.connection = server.connectionOptions();

    writeStderr("Demo server at " + server.uri().toUtf8() + " (directory " + server.directory().toUtf8() +
                "): writing " + keyspace::formatCount(demoOptions.keys) + " keys…\n");
    QElapsedTimer seeding;
    seeding.start();
    // Ctrl-C while seeding stops it, and while scanning cancels the scan; returning lets the destructors
    // stop the server and remove its directory. (Were we killed outright, the server would still stop: it
    // dies with its parent.) One watcher for both, so no signal falls between two.
    InterruptWatcher interrupts;
    {
        demoOptions.shouldStop = [&interrupts] { return interrupts.hasFired(); };
        redis::Result<std::unique_ptr<redis::Connection>> connection = redis::Connection::open(scanOptions.connection);
        redis::Status seeded =
            connection ? demo::seedDemoKeyspace(**connection, demoOptions) : redis::Status(connection.error());
        if (!seeded && seeded.error().kind == redis::ErrorKind::Cancelled) {
            writeStderr("keylens-cli: interrupted while writing the demo keyspace; the demo server is stopped.\n");
            return interruptedExitCode();
        }
        if (!seeded) {
            writeStderr("keylens-cli: seeding the demo keyspace failed: " + seeded.error().message.toUtf8() + '\n');
            return ExitFailure;
        }
    }
    writeStderr("Written in " + keyspace::formatDuration(seeding.elapsed()) + "; scanning.\n");

    keyspace::Keyspace keyspace(delimiter);
    const ScanOutcome outcome = runScanJob(scanOptions, keyspace, &interrupts);
    const int exitCode = finishScan(outcome, keyspace, request);
    if (parser.isSet(keep)) {
        writeStderr("The demo server keeps running at " + server.uri().toUtf8() + " (stop it with: redis-cli -p " +
                    QByteArray::number(server.port()) + " shutdown nosave)\n");
    }
    return exitCode;
}

} // namespace keylens::cli
