#pragma once

#include "report/ScanReport.h"

#include <QByteArray>

namespace keylens::report {

// The human-readable report: a header about the server and the scan, a namespace table nested to
// --depth and sorted by memory, and the biggest keys. UTF-8, for a terminal or a file.
QByteArray toText(const ScanReport& report);

} // namespace keylens::report
