#include "lint/FindingEvidence.h"

#include <cctype>

namespace keylens::lint {

namespace {

// Where a rule looks, for its findings that carry no evidence of their own.
const char* lookedAt(QByteArrayView rule)
{
    if (rule == "big-string" || rule == "big-collection" || rule == "unbounded-history")
        return "size";
    if (rule == "expiry-avalanche" || rule == "timestamp-in-key")
        return rule == "timestamp-in-key" ? "name" : "expiry";
    if (rule == "cold-data")
        return "access";
    if (rule == "naming-variants" || rule == "synonym-siblings" || rule == "data-in-key" || rule == "env-prefixes" ||
        rule == "version-prefixes")
        return "siblings";
    return "name";
}

} // namespace

QByteArrayList evidenceOf(const Finding& finding)
{
    if (!finding.evidence.isEmpty())
        return finding.evidence;
    const QByteArrayView rule(finding.rule->id);
    if (rule == "missing-ttl") {
        // The key-level rule: the key sits in one of the profile's volatile namespaces (`cache:`), which its detail
        // names with its delimiter.
        QByteArray word = finding.detail;
        if (!word.isEmpty() && !std::isalnum(static_cast<unsigned char>(word.back())))
            word.chop(1);
        return {"word: " + word};
    }
    // A rule that needs no detail (an empty segment) points at the key itself, cut short.
    constexpr qsizetype Shown = 80;
    const QByteArray what = !finding.detail.isEmpty()     ? finding.detail
                            : finding.key.size() <= Shown ? finding.key
                                                          : QByteArray(finding.key.first(Shown) + "…");
    return {QByteArray(lookedAt(rule)) + ": " + what};
}

} // namespace keylens::lint
