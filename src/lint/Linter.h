#pragma once

#include "keyspace/Keyspace.h"
#include "lint/KeyRules.h"

#include <QByteArray>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace keylens::lint {

struct Finding
{
    const RuleInfo* rule;
    Severity severity;
    QByteArray key;
    QByteArray detail;
};

// One rule's findings over a keyspace: exact counts, and the first examples.
struct RuleSummary
{
    const RuleInfo* rule = nullptr;
    std::uint64_t findings = 0;
    std::array<std::uint64_t, 3> bySeverity{}; // indexed by Severity
    std::vector<Finding> examples;
};

// Lints a store: every key through the key-level rules, and the keys that need their namespace's
// aggregates (a stray persistent key among expiring ones) through those. One finding per key and rule.
class Linter
{
public:
    // maxExamples 0 keeps every finding.
    Linter(KeyRuleSettings settings, std::size_t maxExamples);

    void lint(const keyspace::Keyspace& store);

    // In catalogue order, rules without findings left out.
    std::vector<RuleSummary> summaries() const;
    std::uint64_t findings() const;
    std::uint64_t findings(Severity severity) const;
    std::uint64_t keysLinted() const { return m_keys; }
    // The worst severity found, if any finding was.
    std::optional<Severity> worst() const;

private:
    void record(const KeyFinding& finding, QByteArrayView key);

    KeyRuleSettings m_settings;
    std::size_t m_maxExamples;
    std::vector<RuleSummary> m_byRule; // parallel to allRules()
    std::uint64_t m_keys = 0;
};

} // namespace keylens::lint
