#include "cli/CommandLine.h"

#include "cli/ExitCode.h"
#include "cli/InterruptWatcher.h"
#include "cli/Output.h"
#include "cli/PasswordPrompt.h"
#include "cli/ReportFile.h"
#include "keyspace/KeyPath.h"
#include "keyspace/Units.h"
#include "redis/ClusterRoutes.h"
#include "redis/ConnectionArguments.h"
#include "report/JsonReport.h"
#include "report/TextReport.h"
#include "scan/RdbFileScan.h"
#include "usage/OptionValues.h"

#include <QDateTime>
#include <QProcessEnvironment>

#include <limits>

namespace keylens::cli {

bool readWholeNumber(const QCommandLineParser& parser, const QString& name, int minimum, int* value, QString* problem,
                     int maximum)
{
    if (!parser.isSet(name))
        return true;
    bool ok = false;
    const int parsed = parser.value(name).toInt(&ok);
    if (!ok || parsed < minimum || parsed > maximum) {
        *problem = maximum == std::numeric_limits<int>::max()
                       ? QStringLiteral("--%1 takes a whole number of at least %2, not '%3'")
                             .arg(name)
                             .arg(minimum)
                             .arg(parser.value(name))
                       : QStringLiteral("--%1 takes a whole number from %2 to %3, not '%4'")
                             .arg(name)
                             .arg(minimum)
                             .arg(maximum)
                             .arg(parser.value(name));
        return false;
    }
    *value = parsed;
    return true;
}

usage::Argument uriArgument()
{
    return {QStringLiteral("uri"),
            QStringLiteral("The server: redis://[user[:password]@]host[:port][/db], rediss://… (TLS) or "
                           "unix:///path/redis.sock[?db=N]. Default: $REDIS_URL, else 127.0.0.1:6379."),
            QStringLiteral("[URI]")};
}

usage::OptionGroup connectionGroup()
{
    return {QStringLiteral("Connection options"), redis::connectionOptions()};
}

usage::OptionGroup scanGroup()
{
    return {QStringLiteral("Scan options"), scanOptions()};
}

usage::OptionGroup reportGroup()
{
    return {QStringLiteral("Report options"), reportOptions()};
}

QHash<QString, QStringList> scanChoices()
{
    return {{QStringLiteral("speed"), {QStringLiteral("full"), QStringLiteral("gentle")}},
            {QStringLiteral("type"),
             {QStringLiteral("string"), QStringLiteral("hash"), QStringLiteral("list"), QStringLiteral("set"),
              QStringLiteral("zset"), QStringLiteral("stream")}},
            {QStringLiteral("format"), {QStringLiteral("text"), QStringLiteral("json")}}};
}

QList<QCommandLineOption> scanOptions()
{
    return {
        {QStringLiteral("delimiter"),
         QStringLiteral("Namespace delimiters: one byte or several (':/' splits on both; \\t, \\xHH for those hard "
                        "to type; default ':')."),
         QStringLiteral("byte")},
        {QStringLiteral("match"), QStringLiteral("Only keys matching this glob (SCAN MATCH)."), QStringLiteral("glob")},
        {QStringLiteral("type"),
         QStringLiteral("Only keys of this type (SCAN TYPE: string, hash, list, set, zset, stream)."),
         QStringLiteral("type")},
        {QStringLiteral("count"), QStringLiteral("Keys per SCAN call (default 1000 at full speed, 100 gentle)."),
         QStringLiteral("n")},
        {QStringLiteral("speed"),
         QStringLiteral("full (as fast as the server answers) or gentle (small rounds, one at a time, resting longer "
                        "when the server slows). Default: full on loopback and Unix sockets, gentle elsewhere."),
         QStringLiteral("full|gentle")},
        {QStringLiteral("no-memory"), QStringLiteral("Do not ask MEMORY USAGE (faster; memory columns show n/a).")},
        {QStringLiteral("exact-memory"),
         QStringLiteral("Measure big collections whole (MEMORY USAGE … SAMPLES 0) instead of the server's estimate "
                        "from 5 elements, up to --exact-memory-cap elements; bigger ones stay estimated and counted.")},
        {QStringLiteral("exact-memory-cap"),
         QStringLiteral("With --exact-memory: the most elements a collection measured whole may have (default "
                        "%1; each costs the server about 15 ns).")
             .arg(QString::fromUtf8(keyspace::formatCount(scan::DefaultExactMemoryCap))),
         QStringLiteral("n")},
        {QStringLiteral("access"),
         QStringLiteral("Ask each key's idle time (OBJECT IDLETIME, or FREQ under an LFU policy): idle percentiles and "
                        "cold memory per namespace. A fourth command per key: about a fifth more server time.")},
        {QStringLiteral("no-access"), QStringLiteral("Do not ask idle times (the default).")},
        {QStringLiteral("cold-after"),
         QStringLiteral("With --access (or --rdb): a key idle longer than this is cold: 90s, 12h, 7d, 1h30m "
                        "(default 7d)."),
         QStringLiteral("duration")},
        {QStringLiteral("max-rate"), QStringLiteral("At most this many keys per second, to spare a busy server."),
         QStringLiteral("keys/s")},
        {QStringLiteral("reconnect"),
         QStringLiteral("After a lost connection, a timeout or a busy server mid-scan, connect again up to N times and "
                        "resume (default 8; 0: stop at once)."),
         QStringLiteral("n")},
        {QStringList{QStringLiteral("c"), QStringLiteral("cluster")},
         QStringLiteral("Scan a Redis Cluster through this node: every shard at once (a server in cluster mode is "
                        "scanned so without it).")},
        {QStringLiteral("sample"),
         QStringLiteral("Measure memory on a uniform random sample of about N keys (names, types and TTLs for all), "
                        "and estimate each namespace's memory from it, with its error bound."),
         QStringLiteral("n")},
        {QStringLiteral("rdb"),
         QStringLiteral("Read this RDB file instead of a server ('-': standard input); no server is touched. Memory "
                        "is estimated from the file's encodings. -n picks its database."),
         QStringLiteral("file")},
        {QStringLiteral("ttl-from"),
         QStringLiteral("With --rdb: TTLs as they were when the file was saved (saved, the default) or as they are "
                        "now (now). Keys expired by then are counted apart."),
         QStringLiteral("saved|now")},
        {QStringLiteral("from-replicas"),
         QStringLiteral("Cluster: scan a healthy replica of each shard instead of its primary, to keep the load off "
                        "the primaries.")},
    };
}

QList<QCommandLineOption> reportOptions()
{
    return {
        {QStringLiteral("depth"),
         QStringLiteral("Namespace levels to list (default 2, at most %1).").arg(report::MaxDepth),
         QStringLiteral("n")},
        {QStringLiteral("width"),
         QStringLiteral("Namespaces per level before the rest are summed (default 50 for json, 10 for text)."),
         QStringLiteral("n")},
        {QStringLiteral("top"), QStringLiteral("Biggest keys to list (default 20)."), QStringLiteral("n")},
        {QStringLiteral("patterns"),
         QStringLiteral("List the key patterns, ids folded (user:<int>:profile), biggest first: every key in one.")},
        {QStringLiteral("format"), QStringLiteral("text or json (default text)."), QStringLiteral("format")},
        {QStringLiteral("output"), QStringLiteral("Write the report to this file instead of stdout."),
         QStringLiteral("file")},
    };
}

QCommandLineOption noCatalogueOption()
{
    return {QStringLiteral("no-catalogue"),
            QStringLiteral("Name no library (BullMQ, Sidekiq, Django…) from the catalogue of known layouts: what keys "
                           "are for (cache, session, lock, queue) comes from their own evidence alone.")};
}

bool catalogueWanted(const QCommandLineParser& parser)
{
    return !parser.isSet(QStringLiteral("no-catalogue"));
}

bool readDelimiterOption(const QCommandLineParser& parser, keyspace::Delimiters* delimiters, QString* problem)
{
    if (!parser.isSet(QStringLiteral("delimiter")))
        return true;
    const std::optional<keyspace::Delimiters> parsed =
        keyspace::Delimiters::parse(parser.value(QStringLiteral("delimiter")).toUtf8());
    if (!parsed) {
        *problem = QStringLiteral("--delimiter takes bytes to split keys on, each once (':', ':/', \\t, \\xHH), "
                                  "not '%1'")
                       .arg(parser.value(QStringLiteral("delimiter")));
        return false;
    }
    *delimiters = *parsed;
    return true;
}

bool readScanOptions(const QCommandLineParser& parser, scan::ScanOptions* options, keyspace::Delimiters* delimiters,
                     QString* problem, ScanSources sources)
{
    if (!readDelimiterOption(parser, delimiters, problem))
        return false;
    options->match = parser.value(QStringLiteral("match")).toUtf8();
    options->type = parser.value(QStringLiteral("type")).toUtf8();
    options->measureMemory = !parser.isSet(QStringLiteral("no-memory"));
    options->exactMemory = parser.isSet(QStringLiteral("exact-memory"));
    if (options->exactMemory && !options->measureMemory) {
        *problem = QStringLiteral("--exact-memory and --no-memory contradict each other: give one");
        return false;
    }
    if (parser.isSet(QStringLiteral("exact-memory-cap"))) {
        if (!options->exactMemory) {
            *problem = QStringLiteral("--exact-memory-cap needs --exact-memory: it caps the collections measured "
                                      "whole, and without --exact-memory none is");
            return false;
        }
        const std::optional<std::uint64_t> cap = usage::parseCount(parser.value(QStringLiteral("exact-memory-cap")));
        if (!cap) {
            *problem = QStringLiteral("--exact-memory-cap takes a number of elements of at least 1, not '%1'")
                           .arg(parser.value(QStringLiteral("exact-memory-cap")));
            return false;
        }
        options->exactMemoryCap = *cap;
    }
    if (parser.isSet(QStringLiteral("access")) && parser.isSet(QStringLiteral("no-access"))) {
        *problem = QStringLiteral("--access and --no-access contradict each other: give one");
        return false;
    }
    options->measureAccess = parser.isSet(QStringLiteral("access"));
    if (parser.isSet(QStringLiteral("cold-after"))) {
        const std::optional<std::int64_t> seconds =
            usage::parseWholeSeconds(parser.value(QStringLiteral("cold-after")).toUtf8());
        if (!seconds) {
            *problem = QStringLiteral("--cold-after takes a duration of at least a second (90s, 12h, 7d), not '%1'")
                           .arg(parser.value(QStringLiteral("cold-after")));
            return false;
        }
        options->coldAfterSeconds = *seconds;
    }
    options->rdbFile = parser.value(QStringLiteral("rdb"));
    if (parser.isSet(QStringLiteral("ttl-from"))) {
        const std::optional<bool> fromSave = usage::parseTtlFromSave(parser.value(QStringLiteral("ttl-from")));
        if (options->rdbFile.isEmpty() || !fromSave) {
            *problem = QStringLiteral("--ttl-from takes saved or now, with --rdb");
            return false;
        }
        options->ttlFromSave = *fromSave;
    }
    if (!options->rdbFile.isEmpty() && !sources.rdbFile) {
        *problem = QStringLiteral("--rdb does not apply here: this command works on a server");
        return false;
    }
    if (!options->rdbFile.isEmpty()) {
        options->fileAccess = !parser.isSet(QStringLiteral("no-access"));
        if (parser.isSet(QStringLiteral("cold-after")) && !options->fileAccess) {
            *problem = QStringLiteral("--cold-after does not go with --no-access: without idle times no key is "
                                      "called cold");
            return false;
        }
        // What a file cannot honour is refused, never ignored: these ask how hard to lean on a server, or which
        // server to read, and a file has none.
        // --exact-memory asks the server again; a file's memory is modelled from its encodings, never sampled.
        for (const char* name :
             {"count", "speed", "max-rate", "reconnect", "cluster", "from-replicas", "sample", "exact-memory"}) {
            if (parser.isSet(QLatin1String(name))) {
                *problem = QStringLiteral("--%1 does not apply to an RDB file (--rdb): it reads no server")
                               .arg(QLatin1String(name));
                return false;
            }
        }
        if (redis::anyConnectionFlagGiven(parser, /*databaseToo=*/false) ||
            parser.positionalArguments().size() > sources.uriPosition) {
            *problem = QStringLiteral("--rdb reads a file instead of a server: -n picks its database, and no URI or "
                                      "other connection flag goes with it");
            return false;
        }
    }
    // A file holds its keys' idle times (read unless --no-access); a server is asked them only with --access.
    if (options->rdbFile.isEmpty() && parser.isSet(QStringLiteral("cold-after")) && !options->measureAccess) {
        *problem = QStringLiteral("--cold-after needs --access: without idle times no key is called cold");
        return false;
    }
    options->cluster = parser.isSet(QStringLiteral("cluster"));
    options->fromReplicas = parser.isSet(QStringLiteral("from-replicas"));
    if (parser.isSet(QStringLiteral("sample"))) {
        const std::optional<std::uint64_t> sample = usage::parseCount(parser.value(QStringLiteral("sample")));
        if (!sample) {
            *problem = QStringLiteral("--sample takes a number of keys of at least 1, not '%1'")
                           .arg(parser.value(QStringLiteral("sample")));
            return false;
        }
        options->sampleSize = *sample;
    }
    if (!readWholeNumber(parser, QStringLiteral("count"), 1, &options->count, problem) ||
        !readWholeNumber(parser, QStringLiteral("reconnect"), 0, &options->reconnectAttempts, problem, 1000))
        return false;
    // After the connection: the default depends on where the server is.
    options->speed = scan::defaultSpeedFor(options->connection);
    if (parser.isSet(QStringLiteral("speed"))) {
        const std::optional<scan::ScanSpeed> speed = scan::parseSpeed(parser.value(QStringLiteral("speed")));
        if (!speed) {
            *problem =
                QStringLiteral("--speed takes full or gentle, not '%1'").arg(parser.value(QStringLiteral("speed")));
            return false;
        }
        options->speed = *speed;
    }
    if (parser.isSet(QStringLiteral("max-rate"))) {
        const std::optional<double> rate = usage::parseRate(parser.value(QStringLiteral("max-rate")));
        if (!rate) {
            *problem = QStringLiteral("--max-rate takes keys per second, not '%1'")
                           .arg(parser.value(QStringLiteral("max-rate")));
            return false;
        }
        options->maxKeysPerSecond = *rate;
    }
    return true;
}

bool readReportRequest(const QCommandLineParser& parser, ReportRequest* request, QString* problem)
{
    if (!readWholeNumber(parser, QStringLiteral("depth"), 0, &request->options.depth, problem, report::MaxDepth) ||
        !readWholeNumber(parser, QStringLiteral("width"), 0, &request->options.width, problem) ||
        !readWholeNumber(parser, QStringLiteral("top"), 0, &request->options.top, problem))
        return false;
    request->options.patterns = parser.isSet(QStringLiteral("patterns"));
    const QString format = parser.value(QStringLiteral("format"));
    if (!format.isEmpty() && format != QLatin1String("text") && format != QLatin1String("json")) {
        *problem = QStringLiteral("--format takes text or json, not '%1'").arg(format);
        return false;
    }
    request->json = format == QLatin1String("json");
    // A table of 50 x 50 rows is not readable; JSON consumers get the wider default the schema promises.
    if (!request->json && !parser.isSet(QStringLiteral("width")))
        request->options.width = 10;
    request->outputPath = parser.value(QStringLiteral("output"));
    // Found out now, not after minutes of scanning.
    *problem = checkReportDestination(request->outputPath);
    return problem->isEmpty();
}

std::optional<int> parseCommandLine(QCommandLineParser& parser, const QStringList& arguments, const QString& command)
{
    const QCommandLineOption help = usage::commandHelpOption();
    parser.addOption(help);
    if (!parser.parse(arguments))
        return usageError(parser.errorText());
    if (parser.isSet(help))
        return printRequested(
            parser.helpText().replace(QStringLiteral("[options]"), command + QStringLiteral(" [options]")).toUtf8(),
            QStringLiteral("the help"));
    return std::nullopt;
}

std::optional<int> readConnection(const QCommandLineParser& parser, const QString& command,
                                  redis::ConnectionOptions* connection, int uriPosition)
{
    if (const QString warning = redis::hidePasswordsGivenOnCommandLine(parser); !warning.isEmpty())
        writeStderr("keylens-cli: " + warning.toUtf8() + '\n');
    if (parser.positionalArguments().size() > uriPosition + 1)
        return usageError(QStringLiteral("%1 takes at most one URI").arg(command));
    redis::Result<redis::ConnectionOptions> resolved =
        redis::connectionOptionsFrom(parser, parser.positionalArguments().value(uriPosition),
                                     QProcessEnvironment::systemEnvironment(), askPasswordOnTerminal);
    if (!resolved)
        return usageError(resolved.error().message);
    *connection = *resolved;
    // On a cluster, reads and edits go to the node serving each key's slot (the routes learn on first use).
    connection->cluster = std::make_shared<redis::ClusterRoutes>();
    return std::nullopt;
}

std::optional<int> printActionSummary(const QString& summary, bool cancelled, bool progressDrawn)
{
    if (progressDrawn)
        writeStderr("\r\x1b[K");
    // The action is done whatever happens to its summary; a summary that went nowhere is said (on /dev/full), or
    // ends quietly with 141 when the reader went away (`| head`), as every other output does.
    if (QString problem; !writeToStandardOutput(summary.toUtf8() + '\n', QStringLiteral("the summary"), &problem))
        return writeFailed(problem);
    if (cancelled)
        return interruptedExitCode();
    return std::nullopt;
}

int printRequested(const QByteArray& text, const QString& what)
{
    if (QString problem; !writeToStandardOutput(text, what, &problem))
        return writeFailed(problem);
    return ExitOk;
}

namespace {
QString currentCommand;
}

void setCurrentCommand(const QString& command)
{
    currentCommand = command;
}

int usageError(const QString& problem)
{
    const QByteArray help = currentCommand.isEmpty() ? QByteArray("keylens-cli --help")
                                                     : "keylens-cli " + currentCommand.toUtf8() + " --help";
    writeStderr("keylens-cli: " + problem.toUtf8() + "\nTry '" + help + "'.\n");
    return ExitUsage;
}

std::optional<int> refuseWhenNothingWasRead(const ScanOutcome& outcome)
{
    // Failing before a single SCAN reply (a refused connection, MASTERDOWN, a database out of range, a
    // denied SCAN) leaves nothing to report: a connection error, with nothing on stdout. Exit 1 is kept
    // for a scan that stopped midway, and always comes with the partial report.
    const scan::ScanSummary& summary = outcome.summary;
    if (!summary.error || summary.scanCalls > 0)
        return std::nullopt;
    writeStderr("keylens-cli: " + summary.error->message.toUtf8() + '\n');
    // A flag that names a file that is no certificate, or an RDB file that is none, is the user's to fix (2), not
    // the server's (3).
    return summary.error->kind == redis::ErrorKind::Usage || !summary.rdbFile.isEmpty() ? ExitUsage : ExitConnection;
}

int deliverReport(const ScanOutcome& outcome, const QString& outputPath, const QByteArray& document)
{
    if (QString problem; !writeReport(outputPath, document, &problem))
        return writeFailed(problem);
    if (outcome.interrupted)
        return interruptedExitCode();
    if (outcome.summary.error && !outcome.summary.rdbFile.isEmpty()) {
        // A damaged file is the input's fault, as a bad flag is: the report above shows what came before it.
        writeStderr("keylens-cli: " + outcome.summary.error->message.toUtf8() +
                    "; the report shows the keys before it, marked partial\n");
        return ExitUsage;
    }
    if (outcome.summary.error) {
        writeStderr("keylens-cli: the scan stopped early: " + outcome.summary.error->message.toUtf8() + '\n');
        return ExitFailure;
    }
    return ExitOk;
}

int finishScan(const ScanOutcome& outcome, const keyspace::Keyspace& keyspace, const ReportRequest& request)
{
    if (const std::optional<int> refused = refuseWhenNothingWasRead(outcome))
        return *refused;
    const report::ScanReport scanReport =
        report::buildReport(keyspace, outcome.summary, outcome.duplicates, request.options,
                            QDateTime::currentMSecsSinceEpoch(), outcome.librarySets);
    const QByteArray document = request.json ? report::toJson(scanReport) : report::toText(scanReport);
    return deliverReport(outcome, request.outputPath, document);
}

} // namespace keylens::cli
