#include "keyspace/GlobPass.h"

#include "base/SideTask.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace keylens::keyspace {

namespace {

// Where a node's path stands against the glob's literal head.
enum class Head : std::uint8_t {
    Left,    // it disagrees with the head: no key at or below it matches
    Partial, // it is a shorter prefix of the head, ending where the head has a delimiter: keys below may match
    Equal,   // it is the head
    Covered, // it starts with the head and is longer
};

// A child of a node whose path is a shorter prefix of the head (Partial): the child's segment is compared with the head
// from `at`, where the parent's path and its delimiter end, so that a long spine costs its length, not its square.
// For a child that is still Partial, `end` receives where its own path and delimiter end.
Head headOfChild(const Keyspace& store, const KeyGlob& glob, NodeId child, qsizetype at, qsizetype* end)
{
    // With several delimiters, the head's delimiter before `at` must be the one this child follows.
    if (const char joiner = store.joiner(child);
        !store.delimiters().isSingle() && joiner != 0 && glob.headAgreement(QByteArrayView(&joiner, 1), at - 1) != 1)
        return Head::Left;
    const QByteArrayView segment = store.segment(child);
    const qsizetype remaining = glob.literalHead().size() - at;
    const qsizetype agreed = glob.headAgreement(segment, at);
    if (segment.size() >= remaining)
        return agreed < remaining ? Head::Left : segment.size() == remaining ? Head::Equal : Head::Covered;
    if (agreed < segment.size())
        return Head::Left;
    // The head goes on: below this node it must go on with a delimiter.
    const QByteArray& delimiters = store.delimiters().bytes();
    const bool delimiterNext = std::any_of(delimiters.begin(), delimiters.end(), [&](const char& delimiter) {
        return glob.headAgreement(QByteArrayView(&delimiter, 1), at + segment.size()) == 1;
    });
    if (!delimiterNext)
        return Head::Left;
    *end = at + segment.size() + 1;
    return Head::Partial;
}

// One bit per distinct segment: whether a key ending in it may match the literal tail (lastSegmentMayMatch), for a
// key of one segment and for a deeper one.
struct TailBits
{
    std::vector<std::uint64_t> deep;
    std::vector<std::uint64_t> whole;

    static bool test(const std::vector<std::uint64_t>& bits, SegmentId id) { return bits[id >> 6] >> (id & 63) & 1; }
};

TailBits tailBits(const Keyspace& store, const KeyGlob& glob)
{
    TailBits bits;
    const std::size_t count = store.segmentCount();
    const std::size_t words = (count + 63) / 64;
    bits.deep.assign(words, 0);
    bits.whole.assign(words, 0);
    // A tail with a delimiter (`*:profile`) never matches a key of one segment: no whole bit to test.
    const bool wholeMayMatch = glob.keyOfOneSegmentMayMatch(store.delimiters());
    const auto fill = [&](std::size_t fromWord, std::size_t toWord) {
        const SegmentId end = SegmentId(std::min(count, toWord * 64));
        for (SegmentId id = SegmentId(fromWord * 64); id < end; ++id) {
            const QByteArrayView segment = store.segmentById(id);
            if (glob.lastSegmentMayMatch(segment, store.delimiters(), false))
                bits.deep[id >> 6] |= std::uint64_t(1) << (id & 63);
            if (wholeMayMatch && glob.lastSegmentMayMatch(segment, store.delimiters(), true))
                bits.whole[id >> 6] |= std::uint64_t(1) << (id & 63);
        }
    };
    // Millions of distinct segments (ids) are most of a filter's wait at 10M keys: two threads share them, each
    // writing its own words of the bit sets, while nothing writes the store (filters run on its owner's thread).
    if (count < (std::size_t(1) << 18)) {
        fill(0, words);
    } else {
        base::inTwoHalves(words, fill);
    }
    return bits;
}

// Whether head and tail alone decide the glob for a key that passed both tests: a pattern of head, `*`, tail, whose
// tail the segment test checks whole (it has no delimiter, or only its first byte is one).
bool tailDecides(const KeyGlob& glob, const Delimiters& delimiters)
{
    const qsizetype cut = KeyGlob::lastDelimiterIn(glob.literalTail(), delimiters);
    return glob.isHeadStarTail() && cut <= 0;
}

} // namespace

void markGlobMatches(const Keyspace& store, const KeyGlob& glob, std::span<std::uint8_t> marks, std::uint8_t bit)
{
    const std::size_t count = std::min(marks.size(), store.nodeCount());
    if (glob.isEmpty() || count <= 1)
        return;
    const bool hasHead = !glob.literalHead().isEmpty();
    const bool hasTail = !glob.literalTail().isEmpty();
    std::vector<Head> heads;
    std::unordered_map<NodeId, qsizetype> partialEnds; // the head's spine: where each node's path and delimiter end
    if (hasHead) {
        heads.resize(count);
        heads[Keyspace::root()] = Head::Partial;
        partialEnds[Keyspace::root()] = 0;
    }
    const TailBits tails = hasTail ? tailBits(store, glob) : TailBits{};
    const bool decided = tailDecides(glob, store.delimiters());
    const qsizetype shortest = glob.literalHead().size() + glob.literalTail().size();

    for (NodeId node = 1; node < count; ++node) {
        const NodeId parent = store.parent(node);
        Head head = Head::Covered;
        if (hasHead) {
            const Head above = heads[parent];
            if (above == Head::Partial) {
                qsizetype end = 0;
                head = headOfChild(store, glob, node, partialEnds.at(parent), &end);
                if (head == Head::Partial)
                    partialEnds.emplace(node, end);
            } else {
                head = above == Head::Left ? Head::Left : Head::Covered; // below the head, or below a path that left it
            }
            heads[node] = head;
            if (head == Head::Left || head == Head::Partial)
                continue;
        }
        if (!store.isKey(node))
            continue;
        if (!glob.hasWildcard()) {
            if (head == Head::Equal)
                marks[node] |= bit;
            continue;
        }
        if (hasTail && !TailBits::test(parent == Keyspace::root() ? tails.whole : tails.deep, store.segmentId(node)))
            continue;
        // Head and tail may overlap in a short key (`ab*bc` and "abc"): then it is too short for both.
        const bool matches = decided ? (!hasHead || !hasTail || qsizetype(store.pathLength(node)) >= shortest)
                                     : glob.matches(store.path(node));
        if (matches)
            marks[node] |= bit;
    }
}

} // namespace keylens::keyspace
