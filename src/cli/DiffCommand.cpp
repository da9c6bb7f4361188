#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/ExitCode.h"
#include "cli/GrowthGateOption.h"
#include "cli/InterruptWatcher.h"
#include "cli/Output.h"
#include "cli/ReportFile.h"
#include "history/DiffReport.h"
#include "history/ReadSnapshot.h"
#include "history/SnapshotFile.h"
#include "history/SnapshotOfJsonReport.h"
#include "history/SnapshotOfScan.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>

namespace keylens::cli {

usage::Command diffCommand()
{
    usage::Command command;
    command.name = QStringLiteral("diff");
    command.summary = QStringLiteral("Compare two scans: what grew, what shrank, what is new or gone");
    command.description = QStringLiteral(
        "Compare two scans of a keyspace, per namespace and pattern: keys and memory before and after, new and "
        "vanished namespaces, TTL share, findings by rule; the biggest memory change first. OLD and NEW are snapshots "
        "(scan --snapshot FILE, or the ones the browser keeps) or JSON scan reports; with a URI, or no NEW, the server "
        "is scanned now.");
    command.arguments = {
        {QStringLiteral("old"), QStringLiteral("The earlier snapshot or JSON report."), QStringLiteral("OLD")},
        {QStringLiteral("new"),
         QStringLiteral("The later snapshot or JSON report, or a redis:// URI to scan now (default: scan the server "
                        "the connection options name)."),
         QStringLiteral("[NEW|URI]")}};
    command.options = {
        {QStringLiteral("depth"), QStringLiteral("Namespace levels to compare (default 2)."), QStringLiteral("n")},
        {QStringLiteral("patterns"), QStringLiteral("Compare the key patterns too (user:<int>:profile).")},
        {QStringLiteral("format"), QStringLiteral("text or json (default text)."), QStringLiteral("format")},
        {QStringLiteral("output"), QStringLiteral("Write the comparison to this file instead of stdout."),
         QStringLiteral("file")},
        {QStringLiteral("fail-on-growth"),
         QStringLiteral("Exit 1 when a namespace's memory grew more than PERCENT and more than BYTES (50, 50:10MB): "
                        "a CI gate."),
         QStringLiteral("PERCENT[:BYTES]")},
        {QStringLiteral("snapshot"), QStringLiteral("With a scan now: also save its snapshot to this file."),
         QStringLiteral("file")},
    };
    command.groups = {connectionGroup(), scanGroup()};
    command.choices = {{QStringLiteral("format"), {QStringLiteral("text"), QStringLiteral("json")}},
                       {QStringLiteral("speed"), scanChoices().value(QStringLiteral("speed"))}};
    return command;
}

int runDiffCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    diffCommand().addTo(parser);
    if (const std::optional<int> done = parseCommandLine(parser, arguments, QStringLiteral("diff")))
        return *done;
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty())
        return usageError(QStringLiteral("diff needs the OLD snapshot or JSON report"));
    history::DiffOptions options;
    QString problem;
    if (!readWholeNumber(parser, QStringLiteral("depth"), 1, &options.depth, &problem, report::MaxDepth))
        return usageError(problem);
    options.patterns = parser.isSet(QStringLiteral("patterns"));
    const QString format = parser.value(QStringLiteral("format"));
    if (!format.isEmpty() && format != QLatin1String("text") && format != QLatin1String("json"))
        return usageError(QStringLiteral("--format takes text or json, not '%1'").arg(format));
    history::DiffReportOptions reportOptions;
    if (parser.isSet(QStringLiteral("fail-on-growth"))) {
        reportOptions.gate = parseGrowthGate(parser.value(QStringLiteral("fail-on-growth")), &problem);
        if (!reportOptions.gate)
            return usageError(problem);
    }
    const QString outputPath = parser.value(QStringLiteral("output"));
    const QString snapshotPath = parser.value(QStringLiteral("snapshot"));
    for (const QString& destination : {outputPath, snapshotPath}) {
        if (problem = checkReportDestination(destination); !problem.isEmpty())
            return usageError(problem);
    }

    // Both sides are read before anything is scanned or written: a damaged file costs no scan.
    const std::optional<history::Snapshot> before = history::readSnapshotOrReport(positional[0], &problem);
    if (!before)
        return usageError(problem);
    reportOptions.beforeSource = positional[0].toUtf8();
    std::optional<history::Snapshot> after;
    std::optional<QString> scanError; // a scan made now that stopped early
    const bool scanNow = positional.size() < 2 || !QFileInfo::exists(positional[1]);
    if (!scanNow) {
        if (positional.size() > 2)
            return usageError(QStringLiteral("diff compares two scans: OLD and NEW"));
        if (!snapshotPath.isEmpty())
            return usageError(QStringLiteral("--snapshot saves a scan made now; NEW is a file"));
        after = history::readSnapshotOrReport(positional[1], &problem);
        if (!after)
            return usageError(problem);
        reportOptions.afterSource = positional[1].toUtf8();
    } else {
        if (positional.size() == 2 && !positional[1].contains(QLatin1String("://")))
            return usageError(QStringLiteral("%1 is neither a file nor a redis:// URI").arg(positional[1]));
        scan::ScanOptions scanOptions;
        if (const std::optional<int> failed =
                readConnection(parser, QStringLiteral("diff"), &scanOptions.connection, 1))
            return *failed;
        // The scan splits keys as the earlier one did, unless told otherwise: else every namespace differs.
        std::optional<keyspace::Delimiters> delimiter = keyspace::Delimiters::parse(before->delimiters);
        keyspace::Delimiters delimiters = delimiter.value_or(keyspace::Delimiters(':'));
        if (!readScanOptions(parser, &scanOptions, &delimiters, &problem, {.rdbFile = true, .uriPosition = 1}))
            return usageError(problem);
        keyspace::Keyspace keyspace(delimiters);
        const ScanOutcome outcome = runScanJob(scanOptions, keyspace);
        if (const std::optional<int> refused = refuseWhenNothingWasRead(outcome))
            return *refused;
        if (outcome.interrupted)
            return interruptedExitCode();
        if (outcome.summary.error)
            scanError = outcome.summary.error->message;
        const report::ScanReport scanReport =
            report::buildReport(keyspace, outcome.summary, outcome.duplicates, history::snapshotReportOptions(),
                                QDateTime::currentMSecsSinceEpoch(), outcome.librarySets);
        after = history::snapshotOf(scanReport);
        reportOptions.afterSource = "scan of " + after->server.address;
        if (!snapshotPath.isEmpty()) {
            if (const QString failed = history::writeSnapshotFile(snapshotPath, *after); !failed.isEmpty()) {
                writeStderr("keylens-cli: " + failed.toUtf8() + '\n');
                return ExitFailure;
            }
        }
    }

    const history::SnapshotDiff diff = history::diffSnapshots(*before, *after, options);
    const QByteArray document = format == QLatin1String("json") ? history::diffToJson(diff, reportOptions)
                                                                : history::diffToText(diff, reportOptions);
    if (QString failed; !writeReport(outputPath, document, &failed))
        return writeFailed(failed);
    if (scanError) { // as scan: the partial comparison is written, and the exit says the scan did not finish
        writeStderr("keylens-cli: the scan stopped early: " + scanError->toUtf8() + '\n');
        return ExitFailure;
    }
    if (reportOptions.gate && !diff.memoryCompared) { // a CI gate that cannot look fails, it does not pass
        writeStderr("keylens-cli: --fail-on-growth cannot be checked: a scan did not measure every key's memory\n");
        return ExitFailure;
    }
    if (reportOptions.gate && !history::changesPastGate(diff, *reportOptions.gate).empty())
        return ExitFailure;
    return ExitOk;
}

} // namespace keylens::cli
