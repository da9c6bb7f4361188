#pragma once

#include "report/ScanReport.h"

#include <QByteArray>

namespace keylens::report {

// The `keylens-cli scan --format json` document, schema 1. Field names are an interface: other tools
// read them, so add fields, never rename or remove one.
QByteArray toJson(const ScanReport& report);

} // namespace keylens::report
