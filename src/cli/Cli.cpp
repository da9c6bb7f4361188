#include "cli/Cli.h"

#include "cli/Commands.h"
#include "cli/ExitCode.h"
#include "cli/Output.h"

namespace keylens::cli {

namespace {

const char usage[] = "Usage: keylens-cli <command> [options]\n"
                     "\n"
                     "Commands:\n"
                     "  scan [URI] [options]   Scan a keyspace and report its namespaces, memory and TTLs\n"
                     "  lint [URI] [options]   Scan a keyspace and check its key names against a naming convention\n"
                     "  demo [options]         Start a private redis-server with a messy demo keyspace and scan it\n"
                     "  delete [URI] options   Delete the keys of a glob or pattern, after a preview and a backup\n"
                     "  expire [URI] options   Set (or remove) the TTL of the keys of a glob or pattern\n"
                     "  rename [URI] options   Rename keys into another namespace, or as a reviewed plan says\n"
                     "  restore FILE [URI]     Put the keys of a backup back\n"
                     "\n"
                     "Run 'keylens-cli <command> --help' for the options of a command.\n";

} // namespace

int run(const QStringList& arguments)
{
    const QString command = arguments.value(1);
    const QStringList rest = arguments.mid(0, 1) + arguments.mid(2);
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
    if (command == QLatin1String("--version") || command == QLatin1String("version")) {
        writeStdout("keylens-cli " KEYLENS_VERSION "\n");
        return ExitOk;
    }
    if (command == QLatin1String("--help") || command == QLatin1String("help")) {
        writeStdout(usage);
        return ExitOk;
    }
    writeStderr(command.isEmpty() ? QByteArray(usage)
                                  : "keylens-cli: unknown command '" + command.toUtf8() + "'\n\n" + usage);
    return ExitUsage;
}

} // namespace keylens::cli
