// keylens-cli restore FILE [URI]: puts the keys of a DUMP backup back.
#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/ExitCode.h"
#include "cli/InterruptWatcher.h"
#include "cli/Output.h"
#include "edit/Restore.h"
#include "keyspace/Units.h"
#include "redis/ConnectionArguments.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QFile>

#include <unistd.h>

namespace keylens::cli {

usage::Command restoreCommand()
{
    usage::Command command;
    command.name = QStringLiteral("restore");
    command.summary = QStringLiteral("Put the keys of a backup back");
    command.description =
        QStringLiteral("Put the keys of a backup (written by delete or rename) back, with their TTLs.");
    command.arguments = {{QStringLiteral("file"), QStringLiteral("The backup file (.klb)."), QStringLiteral("FILE")},
                         uriArgument()};
    command.options = {
        {QStringLiteral("replace"), QStringLiteral("Overwrite keys that exist now (RESTORE … REPLACE).")},
        {QStringLiteral("speed"), QStringLiteral("full or gentle (default gentle)."), QStringLiteral("full|gentle")},
        {QStringLiteral("incomplete"),
         QStringLiteral("Restore a backup that ends before its end record (its writer was killed, or the file was cut "
                        "short): the keys it holds. Without it such a backup is refused, nothing written.")},
    };
    command.groups = {connectionGroup()};
    command.choices = {{QStringLiteral("speed"), scanChoices().value(QStringLiteral("speed"))}};
    return command;
}

int runRestoreCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    restoreCommand().addTo(parser);
    if (const std::optional<int> done = parseCommandLine(parser, arguments, QStringLiteral("restore")))
        return *done;
    if (parser.positionalArguments().isEmpty())
        return usageError(QStringLiteral("restore needs the backup FILE"));
    redis::ConnectionOptions connection;
    if (const std::optional<int> failed = readConnection(parser, QStringLiteral("restore"), &connection, 1))
        return *failed;
    edit::RestoreOptions options;
    options.replace = parser.isSet(QStringLiteral("replace"));
    options.incomplete = parser.isSet(QStringLiteral("incomplete"));
    if (parser.isSet(QStringLiteral("speed"))) {
        const std::optional<scan::ScanSpeed> speed = scan::parseSpeed(parser.value(QStringLiteral("speed")));
        if (!speed)
            return usageError(
                QStringLiteral("--speed takes full or gentle, not '%1'").arg(parser.value(QStringLiteral("speed"))));
        options.speed = *speed;
    }

    edit::BackupReader backup;
    if (redis::Status opened = backup.open(parser.positionalArguments().first()); !opened) {
        if (opened.error().kind != redis::ErrorKind::Damaged)
            return usageError(opened.error().message);
        writeStderr("keylens-cli: " + opened.error().message.toUtf8() + "\nNothing was restored.\n");
        return ExitUsage; // the input's fault, as a damaged RDB file is
    }
    QByteArray about = "Backup of " + backup.source() + ", written " +
                       QDateTime::fromMSecsSinceEpoch(backup.createdAtMs()).toString(Qt::ISODate).toUtf8();
    if (!backup.plan().action.isEmpty())
        about += " before " + backup.plan().actionPhrase();
    if (backup.plan().plannedKeys > 0)
        about += " of " + keyspace::formatCount(backup.plan().plannedKeys) + " keys";
    writeStderr(about + '\n');
    redis::Result<std::unique_ptr<redis::Connection>> opened = redis::Connection::open(connection);
    if (!opened) {
        writeStderr("keylens-cli: " + opened.error().message.toUtf8() + '\n');
        return ExitConnection;
    }
    InterruptWatcher interrupts;
    std::atomic<bool> cancel{false};
    const bool terminal = ::isatty(STDERR_FILENO);
    const edit::RestoreSummary summary =
        edit::restoreBackup(**opened, backup, options, &cancel, [&](const edit::BulkProgress& progress) {
            if (interrupts.hasFired())
                cancel = true;
            if (terminal)
                writeStderr("\r" + keyspace::formatCount(progress.processed) + " keys restored\x1b[K");
        });
    if (const std::optional<int> ended = printActionSummary(summary.text(), summary.cancelled, terminal))
        return *ended;
    if (summary.damage) // on stderr too: a script that keeps only stdout must not miss it
        writeStderr("keylens-cli: " + summary.damage->message.toUtf8() +
                    (summary.refusedWhole ? QByteArray("\nNothing was restored.\n") : QByteArray("\n")));
    if (summary.refusedWhole)
        return ExitUsage;
    return summary.succeeded() ? ExitOk : ExitFailure;
}

} // namespace keylens::cli
