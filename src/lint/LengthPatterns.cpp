#include "lint/LengthPatterns.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "lint/KeyPattern.h"
#include "lint/KeyRules.h"

#include <algorithm>
#include <map>

namespace keylens::lint {

namespace {

using keyspace::NodeId;

struct Pattern
{
    std::vector<NodeId> nodes; // in node order
    std::uint64_t longest = 0;
    std::uint64_t excess = 0; // the bytes past the threshold, summed
    keyspace::MemoryFigure memory;
    Severity worst = Severity::Info;
};

} // namespace

FamilyFolding LengthPatterns::fold(const keyspace::Keyspace& store, const Profile& profile,
                                   const std::function<bool(NodeId)>& folded, const FamilyConventions::FoldedSink& sink)
{
    FamilyFolding out;
    const RuleInfo& rule = *findRule("key-length");
    if (!profile.isEnabled(rule))
        return out;
    const std::uint32_t bit = std::uint32_t(1) << ruleIndex(rule);
    const bool someIgnored = store.anyLintIgnored();
    std::map<QByteArray, Pattern> patterns; // ordered: so are the findings
    for (NodeId node = 1; node < store.nodeCount(); ++node) {
        if (!(store.findingRules(node) & bit) || !store.isKey(node) || (someIgnored && store.isLintIgnored(node)) ||
            (folded && folded(node)))
            continue;
        const QByteArray key = store.path(node);
        Pattern& pattern = patterns[patternOfKey(key, store.delimiters())];
        pattern.nodes.push_back(node);
        const auto length = std::uint64_t(key.size());
        pattern.longest = std::max(pattern.longest, length);
        pattern.excess += length > profile.keyLengthInfo ? length - profile.keyLengthInfo : 0;
        const keyspace::KeyInfo info = store.keyInfo(node);
        ++pattern.memory.keys;
        if (info.memoryMeasured)
            pattern.memory.bytes += info.memoryBytes;
        else
            ++pattern.memory.unmeasured;
        pattern.worst = std::max(pattern.worst,
                                 profile.severityOf(rule, keyLengthSeverity(length, profile).value_or(rule.severity)));
    }
    for (auto& [text, pattern] : patterns) {
        if (pattern.nodes.size() < MinimumKeys)
            continue;
        for (const NodeId node : pattern.nodes) {
            const std::uint64_t length = store.pathLength(node);
            sink({node, std::uint8_t(ruleIndex(rule)),
                  std::uint8_t(profile.severityOf(rule, keyLengthSeverity(length, profile).value_or(rule.severity)))});
        }
        const std::uint64_t keys = pattern.nodes.size();
        QByteArray detail = keyspace::escapeLikeRedisCli(text) + ": " + keyspace::formatCount(keys) +
                            " keys longer than " + QByteArray::number(profile.keyLengthInfo) + " bytes, up to " +
                            QByteArray::number(qulonglong(pattern.longest)) + " bytes; cut to " +
                            QByteArray::number(profile.keyLengthInfo) + " bytes, their names would take " +
                            keyspace::formatBytes(pattern.excess) + " less";
        if (pattern.memory.known() && pattern.memory.bytes > 0)
            detail += " (their memory: " + keyspace::formatMemory(pattern.memory) + ")";
        out.findings.push_back({pattern.nodes.front(), &rule, pattern.worst, detail, keys, pattern.memory});
        out.foldedLengthPatterns.push_back(text);
    }
    return out; // the map's order: foldedLengthPatterns is sorted
}

} // namespace keylens::lint
