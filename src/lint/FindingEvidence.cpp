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

QByteArrayView fixOf(const Finding& finding)
{
    // An index that a TTL of its own would drop before the entries it lists (under a volatile-* eviction policy too:
    // a library may keep it without one on purpose, so that the entries are evicted first).
    if (QByteArrayView(finding.rule->id) == "missing-ttl" && !finding.evidence.isEmpty() &&
        finding.evidence.front().startsWith("index: "))
        return "Prune the members whose keys are gone (SSCAN, EXISTS, SREM; a sorted set scored by expiry: "
               "ZREMRANGEBYSCORE), or give the index a TTL at least as long as its members' and renew it on each add. "
               "Where a library keeps it without a TTL on purpose (so that a volatile-* eviction policy evicts the "
               "entries before the index), prune it: a TTL would let it go before the entries it lists.";
    return finding.rule->fix;
}

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
