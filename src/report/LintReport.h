#pragma once

#include "lint/Linter.h"
#include "scan/ScanTypes.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace keylens::report {

// What `keylens-cli lint` reports: the scan behind it, the linter's findings (and its profile), and
// what could not be checked.
struct LintReport
{
    keyspace::Delimiters delimiter = ':'; // the store's
    scan::ScanSummary summary;
    const lint::Linter* linter = nullptr;
    // The store the linter judged: findings are grouped by the patterns of their keys (FindingGroups.h).
    const keyspace::Keyspace* keyspace = nullptr;
    QStringList notices; // besides the scan's and the linter's own
    // The severity from which a finding fails the run (JUnit marks those rules failed); none for `never`.
    std::optional<lint::Severity> failOn = lint::Severity::Error;
    // The store's segments classified as they arrived, if they were (lint/SegmentShapes.h): grouping reads them.
    const lint::SegmentShapes* segmentShapes = nullptr;

    // The scan's notices, the linter's and the report's own, in that order.
    QStringList allNotices() const;
};

enum class LintFormat { Text, Json, Sarif, JUnit };
std::optional<LintFormat> lintFormatFromName(const QString& name);
QByteArray formatLint(const LintReport& report, LintFormat format);

// The `keylens-cli lint --format json` document, schema 1: tool, schema, profile, keys_scanned, summary
// {findings, by_severity, by_rule, patterns, groups}, findings [{rule, severity, key, namespace, pattern, message,
// fix, evidence: [what it rests on, short strings]}], groups [{rule, pattern, keys, memory_bytes, memory_lower_bound,
// library}] (every finding of a rule on the keys of one pattern). Field names are an interface.
QByteArray lintToJson(const LintReport& report);

// A table of rules with their counts, then each rule's rationale, fix, the patterns it found keys in (most keys
// first) and a few example keys; fits 80 columns.
QByteArray lintToText(const LintReport& report);

// SARIF 2.1.0: one run, the rules as the driver's reportingDescriptors, one result per listed finding
// with its key as a logical location (kind "resource", binary keys escaped; exact bytes in the result's
// properties.key_base64).
QByteArray lintToSarif(const LintReport& report);

// JUnit XML: one test suite, one test case per rule of the profile. A rule fails when it found keys at
// or above `failOn`; a disabled rule is skipped; findings below `failOn` are listed in system-out.
QByteArray lintToJUnit(const LintReport& report);

// The text a finding is reported with: the rule's rationale and the finding's detail.
QByteArray findingMessage(const lint::Finding& finding);
// The namespace a finding's key sits in: everything up to its last delimiter (any of the set), delimiter included.
QByteArrayView findingNamespace(QByteArrayView key, const keyspace::Delimiters& delimiters);

} // namespace keylens::report
