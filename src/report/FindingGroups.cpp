#include "report/FindingGroups.h"

#include "patterns/PatternTree.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace keylens::report {

FindingGroups::FindingGroups(const keyspace::Keyspace& store, const lint::LibraryLayouts& libraries)
    : m_store(&store)
    , m_tree(std::make_unique<patterns::PatternTree>(store))
{
    using PatternId = patterns::PatternTree::PatternId;
    const std::span<const lint::RuleInfo> rules = lint::allRules();
    // (rule, pattern) -> index in m_groups
    std::unordered_map<std::uint64_t, std::size_t> index;
    std::unordered_set<PatternId> withFindings;
    for (keyspace::NodeId node = 1; node < store.nodeCount(); ++node) {
        std::uint32_t bits = store.findingRules(node);
        if (bits == 0)
            continue;
        const PatternId pattern = m_tree->patternOf(node);
        withFindings.insert(pattern);
        const keyspace::KeyInfo info = store.isKey(node) ? store.keyInfo(node) : keyspace::KeyInfo{};
        for (std::size_t rule = 0; bits != 0 && rule < rules.size(); ++rule, bits >>= 1) {
            if (!(bits & 1))
                continue;
            const std::uint64_t key = std::uint64_t(rule) << 32 | pattern;
            auto it = index.find(key);
            if (it == index.end()) {
                FindingGroup group;
                group.rule = &rules[rule];
                group.pattern = m_tree->text(pattern);
                group.library = libraries.libraryOf(store, node);
                it = index.emplace(key, m_groups.size()).first;
                m_groups.push_back(std::move(group));
            }
            FindingGroup& group = m_groups[it->second];
            ++group.keys;
            ++group.memory.keys;
            if (store.isKey(node) && info.memoryMeasured)
                group.memory.bytes += info.memoryBytes;
            else
                ++group.memory.unmeasured;
        }
    }
    m_patternCount = withFindings.size();
    std::sort(m_groups.begin(), m_groups.end(), [&](const FindingGroup& a, const FindingGroup& b) {
        const std::size_t ruleA = lint::ruleIndex(*a.rule), ruleB = lint::ruleIndex(*b.rule);
        if (ruleA != ruleB)
            return ruleA < ruleB;
        return a.keys != b.keys ? a.keys > b.keys : a.pattern < b.pattern;
    });
}

FindingGroups::~FindingGroups() = default;
FindingGroups::FindingGroups(FindingGroups&&) noexcept = default;

QByteArray FindingGroups::patternOf(QByteArrayView key) const
{
    const keyspace::NodeId node = m_store->find(key);
    return node == keyspace::InvalidNode || node >= m_tree->foldedNodes() ? QByteArray()
                                                                          : m_tree->text(m_tree->patternOf(node));
}

} // namespace keylens::report
