#pragma once

#include "lint/Linter.h"
#include "scan/ScanTypes.h"

#include <QByteArray>
#include <QString>

namespace keylens::report {

// What `keylens-cli lint` reports: the profile, the scan behind it and the linter's findings.
struct LintReport
{
    QString profile;
    char delimiter = ':';
    scan::ScanSummary summary;
    const lint::Linter* linter = nullptr;
};

// The `keylens-cli lint --format json` document, schema 1: tool, schema, profile, keys_scanned, summary
// {findings, by_severity, by_rule}, findings [{rule, severity, key, namespace, message, fix}]. Field names
// are an interface.
QByteArray lintToJson(const LintReport& report);

// A table of rules with their counts, then each rule's rationale, fix and examples; fits 80 columns.
QByteArray lintToText(const LintReport& report);

} // namespace keylens::report
