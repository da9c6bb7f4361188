#pragma once

#include "lint/ValueSamples.h"
#include "scan/ScanTypes.h"

namespace keylens::judging {

// Where a lint's role evidence (lint/RoleEvidence.h) takes the first bytes of a few values per pattern from: an RDB
// file's, kept as it was read; or the server's, read once the scan is over on a connection of its own, in NO-TOUCH
// mode where the server has it (where it has not and the scan measured idle times, none is read and the lint says
// so). None after a scan that did not finish: a failed server would only time out again.
lint::ValueSource valueSourceFor(const scan::ScanOptions& options, const scan::ScanSummary& summary, bool finished);

} // namespace keylens::judging
