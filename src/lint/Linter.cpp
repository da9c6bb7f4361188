#include "lint/Linter.h"

#include "lint/NamespaceRules.h"
#include "lint/OverlayRules.h"

namespace keylens::lint {

Linter::Linter(Profile profile, std::size_t maxExamples)
    : m_profile(std::move(profile))
    , m_maxExamples(maxExamples)
{
    for (const RuleInfo& rule : allRules()) {
        RuleSummary summary;
        summary.rule = &rule;
        m_byRule.push_back(std::move(summary));
    }
}

Linter::~Linter() = default;

void Linter::record(keyspace::Keyspace& store, keyspace::NodeId node, const RuleInfo& rule, Severity severity,
                    QByteArrayView detail, QByteArrayView key)
{
    const std::size_t index = ruleIndex(rule);
    if (!m_profile.rules[index].enabled || store.isLintIgnored(node) || (store.findingRules(node) >> index & 1))
        return;
    severity = m_profile.severityOf(rule, severity);
    store.addFinding(node, unsigned(index), unsigned(severity));
    RuleSummary& summary = m_byRule[index];
    ++summary.findings;
    ++summary.bySeverity[std::size_t(severity)];
    if (m_maxExamples == 0 || summary.examples.size() < m_maxExamples)
        summary.examples.push_back(
            {&rule, severity, key.isNull() ? store.path(node) : key.toByteArray(), detail.toByteArray()});
}

void Linter::keyAdded(keyspace::Keyspace& store, keyspace::NodeId node, QByteArrayView key,
                      const keyspace::KeyInfo& info)
{
    ++m_keys;
    if (m_profile.isIgnored(key)) {
        store.setLintIgnored(node);
        return;
    }
    for (const KeyFinding& finding : checkKey(key, info, m_profile))
        record(store, node, *finding.rule, finding.severity, finding.detail, key);
}

void Linter::lintKeys(keyspace::Keyspace& store)
{
    for (keyspace::NodeId node = 1; node < store.nodeCount(); ++node) {
        if (store.isKey(node))
            keyAdded(store, node, store.path(node), store.keyInfo(node));
    }
}

void Linter::finish(keyspace::Keyspace& store)
{
    if (m_finished)
        return;
    m_finished = true;
    NamespaceRules rules(m_profile);
    rules.run(store, [&](keyspace::NodeId node, const RuleInfo& rule, Severity severity, QByteArrayView detail) {
        record(store, node, rule, severity, detail);
    });
    m_notices = rules.notices();
}

Judgement Linter::judge(const keyspace::Keyspace& store) const
{
    Judgement judgement;
    NamespaceRules rules(m_profile);
    rules.run(store, [&](keyspace::NodeId node, const RuleInfo& rule, Severity severity, QByteArrayView detail) {
        // The rules hand out one detail for a whole group of keys in a row: kept once.
        if (judgement.details.empty() || judgement.details.back() != detail)
            judgement.details.push_back(detail.toByteArray());
        judgement.verdicts.push_back({node, std::uint32_t(judgement.details.size() - 1), &rule, severity});
    });
    judgement.notices = rules.notices();
    return judgement;
}

bool Linter::apply(keyspace::Keyspace& store, Judgement& judgement, std::size_t count)
{
    const std::size_t end = std::min(judgement.verdicts.size(), judgement.applied + count);
    for (; judgement.applied < end; ++judgement.applied) {
        const Judgement::Verdict& verdict = judgement.verdicts[judgement.applied];
        record(store, verdict.node, *verdict.rule, verdict.severity, judgement.details[verdict.detail]);
    }
    if (judgement.applied < judgement.verdicts.size())
        return false;
    m_finished = true;
    m_notices = judgement.notices;
    return true;
}

void Linter::lengthKnown(keyspace::Keyspace& store, keyspace::NodeId node, std::uint64_t length)
{
    const keyspace::KeyType type = store.keyInfo(node).type;
    if (!isBigKey(type, length))
        return;
    const bool string = type == keyspace::KeyType::String;
    const RuleInfo& rule = *findRule(string ? "big-string" : "big-collection");
    record(store, node, rule, rule.severity,
           QByteArray(QByteArray::number(qulonglong(length)) + (string ? " bytes" : " elements")));
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
