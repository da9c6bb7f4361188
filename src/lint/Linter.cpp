#include "lint/Linter.h"

namespace keylens::lint {

Linter::Linter(KeyRuleSettings settings, std::size_t maxExamples)
    : m_settings(std::move(settings))
    , m_maxExamples(maxExamples)
{
    for (const RuleInfo& rule : allRules()) {
        RuleSummary summary;
        summary.rule = &rule;
        m_byRule.push_back(std::move(summary));
    }
}

void Linter::record(const KeyFinding& finding, QByteArrayView key)
{
    RuleSummary& summary = m_byRule[std::size_t(finding.rule - allRules().data())];
    ++summary.findings;
    ++summary.bySeverity[std::size_t(finding.severity)];
    if (m_maxExamples == 0 || summary.examples.size() < m_maxExamples)
        summary.examples.push_back({finding.rule, finding.severity, key.toByteArray(), finding.detail});
}

void Linter::lint(const keyspace::Keyspace& store)
{
    // Node ids follow insertion, and a node's path is rebuilt from its ancestors: one pass, no recursion.
    for (keyspace::NodeId node = 1; node < store.nodeCount(); ++node) {
        if (!store.isKey(node))
            continue;
        ++m_keys;
        const QByteArray key = store.path(node);
        const keyspace::KeyInfo info = store.keyInfo(node);
        const keyspace::NodeId parent = store.parent(node);
        const keyspace::NamespaceStats* siblings =
            parent == keyspace::Keyspace::root() ? nullptr : &store.stats(parent);
        const std::vector<KeyFinding> found = checkKey(key, info, m_settings, siblings);
        for (const KeyFinding& finding : found)
            record(finding, key);
    }
}

std::vector<RuleSummary> Linter::summaries() const
{
    std::vector<RuleSummary> out;
    for (const RuleSummary& summary : m_byRule) {
        if (summary.findings > 0)
            out.push_back(summary);
    }
    return out;
}

std::uint64_t Linter::findings() const
{
    std::uint64_t total = 0;
    for (const RuleSummary& summary : m_byRule)
        total += summary.findings;
    return total;
}

std::uint64_t Linter::findings(Severity severity) const
{
    std::uint64_t total = 0;
    for (const RuleSummary& summary : m_byRule)
        total += summary.bySeverity[std::size_t(severity)];
    return total;
}

std::optional<Severity> Linter::worst() const
{
    for (const Severity severity : {Severity::Error, Severity::Warning, Severity::Info}) {
        if (findings(severity) > 0)
            return severity;
    }
    return std::nullopt;
}

} // namespace keylens::lint
