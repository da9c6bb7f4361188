#include "lint/DelimiterUse.h"

#include "lint/SegmentUnits.h"

#include <algorithm>
#include <array>

namespace keylens::lint {

namespace {

// Not '_' or '-': they join the words of one level too (`last_seen`, `api-key`), and a tree split on them breaks
// those up. A keyspace that uses '_' instead of ':' is told so by the report's suggested_delimiter.
constexpr std::array<char, 3> Candidates{'/', '.', '|'};
constexpr std::uint8_t Unknown = 0x80; // a segment's mask not computed yet

std::uint8_t usesOf(QByteArrayView segment)
{
    std::uint8_t mask = 0;
    if (std::none_of(Candidates.begin(), Candidates.end(), [&](char c) { return segment.contains(c); }))
        return mask; // most segments: no unit boundary to look for
    for (const SegmentUnit& unit : segmentUnits(segment)) {
        const auto at = std::find(Candidates.begin(), Candidates.end(), unit.delimiterAfter);
        if (at != Candidates.end())
            mask |= std::uint8_t(1u << (at - Candidates.begin()));
    }
    return mask;
}

// The candidates that, split on too, would leave an empty segment: at the segment's start or end (next to a
// delimiter it already has, or at the key's ends), or twice in a row.
std::uint8_t emptiesOf(QByteArrayView segment)
{
    std::uint8_t mask = 0;
    for (std::size_t i = 0; i < Candidates.size(); ++i) {
        const char c = Candidates[i];
        const char twice[2] = {c, c};
        if (segment.startsWith(c) || segment.endsWith(c) || segment.contains(QByteArrayView(twice, 2)))
            mask |= std::uint8_t(1u << i);
    }
    return mask;
}

} // namespace

std::vector<DelimiterUse> otherDelimitersUsed(const keyspace::Keyspace& store)
{
    using keyspace::NodeId;
    // By segment and node: the uses in the low bits, the empty segments splitting would make in the high ones.
    constexpr int EmptyShift = 4;
    static_assert(Candidates.size() <= EmptyShift);
    std::vector<std::uint8_t> bySegment(store.segmentCount(), Unknown);
    std::vector<std::uint8_t> byNode(store.nodeCount(), 0); // on the path to the node
    std::array<std::uint64_t, Candidates.size()> keys{};
    std::array<bool, Candidates.size()> empties{};
    std::array<NodeId, Candidates.size()> example{};
    // A node's id is above its parent's: one pass in id order sees each parent first.
    for (NodeId node = 1; node < store.nodeCount(); ++node) {
        std::uint8_t& own = bySegment[store.segmentId(node)];
        if (own == Unknown) {
            const QByteArrayView segment = store.segment(node);
            own = std::uint8_t(usesOf(segment) | emptiesOf(segment) << EmptyShift);
        }
        byNode[node] = byNode[store.parent(node)] | own;
        if (!store.isKey(node) || byNode[node] == 0)
            continue;
        for (std::size_t i = 0; i < Candidates.size(); ++i) {
            empties[i] = empties[i] || ((byNode[node] >> (EmptyShift + i)) & 1u);
            if ((byNode[node] >> i) & 1u) {
                if (keys[i]++ == 0)
                    example[i] = node;
            }
        }
    }
    const std::uint64_t floor = std::max<std::uint64_t>(10, store.keyCount() / 100);
    std::vector<DelimiterUse> out;
    for (std::size_t i = 0; i < Candidates.size(); ++i) {
        if (keys[i] >= floor && !empties[i] && !store.delimiters().contains(Candidates[i]))
            out.push_back({Candidates[i], keys[i], store.path(example[i])});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const DelimiterUse& a, const DelimiterUse& b) { return a.keys > b.keys; });
    return out;
}

} // namespace keylens::lint
