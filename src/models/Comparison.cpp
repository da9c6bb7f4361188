#include "models/Comparison.h"

#include "history/SnapshotSeries.h"
#include "lint/SegmentShape.h"

#include <algorithm>
#include <numeric>

namespace keylens::models {

using keyspace::Keyspace;
using keyspace::NodeId;

namespace {

// A piece of a pattern's text: bytes as they are, or a placeholder (`<int>`, `<uuid>`…) for one or more bytes: digits
// for a number's, any but a delimiter for an id within a level, any at all for an address (a split IPv6 address is
// one `<ip>` over several levels).
struct PatternPiece
{
    enum Kind { Bytes, Digits, Level, Any } kind = Bytes;
    QByteArrayView bytes;
};

// The placeholder that starts at `at` in `text` (its length and kind), or length 0 where `<` starts no placeholder.
std::pair<qsizetype, PatternPiece::Kind> placeholderAt(QByteArrayView text, qsizetype at)
{
    for (int shape = 0; shape < int(lint::Shape::Count); ++shape) {
        const QByteArrayView name = lint::placeholder(lint::Shape(shape));
        if (name.isEmpty() || !text.sliced(at).startsWith(name))
            continue;
        switch (lint::Shape(shape)) {
        case lint::Shape::Integer:
        case lint::Shape::Epoch:
            return {name.size(), PatternPiece::Digits};
        case lint::Shape::Ip:
            return {name.size(), PatternPiece::Any};
        default:
            return {name.size(), PatternPiece::Level};
        }
    }
    return {0, PatternPiece::Bytes};
}

// Whether `key` could be one of a pattern's keys: every byte of it covered, in order, by the pattern's literal bytes
// and its placeholders (each one byte or more). Generous where unsure, so that a key it says no to was not among
// them. Positions reachable after each piece, over the key's bytes: no recursion, at most the key's length squared
// per placeholder.
bool patternCouldHold(QByteArrayView pattern, QByteArrayView key, QByteArrayView delimiters)
{
    std::vector<PatternPiece> pieces;
    qsizetype literal = 0;
    for (qsizetype at = 0; at < pattern.size();) {
        const auto [length, kind] =
            pattern[at] == '<' ? placeholderAt(pattern, at) : std::pair{qsizetype(0), PatternPiece::Bytes};
        if (length == 0) {
            ++at;
            continue;
        }
        if (at > literal)
            pieces.push_back({PatternPiece::Bytes, pattern.sliced(literal, at - literal)});
        pieces.push_back({kind, {}});
        at += length;
        literal = at;
    }
    if (literal < pattern.size())
        pieces.push_back({PatternPiece::Bytes, pattern.sliced(literal)});
    std::vector<char> reach(std::size_t(key.size()) + 1, 0), next(reach.size(), 0);
    reach[0] = 1;
    for (const PatternPiece& piece : pieces) {
        std::fill(next.begin(), next.end(), 0);
        bool any = false;
        for (qsizetype from = 0; from <= key.size(); ++from) {
            if (!reach[std::size_t(from)])
                continue;
            if (piece.kind == PatternPiece::Bytes) {
                if (key.sliced(from).startsWith(piece.bytes)) {
                    next[std::size_t(from + piece.bytes.size())] = 1;
                    any = true;
                }
                continue;
            }
            for (qsizetype to = from + 1; to <= key.size(); ++to) {
                const char byte = key[to - 1];
                if ((piece.kind == PatternPiece::Digits && !(byte >= '0' && byte <= '9')) ||
                    (piece.kind == PatternPiece::Level && delimiters.contains(byte)))
                    break;
                next[std::size_t(to)] = 1;
                any = true;
            }
        }
        if (!any)
            return false;
        reach.swap(next);
    }
    return reach.back() != 0;
}

// Past this, a key is not matched against patterns byte by byte (a key of 100,000 segments): it may have been
// among any of them.
constexpr qsizetype LongestKeyMatched = 1024;

} // namespace

Comparison::Comparison(history::Snapshot baseline, QString label)
    : m_baseline(std::move(baseline))
    , m_label(std::move(label))
{
    m_namespaces.reserve(qsizetype(m_baseline.namespaces.size()));
    for (std::size_t i = 0; i < m_baseline.namespaces.size(); ++i)
        m_namespaces.insert(m_baseline.namespaces[i].path, std::uint32_t(i));
    m_patternsByText.resize(m_baseline.patterns.size());
    std::iota(m_patternsByText.begin(), m_patternsByText.end(), 0u);
    std::sort(m_patternsByText.begin(), m_patternsByText.end(), [this](std::uint32_t a, std::uint32_t b) {
        return m_baseline.patterns[a].pattern < m_baseline.patterns[b].pattern;
    });
    for (std::size_t i = 0; i < m_baseline.patterns.size(); ++i) {
        const QByteArrayView text(m_baseline.patterns[i].pattern);
        for (qsizetype at = text.indexOf('<'); at >= 0; at = text.indexOf('<', at + 1)) {
            if (placeholderAt(text, at).first == 0)
                continue;
            m_foldedByPrefix[text.first(at).toByteArray()].push_back(std::uint32_t(i));
            if (std::find(m_foldedPrefixLengths.begin(), m_foldedPrefixLengths.end(), at) ==
                m_foldedPrefixLengths.end())
                m_foldedPrefixLengths.push_back(at);
            break;
        }
    }
}

bool Comparison::foldedPatternCouldHold(QByteArrayView key) const
{
    if (key.size() > LongestKeyMatched)
        return true;
    for (const qsizetype length : m_foldedPrefixLengths) {
        if (length > key.size())
            continue;
        const auto found = m_foldedByPrefix.constFind(QByteArray::fromRawData(key.data(), length));
        if (found == m_foldedByPrefix.constEnd())
            continue;
        for (const std::uint32_t entry : *found) {
            if (patternCouldHold(m_baseline.patterns[entry].pattern, key, m_baseline.delimiters))
                return true;
        }
    }
    return false;
}

const history::SnapshotStats* Comparison::ownPatternOf(QByteArrayView key) const
{
    if (key.contains('<'))
        return nullptr; // its own spelling may be a placeholder's
    const auto it = std::lower_bound(m_patternsByText.begin(), m_patternsByText.end(), key,
                                     [this](std::uint32_t entry, QByteArrayView text) {
                                         return QByteArrayView(m_baseline.patterns[entry].pattern) < text;
                                     });
    if (it == m_patternsByText.end() || m_baseline.patterns[*it].pattern != key)
        return nullptr;
    return &m_baseline.patterns[*it].stats;
}

RowDelta Comparison::ofKey(const Keyspace& store, NodeId node) const
{
    RowDelta delta;
    delta.memoryCompared = memoryComparedWith(store);
    if (m_baseline.patterns.empty())
        return delta; // the earlier scan did not fold its keys: it says nothing of any one
    const QByteArray key = store.path(node);
    const history::SnapshotStats* before = ownPatternOf(key);
    if (!store.isKey(node)) {
        // Deleted here since the scan (a struck-out row): gone, when the earlier scan had it as itself.
        if (before && before->keys == 1) {
            delta.kind = RowDelta::Gone;
            delta.keysBefore = 1;
            delta.memoryBefore = before->memoryBytes;
        }
        return delta;
    }
    const keyspace::KeyInfo info = store.keyInfo(node);
    delta.keysNow = 1;
    delta.memoryNow = info.memoryMeasured ? info.memoryBytes : 0;
    if (before) {
        if (before->keys == 1) {
            delta.kind = RowDelta::Compared;
            delta.keysBefore = 1;
            delta.memoryBefore = before->memoryBytes;
        }
        return delta;
    }
    if (!foldedPatternCouldHold(key))
        delta.kind = RowDelta::New;
    return delta;
}

std::optional<std::uint32_t> Comparison::namespaceEntry(QByteArrayView path) const
{
    const auto found = m_namespaces.constFind(path.toByteArray());
    if (found == m_namespaces.constEnd())
        return std::nullopt;
    return *found;
}

bool Comparison::memoryComparedWith(const Keyspace& store) const
{
    return m_baseline.totals.keysMemoryUnmeasured == 0 && store.stats(Keyspace::root()).keysMemoryUnmeasured == 0;
}

// As SnapshotDiff decides it: the earlier scan listed every namespace under the node's deepest ancestor it lists
// (or at the top), down to the node's level; else the node may be among those it left out.
bool Comparison::provesAbsent(const Keyspace& store, NodeId node) const
{
    int depth = 0;
    for (NodeId at = store.parent(node); at != Keyspace::root(); at = store.parent(at))
        ++depth;
    if (depth >= m_baseline.listedDepth)
        return false;
    for (NodeId at = store.parent(node); at != Keyspace::root(); at = store.parent(at)) {
        if (const std::optional<std::uint32_t> entry = namespaceEntry(store.namespacePrefix(at)))
            return m_baseline.namespaces[*entry].unlisted.namespaces == 0;
    }
    return m_baseline.unlistedTopLevel.namespaces == 0;
}

RowDelta Comparison::ofNamespace(const Keyspace& store, NodeId node) const
{
    RowDelta delta;
    if (node == Keyspace::root())
        return ofKeyspace(store);
    if (!store.hasChildren(node))
        return ofKey(store, node);
    // The namespace's own keys below it, as the snapshot counted them (a key named like the namespace is not one).
    const keyspace::NamespaceStats now = store.stats(node);
    delta.keysNow = now.keys;
    delta.memoryNow = now.memoryBytes;
    delta.memoryCompared = memoryComparedWith(store);
    if (const std::optional<std::uint32_t> entry = namespaceEntry(store.namespacePrefix(node))) {
        const history::SnapshotStats& before = m_baseline.namespaces[*entry].stats;
        delta.kind = RowDelta::Compared;
        delta.keysBefore = before.keys;
        delta.memoryBefore = before.memoryBytes;
    } else if (provesAbsent(store, node)) {
        delta.kind = RowDelta::New;
    }
    return delta;
}

RowDelta Comparison::ofKeyspace(const Keyspace& store) const
{
    const keyspace::NamespaceStats now = store.stats(Keyspace::root());
    RowDelta delta;
    delta.kind = RowDelta::Compared;
    delta.keysBefore = m_baseline.totals.keys;
    delta.memoryBefore = m_baseline.totals.memoryBytes;
    delta.keysNow = now.keys;
    delta.memoryNow = now.memoryBytes;
    delta.memoryCompared = memoryComparedWith(store);
    return delta;
}

RowDelta Comparison::ofPatternSubtree(const Keyspace& store, QByteArrayView pattern, bool glued, std::uint64_t keysNow,
                                      std::uint64_t memoryNow) const
{
    RowDelta delta;
    delta.keysNow = keysNow;
    delta.memoryNow = memoryNow;
    delta.memoryCompared = memoryComparedWith(store);
    if (m_baseline.patterns.empty())
        return delta; // the earlier scan did not fold its keys
    // The patterns that continue this one's text are together in text order.
    auto it = std::lower_bound(m_patternsByText.begin(), m_patternsByText.end(), pattern,
                               [this](std::uint32_t entry, QByteArrayView text) {
                                   return QByteArrayView(m_baseline.patterns[entry].pattern) < text;
                               });
    bool found = false;
    for (; it != m_patternsByText.end() && m_baseline.patterns[*it].pattern.startsWith(pattern); ++it) {
        const history::SnapshotPattern& entry = m_baseline.patterns[*it];
        if (!history::isInPatternSubtree(entry.pattern, pattern, m_baseline.delimiters, glued))
            continue;
        found = true;
        delta.keysBefore += entry.stats.keys;
        delta.memoryBefore += entry.stats.memoryBytes;
    }
    // The snapshot lists every pattern that held keys: a subtree with none of them held none.
    delta.kind = found ? RowDelta::Compared : keysNow > 0 ? RowDelta::New : RowDelta::Unknown;
    return delta;
}

std::vector<Comparison::Vanished> Comparison::vanishedFrom(const Keyspace& store) const
{
    // A listed namespace is there when a node of its path has children. Its parent must be there too.
    const auto nodeOfNamespace = [&](const QByteArray& path) -> std::optional<NodeId> {
        if (path.isEmpty())
            return std::nullopt;
        const NodeId node = store.find(QByteArrayView(path).chopped(1)); // the delimiter after it
        if (node == keyspace::InvalidNode || !store.hasChildren(node) || store.namespacePrefix(node) != path)
            return std::nullopt;
        return node;
    };
    std::vector<Vanished> out;
    for (const history::SnapshotNamespace& entry : m_baseline.namespaces) {
        if (nodeOfNamespace(entry.path))
            continue;
        NodeId parent = Keyspace::root();
        QByteArray parentPath;
        if (entry.parent != history::SnapshotNamespace::TopLevel) {
            parentPath = m_baseline.namespaces[entry.parent].path;
            const std::optional<NodeId> there = nodeOfNamespace(parentPath);
            if (!there)
                continue; // under a vanished namespace: that one is listed
            parent = *there;
        }
        if (!entry.path.startsWith(parentPath) || entry.path.size() <= parentPath.size())
            continue; // not a well-formed listing: nothing to show it under
        out.push_back({parent, entry.path.mid(parentPath.size()).chopped(1), entry.path, entry.stats});
    }
    std::stable_sort(out.begin(), out.end(), [](const Vanished& a, const Vanished& b) {
        return a.before.memoryBytes != b.before.memoryBytes ? a.before.memoryBytes > b.before.memoryBytes
                                                            : a.before.keys > b.before.keys;
    });
    return out;
}

std::vector<Comparison::GonePattern> Comparison::gonePatterns(const patterns::PatternTree& tree) const
{
    std::vector<GonePattern> out;
    QHash<QByteArray, std::size_t> byText; // into out
    const QByteArrayView delimiters(m_baseline.delimiters);
    for (const history::SnapshotPattern& entry : m_baseline.patterns) {
        const QByteArrayView pattern(entry.pattern);
        const patterns::PatternTree::Prefix there = tree.longestPrefix(pattern);
        if (there.length == pattern.size())
            continue;
        // The first level the tree lacks: after the store delimiter that follows the level it has (none after a
        // partial level, whose label ends with its own), up to the next delimiter.
        qsizetype from = there.length;
        if (there.pattern != patterns::PatternTree::Root && !tree.isPartial(there.pattern) &&
            delimiters.contains(pattern[from]))
            ++from;
        qsizetype to = from;
        while (to < pattern.size() && !delimiters.contains(pattern[to]))
            ++to;
        if (to == from)
            continue; // an empty level: nothing to name the row by
        const QByteArray text = pattern.first(to).toByteArray();
        auto found = byText.constFind(text);
        if (found == byText.constEnd()) {
            found = byText.insert(text, out.size());
            out.push_back({there.pattern, pattern.sliced(from, to - from).toByteArray(), text, {}});
        }
        history::SnapshotStats& before = out[*found].before;
        before.keys += entry.stats.keys;
        before.memoryBytes += entry.stats.memoryBytes;
        before.keysMemoryUnmeasured += entry.stats.keysMemoryUnmeasured;
    }
    std::stable_sort(out.begin(), out.end(), [](const GonePattern& a, const GonePattern& b) {
        return a.before.memoryBytes != b.before.memoryBytes ? a.before.memoryBytes > b.before.memoryBytes
                                                            : a.before.keys > b.before.keys;
    });
    return out;
}

RowDelta Comparison::ofGone(const history::SnapshotStats& before, const Keyspace& store) const
{
    RowDelta delta;
    delta.kind = RowDelta::Gone;
    delta.keysBefore = before.keys;
    delta.memoryBefore = before.memoryBytes;
    delta.memoryCompared = memoryComparedWith(store);
    return delta;
}

} // namespace keylens::models
