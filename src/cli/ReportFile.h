#pragma once

#include <QByteArray>
#include <QString>

namespace keylens::cli {

// Where a report goes, checked before a scan starts: an empty path is stdout; a file must be creatable
// in an existing, writable folder (or be an existing writable device or pipe). Returns the problem, or
// an empty string.
QString checkReportDestination(const QString& path);

// Writes the whole report, or fails with a message: to stdout, to a device or pipe directly, and to a
// regular file through a temporary file in the same folder that replaces it only once complete, so a
// full disk leaves the old file (or none), never half a report.
bool writeReport(const QString& path, const QByteArray& document, QString* problem);

// Writes `bytes` to stdout; when it takes less than all of them (/dev/full), false with "cannot write <what> to
// standard output: <reason>" in `problem`; false with an empty `problem` when its reader went away (a closed pipe).
bool writeToStandardOutput(const QByteArray& bytes, const QString& what, QString* problem);

// The exit code of a command whose reader of standard output went away (`keylens-cli scan | head -1`): as a shell
// reports a process that SIGPIPE ended, 128 + 13.
inline constexpr int ExitReaderGone = 141;

// Whether the last failed write to standard output failed because its reader went away (EPIPE).
bool readerWentAway();

// After a failed writeReport or writeToStandardOutput: says so and returns ExitFailure; or, when the reader of standard
// output went away (a pipe it closed, `problem` empty), ends quietly as other Unix tools do, with ExitReaderGone.
int writeFailed(const QString& problem);

} // namespace keylens::cli
