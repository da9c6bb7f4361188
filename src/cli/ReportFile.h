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

// Writes `bytes` to stdout; when it takes less than all of them (/dev/full, a closed pipe), false with
// "cannot write <what> to standard output: <reason>" in `problem`.
bool writeToStandardOutput(const QByteArray& bytes, const QString& what, QString* problem);

} // namespace keylens::cli
