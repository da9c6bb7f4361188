#pragma once

#include "cli/ScanJob.h"
#include "redis/ConnectionOptions.h"
#include "report/ScanReport.h"
#include "scan/ScanTypes.h"
#include "usage/Command.h"

#include <QCommandLineParser>

#include <limits>
#include <optional>

namespace keylens::cli {

// The pieces the commands' interfaces (usage::Command) are made of: the [URI] argument, the redis-cli
// connection flags, what to scan (scan, lint, demo and the bulk actions), and how to report it.
usage::Argument uriArgument();
usage::OptionGroup connectionGroup();
usage::OptionGroup scanGroup();
usage::OptionGroup reportGroup();
QList<QCommandLineOption> scanOptions();
QList<QCommandLineOption> reportOptions();
// The fixed values of the scan and report options, for the completions.
QHash<QString, QStringList> scanChoices();

struct ReportRequest
{
    report::ReportOptions options;
    bool json = false;
    QString outputPath; // empty: stdout
};

// An option's whole number, from `minimum` to `maximum`; left as it was when the option is not given.
// On a bad value, false with a message in `problem`.
bool readWholeNumber(const QCommandLineParser& parser, const QString& name, int minimum, int* value, QString* problem,
                     int maximum = std::numeric_limits<int>::max());

// Fill in from a parsed command line; on a bad value, return false with a message in `problem`. Set
// --delimiter, when given; false (with `problem`) when it is not a set of bytes.
bool readDelimiterOption(const QCommandLineParser& parser, keyspace::Delimiters* delimiters, QString* problem);
// Where a command's scan may read from: a server only (a bulk action writes to it, the demo scans its own), or an
// RDB file too (--rdb), with the URI that a file excludes as the positional argument `uriPosition`.
struct ScanSources
{
    bool rdbFile = true;
    int uriPosition = 0;
};
// options->connection first: the default --speed depends on where the server is. An option the source cannot honour
// is refused, named in `problem`.
bool readScanOptions(const QCommandLineParser& parser, scan::ScanOptions* options, keyspace::Delimiters* delimiters,
                     QString* problem, ScanSources sources = {});
bool readReportRequest(const QCommandLineParser& parser, ReportRequest* request, QString* problem);
// --no-catalogue (scan and lint): no library named, every role from the keys' own evidence.
QCommandLineOption noCatalogueOption();
bool catalogueWanted(const QCommandLineParser& parser);

// Adds --help, parses `arguments`, and deals with --help and parse errors itself: it then returns the
// exit code the command ends with; otherwise nothing, and the command goes on.
std::optional<int> parseCommandLine(QCommandLineParser& parser, const QStringList& arguments, const QString& command);

// The connection of a command that takes [URI] and the redis-cli flags: hides passwords in argv (with the
// warning), resolves URI, flags and environment. On a problem it prints it and returns the exit code.
// `uriPosition`: which positional argument is the URI (restore's FILE comes before it).
std::optional<int> readConnection(const QCommandLineParser& parser, const QString& command,
                                  redis::ConnectionOptions* connection, int uriPosition = 0);

// The end of an action that drew its progress on the terminal (delete, expire, rename, restore): clears the progress
// line, prints the summary on stdout, and returns ExitFailure when it could not be written (saying so), 141 when the
// reader went away, or ExitInterrupted after a Ctrl-C; nothing when the command goes on to its own exit code.
std::optional<int> printActionSummary(const QString& summary, bool cancelled, bool progressDrawn);

// Prints what --help or --version asked for (`what`: "the help") and returns ExitOk, or says it could not
// and returns ExitFailure: a help that went nowhere is no success.
int printRequested(const QByteArray& text, const QString& what);

// Prints a usage error the same way for every command, and returns ExitUsage.
int usageError(const QString& problem);
// The command being run ("scan"), which usageError's hint names: `Try 'keylens-cli scan --help'.`
void setCurrentCommand(const QString& command);

// A scan that failed before its first SCAN reply: the message on stderr, and ExitConnection. Nothing
// for a scan that read keys, which deserves its report.
std::optional<int> refuseWhenNothingWasRead(const ScanOutcome& outcome);

// Writes a report of a scan (to stdout, or `outputPath`), and returns the exit code the scan deserves:
// ExitFailure when the report could not be written or the scan stopped early, ExitInterrupted after a
// Ctrl-C, else ExitOk.
int deliverReport(const ScanOutcome& outcome, const QString& outputPath, const QByteArray& document);

// Writes the report of a finished scan and returns the exit code it deserves. A scan that never
// connected prints nothing on stdout and returns ExitConnection.
int finishScan(const ScanOutcome& outcome, const keyspace::Keyspace& keyspace, const ReportRequest& request);

} // namespace keylens::cli
