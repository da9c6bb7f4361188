#include "report/FindingGroups.h"

#include "base/SideTask.h"
#include "lint/AddressGroups.h"
#include "lint/Characters.h"
#include "lint/SegmentShape.h"
#include "patterns/SplitAddresses.h"

#include <QHash>
#include <QSet>

#include <algorithm>

namespace keylens::report {

FindingGroups::FindingGroups(const keyspace::Keyspace& store, const lint::LibraryLayouts& libraries,
                             const lint::SegmentShapes* shapes, const std::vector<lint::CoveredFinding>& covered)
    : FindingGroups(store, libraries, Stepwise{}, covered)
{
    m_shapes = shapes;
    const auto end = keyspace::NodeId(store.nodeCount());
    // The nodes in two halves, each grouped on its own thread with its own folding caches, then merged by pattern
    // text: a million findings took a tenth of a second on one core, after the scan, with the second one idle.
    constexpr keyspace::NodeId Halved = 100'000;
    if (end < Halved) {
        step(end);
        return;
    }
    FindingGroups second(store, libraries, Stepwise{}, covered);
    second.m_shapes = shapes;
    second.m_next = end / 2;
    {
        base::SideTask groupingSecond([&] { second.group(end); });
        group(end / 2);
    }
    m_next = end;
    mergeGroups(second.m_groups);
    conclude();
}

FindingGroups::FindingGroups(const keyspace::Keyspace& store, const lint::LibraryLayouts& libraries, Stepwise,
                             const std::vector<lint::CoveredFinding>& covered)
    : m_store(&store)
    , m_libraries(libraries)
    , m_patternLinks(1) // RootPattern: the empty text
    , m_namespacePattern(store.namespaceCount(), Unknown)
{
    m_placeholderLabel.fill(Unknown);
    for (const lint::CoveredFinding& finding : covered)
        m_covered[std::uint64_t(finding.node) << 8 | finding.rule] = {finding.keys, finding.memory};
}

bool FindingGroups::step(std::size_t nodes)
{
    group(keyspace::NodeId(std::min<std::size_t>(m_store->nodeCount(), m_next + nodes)));
    if (m_next < m_store->nodeCount())
        return false;
    conclude();
    return true;
}

void FindingGroups::group(keyspace::NodeId end)
{
    const keyspace::Keyspace& store = *m_store;
    const std::span<const lint::RuleInfo> rules = lint::allRules();
    if (m_namespacePattern.size() < store.namespaceCount()) // keys added by edits since the start
        m_namespacePattern.resize(store.namespaceCount(), Unknown);
    for (; m_next < end; ++m_next) {
        const keyspace::NodeId node = m_next;
        std::uint32_t bits = store.findingRules(node);
        if (bits == 0)
            continue;
        const std::uint32_t pattern = patternIdOf(node);
        const keyspace::KeyInfo info = store.isKey(node) ? store.keyInfo(node) : keyspace::KeyInfo{};
        for (std::size_t rule = 0; bits != 0 && rule < rules.size(); ++rule, bits >>= 1) {
            if (!(bits & 1))
                continue;
            const std::uint64_t key = std::uint64_t(rule) << 32 | pattern;
            auto it = m_groupIndex.find(key);
            if (it == m_groupIndex.end()) {
                FindingGroup group;
                group.rule = &rules[rule];
                group.pattern = patternText(pattern);
                group.library = m_libraries.libraryOf(store, node);
                it = m_groupIndex.emplace(key, m_groups.size()).first;
                m_groups.push_back(std::move(group));
            }
            FindingGroup& group = m_groups[it->second];
            if (!m_covered.empty()) {
                // A family's or pattern's one finding: the keys it stands for.
                if (const auto covered = m_covered.find(std::uint64_t(node) << 8 | rule); covered != m_covered.end()) {
                    group.keys += covered->second.first;
                    group.memory.keys += covered->second.second.keys;
                    group.memory.bytes += covered->second.second.bytes;
                    group.memory.unmeasured += covered->second.second.unmeasured;
                    continue;
                }
            }
            ++group.keys;
            ++group.memory.keys;
            if (store.isKey(node) && info.memoryMeasured)
                group.memory.bytes += info.memoryBytes;
            else
                ++group.memory.unmeasured;
        }
    }
}

void FindingGroups::mergeGroups(std::vector<FindingGroup>& later)
{
    // Pattern ids are each half's own: the groups meet by rule and pattern text. A group of both keeps the first
    // half's library, that of its first key.
    QHash<std::pair<const lint::RuleInfo*, QByteArray>, std::size_t> index;
    for (std::size_t i = 0; i < m_groups.size(); ++i)
        index.insert({m_groups[i].rule, m_groups[i].pattern}, i);
    for (FindingGroup& group : later) {
        const auto known = index.constFind({group.rule, group.pattern});
        if (known == index.cend()) {
            m_groups.push_back(std::move(group));
            continue;
        }
        FindingGroup& into = m_groups[*known];
        into.keys += group.keys;
        into.memory.keys += group.memory.keys;
        into.memory.bytes += group.memory.bytes;
        into.memory.unmeasured += group.memory.unmeasured;
    }
}

void FindingGroups::conclude()
{
    m_groupIndex = {};
    QSet<QByteArray> patterns; // every pattern with a finding has a group
    for (const FindingGroup& group : m_groups)
        patterns.insert(group.pattern);
    m_patternCount = std::uint64_t(patterns.size());
    std::sort(m_groups.begin(), m_groups.end(), [&](const FindingGroup& a, const FindingGroup& b) {
        const std::size_t ruleA = lint::ruleIndex(*a.rule), ruleB = lint::ruleIndex(*b.rule);
        if (ruleA != ruleB)
            return ruleA < ruleB;
        return a.keys != b.keys ? a.keys > b.keys : a.pattern < b.pattern;
    });
}

std::uint32_t FindingGroups::childPattern(std::uint32_t parent, keyspace::NodeId node)
{
    // By (parent pattern, folded label): most labels are a shared placeholder or a word already seen, so a key's
    // pattern costs two lookups, and only a new pattern builds its text.
    const std::uint32_t label = labelOf(node);
    // With several delimiters, a segment after another than the primary one (`a/b` in a ':/' store) carries it.
    const char joiner = m_store->joiner(node);
    if (joiner == 0 || joiner == m_store->delimiter())
        return labelledPattern(parent, label);
    return labelledPattern(parent, QByteArray(QByteArray(1, joiner) + m_labels.label(label)), true);
}

std::uint32_t FindingGroups::labelOf(keyspace::NodeId node)
{
    // An id is its placeholder (from the table, its bytes unread). A word that folds to itself is kept by segment
    // id: the `profile` of a hundred thousand `user:<int>:profile` keys is one lookup each. A word with an id in it
    // (`user_17_profile`) and a token (which may hold typed words) are read each time, and not kept: they are
    // nearly as many as their keys.
    const lint::Shape shape = lint::shapeOfNode(m_shapes, *m_store, node);
    if (lint::isId(shape) && shape != lint::Shape::Token) {
        std::uint32_t& placeholder = m_placeholderLabel[std::size_t(shape)];
        if (placeholder == Unknown)
            placeholder = m_labels.idOf(lint::sharedPlaceholder(shape));
        return placeholder;
    }
    const keyspace::SegmentId segmentId = m_store->segmentId(node);
    if (shape == lint::Shape::Word) {
        if (const auto known = m_wordLabel.find(segmentId); known != m_wordLabel.end())
            return known->second;
    }
    const QByteArrayView segment = m_store->segment(node);
    const QByteArray spelled = lint::patternOf(segment, shape); // the one notation (lint/SegmentShape.h)
    const std::uint32_t label = m_labels.idOf(spelled);
    if (shape == lint::Shape::Word && spelled == segment)
        m_wordLabel.emplace(segmentId, label);
    return label;
}

std::uint32_t FindingGroups::labelledPattern(std::uint32_t parent, QByteArrayView label, bool joined)
{
    return labelledPattern(parent, m_labels.idOf(label), joined);
}

std::uint32_t FindingGroups::labelledPattern(std::uint32_t parent, std::uint32_t label, bool joined)
{
    // A joined label is told from a delimited one by its id's top bit (label ids are far fewer than 2^31).
    const std::uint64_t key = std::uint64_t(parent) << 32 | label | (joined ? 0x80000000u : 0u);
    if (const auto known = m_childPattern.find(key); known != m_childPattern.end())
        return known->second;
    const auto id = std::uint32_t(m_patternLinks.size());
    m_patternLinks.push_back({parent, label, joined});
    m_childPattern.emplace(key, id);
    return id;
}

QByteArray FindingGroups::patternText(std::uint32_t pattern) const
{
    std::vector<std::uint32_t> way; // from the pattern up to the root's child
    qsizetype length = 0;
    for (std::uint32_t at = pattern; at != RootPattern; at = m_patternLinks[at].parent) {
        way.push_back(at);
        length += m_labels.label(m_patternLinks[at].label).size() + 1;
    }
    QByteArray text;
    text.reserve(length);
    for (auto at = way.rbegin(); at != way.rend(); ++at) {
        const PatternLink& link = m_patternLinks[*at];
        if (link.parent != RootPattern && !link.joined)
            text.append(m_store->delimiter());
        text.append(m_labels.label(link.label));
    }
    return text;
}

std::optional<std::uint32_t> FindingGroups::addressPattern(std::uint32_t parent, keyspace::NodeId start)
{
    if (!m_store->delimiters().contains(':') ||
        !m_store->hasChildren(start)) // a key of its own: most nodes, no segment read
        return std::nullopt;
    const QByteArrayView segment = m_store->segment(start);
    const QByteArrayView group = lint::tailPiece(segment);
    if (!lint::isAddressGroup(group))
        return std::nullopt;
    const std::optional<patterns::SplitAddress> address = patterns::splitAddressFrom(*m_store, start, group);
    if (!address)
        return std::nullopt;
    // `LIMITER/fe80…` keeps its words before the address; the address is one placeholder, a prefix makes it a CIDR.
    const QByteArrayView head = segment.first(segment.size() - group.size());
    const auto labelled = [&](lint::Shape address, QByteArrayView rest) {
        QByteArray label = head.toByteArray() + lint::sharedPlaceholder(address);
        if (!rest.isEmpty())
            label.append(lint::patternOf(rest));
        return labelledPattern(parent, label);
    };
    const std::uint32_t levels = labelled(lint::Shape::Ip, {});
    for (const keyspace::NodeId inside : address->inside)
        m_addressPattern[inside] = levels;
    for (const patterns::AddressEnd& end : address->ends) {
        const QByteArrayView endSegment = m_store->segment(end.node);
        QByteArrayView rest = endSegment.sliced(lint::headPiece(endSegment).size());
        if (end.prefix) { // `/56`: the prefix is the placeholder's
            qsizetype digits = 1;
            while (digits < rest.size() && lint::isDigit(rest[digits]))
                ++digits;
            rest = rest.sliced(digits);
        }
        m_addressPattern[end.node] =
            end.prefix || !rest.isEmpty() ? labelled(end.prefix ? lint::Shape::Cidr : lint::Shape::Ip, rest) : levels;
    }
    return levels;
}

std::uint32_t FindingGroups::patternIdOf(keyspace::NodeId node)
{
    // Up to the nearest namespace folded already (namespaces are few beside keys, each folded once), then down,
    // one segment at a time: no recursion, a key may have a hundred thousand segments.
    std::vector<keyspace::NodeId>& chain = m_chain;
    chain.clear();
    std::uint32_t pattern = RootPattern;
    for (keyspace::NodeId at = node; at != keyspace::Keyspace::root(); at = m_store->parent(at)) {
        if (const auto split = m_addressPattern.find(at); split != m_addressPattern.end() && at == node) {
            pattern = split->second; // a key where an address ends
            break;
        }
        const std::uint32_t index = m_store->namespaceIndex(at);
        if (index != keyspace::InvalidNode && index < m_namespacePattern.size() &&
            m_namespacePattern[index] != Unknown) {
            pattern = m_namespacePattern[index];
            break;
        }
        chain.push_back(at);
    }
    for (auto at = chain.rbegin(); at != chain.rend(); ++at) {
        if (const auto split = m_addressPattern.find(*at); split != m_addressPattern.end())
            pattern = split->second;
        else if (const std::optional<std::uint32_t> address = addressPattern(pattern, *at))
            pattern = *address;
        else
            pattern = childPattern(pattern, *at);
        const std::uint32_t index = m_store->namespaceIndex(*at);
        if (index != keyspace::InvalidNode && index < m_namespacePattern.size())
            m_namespacePattern[index] = pattern;
    }
    return pattern;
}

QByteArray FindingGroups::patternOf(QByteArrayView key)
{
    const keyspace::NodeId node = m_store->find(key);
    if (node == keyspace::InvalidNode)
        return {};
    return patternText(patternIdOf(node));
}

} // namespace keylens::report
