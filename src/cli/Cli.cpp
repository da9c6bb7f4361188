#include "cli/Cli.h"

#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/ExitCode.h"
#include "cli/Output.h"
#include "redis/Connection.h"
#include "redis/HiredisVersion.h"
#include "usage/Version.h"

#include <QSet>

#include <mutex>

namespace keylens::cli {

usage::Program program()
{
    usage::Program p;
    p.name = QStringLiteral("keylens-cli");
    p.summary = QStringLiteral("scan, lint and clean up Redis keyspaces from the command line");
    p.description = QStringLiteral(
        "keylens-cli scans a whole Redis keyspace (SCAN with pipelined TYPE, PTTL and MEMORY USAGE; every shard of a "
        "cluster at once) and reports where its memory and TTLs go, namespace by namespace, split on ':'. It checks "
        "the key names against a naming convention for scripts and CI, and deletes, expires or renames keys "
        "after a preview, with a backup that 'restore' puts back.\n\n"
        "The server is named by a URI, by the connection flags of redis-cli (-h, -p, -a, -n, -s, --tls, …) or by the "
        "REDIS_URL environment variable. Reports go to stdout (text or JSON), progress and errors to stderr.");
    p.commands = {scanCommand(),   lintCommand(),    demoCommand(), deleteCommand(), expireCommand(),
                  renameCommand(), restoreCommand(), diffCommand(), watchCommand(),  profileCommand()};
    p.exitCodes = {
        {QString::number(ExitOk), QStringLiteral("Success.")},
        {QString::number(ExitFailure),
         QStringLiteral("The scan stopped early (a connection lost mid-scan): the partial report is printed. Or the "
                        "report could not be written (a full disk), with a message and no partial --output file. "
                        "Or a bulk action or restore left keys failed, unknown or not attempted (see its summary). "
                        "lint: a finding at least as severe as --fail-on.")},
        {QString::number(ExitUsage), QStringLiteral("Bad arguments, or an --output that cannot be written to.")},
        {QString::number(ExitConnection),
         QStringLiteral("Could not connect, log in or read a first SCAN reply: the message is on stderr, nothing "
                        "on stdout.")},
        {QString::number(ExitNotConfirmed),
         QStringLiteral("delete, expire, rename: the preview was not confirmed (no --yes, or a wrong answer); "
                        "nothing was changed.")},
        {QString::number(ExitInterrupted), QStringLiteral("Interrupted (Ctrl-C): the partial report is printed.")},
        {QStringLiteral("128+N"),
         QStringLiteral("Ended by signal N as by Ctrl-C: 129 SIGHUP (a terminal or SSH session closing), 131 SIGQUIT, "
                        "143 SIGTERM. 141: the reader of standard output went away (`| head`), quietly.")},
    };
    p.environment = {
        {QStringLiteral("REDIS_URL"), QStringLiteral("The server's URI when neither a URI nor -h, -p or -s is given.")},
        {QStringLiteral("REDISCLI_AUTH"),
         QStringLiteral("The password, as redis-cli takes it; safer than -a, which other users may see.")},
    };
    p.files = {
        {QStringLiteral("keylens-backup-<action>-<time>.klb"),
         QStringLiteral("The backup delete and rename write in the current directory unless --backup or "
                        "--no-backup; 'keylens-cli restore FILE' reads it.")},
        {QStringLiteral("~/.ssh/config, ~/.ssh/known_hosts"),
         QStringLiteral("With --ssh, the system's ssh reads its own configuration and known hosts (unless "
                        "--ssh-known-hosts).")},
        {QStringLiteral("/usr/share/doc/keylens/examples/profile.json"),
         QStringLiteral("An example lint profile, with every field (lint --profile FILE).")},
    };
    p.examples = {
        {QStringLiteral("keylens-cli scan redis://127.0.0.1:6379/0 --depth 3"),
         QStringLiteral("Report the namespaces of database 0, three levels deep.")},
        {QStringLiteral("keylens-cli scan -c -h node1 --format json --output report.json"),
         QStringLiteral("Scan every shard of a cluster through one node, as JSON.")},
        {QStringLiteral("keylens-cli lint --profile strict --format sarif --fail-on warning"),
         QStringLiteral("Check the key names in CI, failing on warnings.")},
        {QStringLiteral("keylens-cli delete --match 'session:*' --dry-run"),
         QStringLiteral("Preview what a delete would remove, and change nothing.")},
        {QStringLiteral("keylens-cli demo --keys 1000"), QStringLiteral("Try it on a private demo server.")},
    };
    p.seeAlso = {QStringLiteral("keylens(1)"), QStringLiteral("redis-cli(1)")};
    return p;
}

int run(const QStringList& arguments)
{
    // A scan opens many connections (cluster nodes, reconnects): the same warning is said once.
    redis::setConnectionWarningHandler([](const QString& warning) {
        static std::mutex said;
        static QSet<QString> warnings;
        const std::lock_guard lock(said);
        if (!warnings.contains(warning)) {
            warnings.insert(warning);
            writeStderr("keylens-cli: warning: " + warning.toUtf8() + '\n');
        }
    });
    const QString command = arguments.value(1);
    const QStringList rest = arguments.mid(0, 1) + arguments.mid(2);
    setCurrentCommand(command); // usage errors point at this command's --help
    if (command == QLatin1String("scan"))
        return runScanCommand(rest);
    if (command == QLatin1String("lint"))
        return runLintCommand(rest);
    if (command == QLatin1String("demo"))
        return runDemoCommand(rest);
    if (command == QLatin1String("delete"))
        return runDeleteCommand(rest);
    if (command == QLatin1String("expire"))
        return runExpireCommand(rest);
    if (command == QLatin1String("rename"))
        return runRenameCommand(rest);
    if (command == QLatin1String("restore"))
        return runRestoreCommand(rest);
    if (command == QLatin1String("diff"))
        return runDiffCommand(rest);
    if (command == QLatin1String("watch"))
        return runWatchCommand(rest);
    if (command == QLatin1String("profile"))
        return runProfileCommand(rest);
    if (command == QLatin1String("--version") || command == QLatin1String("version"))
        return printRequested(
            usage::versionText(QStringLiteral("keylens-cli"), {{QStringLiteral("hiredis"), redis::hiredisVersion()}})
                .toUtf8(),
            QStringLiteral("the version"));
    const QByteArray usageText = program().usageText().toUtf8();
    if (command == QLatin1String("--help") || command == QLatin1String("help"))
        return printRequested(usageText, QStringLiteral("the help"));
    writeStderr(command.isEmpty() ? usageText
                                  : "keylens-cli: unknown command '" + command.toUtf8() + "'\n\n" + usageText);
    return ExitUsage;
}

} // namespace keylens::cli
