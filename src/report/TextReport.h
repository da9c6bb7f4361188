#pragma once

#include "report/ScanReport.h"

#include <QByteArray>

namespace keylens::report {

// The human-readable report: a header about the server and the scan, a namespace table nested to
// --depth and sorted by memory, and the biggest keys. UTF-8, for a terminal or a file.
QByteArray toText(const ScanReport& report);

// Which memory figures the server scaled up from 5 elements (MEMORY USAGE's default sampling of big collections), with
// the way to measure them whole, and what --exact-memory measured whole: a line each, empty when neither. The scan's
// and the lint's text reports say it.
QByteArray memorySamplingLines(const scan::ScanSummary& summary, const keyspace::NamespaceStats& totals);

} // namespace keylens::report
