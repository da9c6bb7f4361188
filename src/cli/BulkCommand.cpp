// keylens-cli delete | expire | rename: scan, select the keys (--match, --pattern or a --plan), show the exact preview
// on stderr, ask (or take --yes), back up, and act in gentle batches.
#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/ExitCode.h"
#include "cli/InterruptWatcher.h"
#include "cli/Output.h"
#include "cli/ScanJob.h"
#include "edit/BulkAction.h"
#include "edit/RenamePlan.h"
#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "lint/Linter.h"
#include "lint/ProfileFile.h"
#include "patterns/PatternTree.h"
#include "usage/OptionValues.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QFile>

#include <cstdio>
#include <iostream>
#include <string>
#include <unistd.h>

namespace keylens::cli {

namespace {

constexpr std::size_t KeysPreviewed = 10;

QByteArray shown(const QByteArray& key)
{
    return keyspace::displayBytes(key);
}

// The exact preview, on stderr: what will be touched, how big it is, and what changed since the scan.
void printPreview(const edit::BulkRequest& request, const edit::KeySelection& selection,
                  const std::optional<edit::SelectionCheck>& check, const keyspace::Keyspace& store, bool dryRun)
{
    QByteArray text = edit::bulkVerb(request.kind).toUtf8() + ": " + keyspace::formatCounted(selection.size(), "key") +
                      " in '" + shown(selection.description) + "' (" + selection.sizeText() + ")\n";
    if (request.kind == edit::BulkKind::Expire)
        text += "  TTL: " + keyspace::formatDuration(request.ttlMs) +
                (request.jitterMs > 0
                     ? QByteArray(" plus up to " + keyspace::formatDuration(request.jitterMs) + " of jitter")
                     : QByteArray()) +
                '\n';
    for (std::size_t i = 0; i < selection.size() && i < KeysPreviewed; ++i) {
        text += "  " + shown(selection.keys[i]);
        if (request.kind == edit::BulkKind::Rename)
            text += "  ->  " + shown(request.newKeys[i]);
        text += '\n';
    }
    if (selection.size() > KeysPreviewed)
        text += "  … and " + keyspace::formatCount(selection.size() - KeysPreviewed) + " more\n";
    if (request.kind == edit::BulkKind::Rename) {
        const std::vector<bool> collisions = edit::renameCollisions(store, request.newKeys);
        if (const auto count = std::count(collisions.begin(), collisions.end(), true); count > 0)
            text += keyspace::formatCount(std::uint64_t(count)) +
                    " new names exist already or repeat in the plan: those keys will be left as they are\n";
    }
    if (check)
        text += "Changed since the scan: " + keyspace::formatCount(check->changed()) + " of " +
                keyspace::formatCount(check->checked) + " (" + keyspace::formatCount(check->gone) + " gone, " +
                keyspace::formatCount(check->typeChanged) + " of another type)\n";
    if (!request.backupPath.isEmpty())
        text += QByteArray(dryRun ? "A run would back up first to: " : "Backup first: ") +
                QFile::encodeName(request.backupPath) + '\n';
    else if (edit::needsBackup(request.kind))
        text += "No backup (--no-backup): what is " + edit::bulkVerb(request.kind).toUtf8() +
                "d cannot be restored by Keylens\n";
    writeStderr(text);
}

// Asks the person at the terminal to type the selection's description; without a terminal, only --yes confirms.
bool confirmed(const edit::KeySelection& selection, edit::BulkKind kind)
{
    if (!::isatty(STDIN_FILENO)) {
        writeStderr("keylens-cli: not confirmed: pass --yes to " + edit::bulkVerb(kind).toUtf8() +
                    " without a terminal (or --dry-run to preview only). Nothing was changed.\n");
        return false;
    }
    writeStderr("Type " + shown(selection.description) + " to " + edit::bulkVerb(kind).toUtf8() + " these keys: ");
    std::string answer;
    if (!std::getline(std::cin, answer) ||
        QByteArray::fromStdString(answer).trimmed() != shown(selection.description)) {
        writeStderr("Not confirmed. Nothing was changed.\n");
        return false;
    }
    return true;
}

// The options of delete, expire and rename: what to select, then what each action needs.
usage::Command bulkCommand(edit::BulkKind kind, const QString& name, const QString& summary, const QString& description)
{
    usage::Command command;
    command.name = name;
    command.summary = summary;
    command.description = description;
    command.arguments = {uriArgument()};
    command.options = {
        {QStringLiteral("pattern"),
         QStringLiteral("The keys of this key pattern, as scan --patterns lists them (user:<int>:profile)."),
         QStringLiteral("pattern")},
        {QStringLiteral("dry-run"), QStringLiteral("Show the preview and change nothing.")},
        {QStringLiteral("yes"), QStringLiteral("Do not ask: act after the preview.")},
    };
    if (edit::needsBackup(kind))
        command.options += {
            {QStringLiteral("backup"),
             QStringLiteral("Write the DUMP backup here (default keylens-backup-<action>-<time>.klb in the current "
                            "directory). 'keylens-cli restore FILE' puts the keys back."),
             QStringLiteral("file")},
            {QStringLiteral("no-backup"), QStringLiteral("Do not write a backup.")},
        };
    if (kind == edit::BulkKind::Expire)
        command.options += {
            {QStringLiteral("ttl"), QStringLiteral("The TTL to set: 90 (seconds), 500ms, 15m, 2h, 7d, 1h30m."),
             QStringLiteral("duration")},
            {QStringLiteral("jitter"),
             QStringLiteral("Add a random share of this to each key's TTL, so they do not all expire at once."),
             QStringLiteral("duration")},
            {QStringLiteral("persist"), QStringLiteral("Remove the TTL instead (PERSIST).")},
        };
    if (kind == edit::BulkKind::Rename)
        command.options += {
            {QStringLiteral("to"), QStringLiteral("The new namespace prefix (user-cache:)."), QStringLiteral("prefix")},
            {QStringLiteral("from"),
             QStringLiteral("The prefix --to replaces (default: the literal start of --match or --pattern, up to its "
                            "last delimiter)."),
             QStringLiteral("prefix")},
            {QStringLiteral("plan"),
             QStringLiteral("Rename as this redis-cli script says (RENAMENX \"old\" \"new\" per line) instead."),
             QStringLiteral("file")},
            {QStringLiteral("naming-variants"),
             QStringLiteral("Rename every key the lint rule naming-variants flags into the spelling it names "
                            "(User_42 -> user:42). With --script, write the plan for review instead.")},
            {QStringLiteral("script"),
             QStringLiteral("Write the rename plan as a redis-cli script to this file, and change nothing."),
             QStringLiteral("file")},
        };
    command.groups = {connectionGroup(), scanGroup()};
    command.choices = scanChoices();
    return command;
}

} // namespace

static int runBulkCommand(edit::BulkKind kind, const usage::Command& spec, const QStringList& arguments)
{
    QCommandLineParser parser;
    spec.addTo(parser);
    const bool destructive = edit::needsBackup(kind);
    if (const std::optional<int> done = parseCommandLine(parser, arguments, spec.name))
        return *done;
    scan::ScanOptions options;
    if (const std::optional<int> failed = readConnection(parser, spec.name, &options.connection))
        return *failed;
    keyspace::Delimiters delimiter(':');
    QString problem;
    if (!readScanOptions(parser, &options, &delimiter, &problem, {.rdbFile = false}))
        return usageError(problem);

    edit::BulkRequest request;
    request.kind = kind;
    // The action rests between rounds unless told otherwise, wherever the server is.
    request.speed = parser.isSet(QStringLiteral("speed")) ? options.speed : scan::ScanSpeed::Gentle;
    const bool fromPlan = kind == edit::BulkKind::Rename && parser.isSet(QStringLiteral("plan"));
    const bool fromVariants = kind == edit::BulkKind::Rename && parser.isSet(QStringLiteral("naming-variants"));
    const bool byPattern = parser.isSet(QStringLiteral("pattern"));
    if (!fromPlan && !fromVariants && !byPattern && !parser.isSet(QStringLiteral("match")))
        return usageError(
            QStringLiteral("%1 needs --match GLOB or --pattern PATTERN%2")
                .arg(spec.name, kind == edit::BulkKind::Rename ? QStringLiteral(" (or --plan FILE)") : QString()));
    if (kind == edit::BulkKind::Expire) {
        if (parser.isSet(QStringLiteral("persist")) == parser.isSet(QStringLiteral("ttl")))
            return usageError(QStringLiteral("expire needs --ttl DURATION or --persist, not both"));
        if (parser.isSet(QStringLiteral("persist"))) {
            request.kind = edit::BulkKind::Persist;
        } else {
            const std::optional<std::int64_t> ttl = usage::parseDuration(parser.value(QStringLiteral("ttl")).toUtf8());
            if (!ttl || *ttl <= 0)
                return usageError(QStringLiteral("--ttl takes a duration such as 90, 15m, 2h or 7d, not '%1'")
                                      .arg(parser.value(QStringLiteral("ttl"))));
            request.ttlMs = *ttl;
            if (parser.isSet(QStringLiteral("jitter"))) {
                const std::optional<std::int64_t> jitter =
                    usage::parseDuration(parser.value(QStringLiteral("jitter")).toUtf8());
                if (!jitter)
                    return usageError(QStringLiteral("--jitter takes a duration such as 10m, not '%1'")
                                          .arg(parser.value(QStringLiteral("jitter"))));
                request.jitterMs = *jitter;
            }
        }
    }
    edit::RenamePlan plan;
    if (fromPlan) {
        QFile file(parser.value(QStringLiteral("plan")));
        if (!file.open(QIODevice::ReadOnly))
            return usageError(QStringLiteral("--plan: cannot read %1: %2").arg(file.fileName(), file.errorString()));
        redis::Result<edit::RenamePlan> parsed = edit::parseRenameScript(file.readAll());
        if (!parsed)
            return usageError(QStringLiteral("--plan: %1").arg(parsed.error().message));
        plan = *parsed;
    } else if (kind == edit::BulkKind::Rename && !fromVariants && !parser.isSet(QStringLiteral("to"))) {
        return usageError(QStringLiteral("rename needs --to PREFIX (or --plan FILE, or --naming-variants)"));
    }
    if (destructive && !parser.isSet(QStringLiteral("no-backup")))
        request.backupPath = parser.isSet(QStringLiteral("backup")) ? parser.value(QStringLiteral("backup"))
                                                                    : edit::defaultBackupName(kind);
    if (!request.backupPath.isEmpty() && QFile::exists(request.backupPath))
        return usageError(QStringLiteral("the backup file %1 exists already; Keylens never overwrites a backup")
                              .arg(request.backupPath));

    // The scan that the selection comes from: only what --match selects, everything for a pattern or a plan.
    InterruptWatcher interrupts;
    keyspace::Keyspace store(delimiter);
    lint::Profile convention = *lint::builtInProfile("default");
    convention.delimiters = delimiter;
    lint::Linter linter(convention, 1);
    const ScanOutcome outcome =
        fromVariants ? runScanJob(options, store, &interrupts,
                                  [&](keyspace::NodeId node, QByteArrayView key, const keyspace::KeyInfo& info) {
                                      linter.keyAdded(store, node, key, info);
                                  })
                     : runScanJob(options, store, &interrupts);
    if (const std::optional<int> refused = refuseWhenNothingWasRead(outcome))
        return *refused;
    if (outcome.interrupted) {
        writeStderr("Interrupted during the scan. Nothing was changed.\n");
        return interruptedExitCode();
    }
    if (!outcome.summary.complete) {
        writeStderr(
            "keylens-cli: the scan did not finish" +
            (outcome.summary.error ? QByteArray(": " + outcome.summary.error->message.toUtf8()) : QByteArray()) +
            "\nThe selection would not be exact, so nothing was changed.\n");
        return ExitFailure;
    }

    edit::KeySelection selection;
    if (fromVariants) {
        linter.finish(store, outcome.librarySets);
        std::vector<keyspace::NodeId> nodes;
        for (auto& [node, renamed] : linter.namingVariantRenames(store)) {
            nodes.push_back(node);
            request.newKeys.push_back(std::move(renamed));
        }
        selection = edit::selectNodes(store, nodes, "naming-variants");
    } else if (fromPlan) {
        std::vector<keyspace::NodeId> nodes;
        std::vector<QByteArray> targets;
        for (std::size_t i = 0; i < plan.from.size(); ++i) {
            const keyspace::NodeId node = store.find(plan.from[i]);
            if (node != keyspace::InvalidNode && store.isKey(node)) {
                nodes.push_back(node);
                targets.push_back(plan.to[i]);
            }
        }
        selection = edit::selectNodes(store, nodes, QFile::encodeName(parser.value(QStringLiteral("plan"))));
        request.newKeys = std::move(targets);
        if (selection.size() < plan.from.size())
            writeStderr(keyspace::formatCount(plan.from.size() - selection.size()) +
                        " keys of the plan are not on the server; they are left out.\n");
    } else if (byPattern) {
        const patterns::PatternTree patterns(store);
        const QByteArray text = parser.value(QStringLiteral("pattern")).toUtf8();
        const std::optional<patterns::PatternTree::PatternId> pattern = patterns.find(text);
        if (!pattern) {
            writeStderr("keylens-cli: no key pattern '" + text +
                        "' in this keyspace (keylens-cli scan --patterns lists them). Nothing was changed.\n");
            return ExitUsage;
        }
        selection = edit::selectPattern(store, patterns, *pattern);
    } else {
        selection = edit::selectSubtree(store, keyspace::Keyspace::root());
        selection.description = options.match;
        selection.prefix = edit::globPrefix(options.match, delimiter);
    }
    if (selection.size() == 0) {
        writeStderr("No key matches '" + shown(selection.description) + "'. Nothing to " +
                    edit::bulkVerb(request.kind).toUtf8() + ".\n");
        return ExitOk;
    }
    request.keys = selection.keys;
    if (kind == edit::BulkKind::Rename && !fromPlan && !fromVariants) {
        const QByteArray from =
            parser.isSet(QStringLiteral("from")) ? parser.value(QStringLiteral("from")).toUtf8() : selection.prefix;
        request.newKeys = edit::renamedKeys(request.keys, from, parser.value(QStringLiteral("to")).toUtf8());
    }
    if (kind == edit::BulkKind::Rename && parser.isSet(QStringLiteral("script"))) {
        QFile script(parser.value(QStringLiteral("script")));
        const QByteArray text = edit::formatRenameScript({request.keys, request.newKeys});
        if (!script.open(QIODevice::WriteOnly | QIODevice::NewOnly) || script.write(text) != text.size() ||
            !script.flush())
            return usageError(
                QStringLiteral("--script: cannot write %1: %2").arg(script.fileName(), script.errorString()));
        writeStderr("Wrote the plan for " + keyspace::formatCount(request.keys.size()) + " keys to " +
                    QFile::encodeName(script.fileName()) + ". Nothing was changed.\n");
        return ExitOk;
    }

    redis::Result<std::unique_ptr<redis::Connection>> connection = redis::Connection::open(options.connection);
    if (!connection) {
        writeStderr("keylens-cli: " + connection.error().message.toUtf8() + '\n');
        return ExitConnection;
    }
    const redis::Result<edit::SelectionCheck> check =
        edit::checkSinceScan(**connection, selection, scan::ScanSpeed::Full);
    printPreview(request, selection, check ? std::optional(*check) : std::nullopt, store,
                 parser.isSet(QStringLiteral("dry-run")));
    if (parser.isSet(QStringLiteral("dry-run"))) {
        writeStderr("Dry run: nothing was changed.\n");
        return ExitOk;
    }
    if (!parser.isSet(QStringLiteral("yes")) && !confirmed(selection, request.kind))
        return ExitNotConfirmed;

    std::atomic<bool> cancel{false};
    const bool terminal = ::isatty(STDERR_FILENO);
    const edit::BulkSummary summary =
        edit::runBulkAction(**connection, request, &cancel, [&](const edit::BulkProgress& progress) {
            if (interrupts.hasFired())
                cancel = true;
            if (terminal)
                writeStderr("\r" + keyspace::formatCount(progress.processed) + " / " +
                            keyspace::formatCount(progress.total) + " keys" +
                            (progress.backingOff ? QByteArray(" (backing off: the server slowed)") : QByteArray()) +
                            "\x1b[K");
        });
    if (const std::optional<int> ended = printActionSummary(summary.text(), summary.cancelled, terminal))
        return *ended;
    if (summary.stoppedBy && summary.stoppedBy->isConnectionError() && summary.done == 0 && summary.unknown == 0)
        return ExitConnection;
    return summary.succeeded() ? ExitOk : ExitFailure;
}

usage::Command deleteCommand()
{
    return bulkCommand(edit::BulkKind::Delete, QStringLiteral("delete"),
                       QStringLiteral("Delete the keys of a glob or pattern, after a preview and a backup"),
                       QStringLiteral("Delete keys (UNLINK) after a preview, with a DUMP backup first."));
}

usage::Command expireCommand()
{
    return bulkCommand(
        edit::BulkKind::Expire, QStringLiteral("expire"),
        QStringLiteral("Set (or remove) the TTL of the keys of a glob or pattern"),
        QStringLiteral(
            "Set a TTL on keys (PEXPIRE, optionally with jitter), or remove it (--persist), after a preview."));
}

usage::Command renameCommand()
{
    return bulkCommand(edit::BulkKind::Rename, QStringLiteral("rename"),
                       QStringLiteral("Rename keys into another namespace, or as a reviewed plan says"),
                       QStringLiteral("Rename keys into another namespace (RENAMENX: never over an existing key) "
                                      "after a preview, with a DUMP backup first."));
}

int runDeleteCommand(const QStringList& arguments)
{
    return runBulkCommand(edit::BulkKind::Delete, deleteCommand(), arguments);
}

int runExpireCommand(const QStringList& arguments)
{
    return runBulkCommand(edit::BulkKind::Expire, expireCommand(), arguments);
}

int runRenameCommand(const QStringList& arguments)
{
    return runBulkCommand(edit::BulkKind::Rename, renameCommand(), arguments);
}

} // namespace keylens::cli
