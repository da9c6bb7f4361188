#include "edit/KeySelection.h"

#include "keyspace/KeyGlob.h"
#include "keyspace/Units.h"

#include <QStringBuilder>

#include <algorithm>
#include <numeric>

namespace keylens::edit {

using keyspace::Keyspace;
using keyspace::NodeId;

namespace {

// Adds the keys of a subtree, walking it with an explicit stack: keys can be 100,000 segments deep.
void addSubtree(const Keyspace& store, NodeId top, KeySelection& selection)
{
    std::vector<NodeId> stack{top};
    while (!stack.empty()) {
        const NodeId node = stack.back();
        stack.pop_back();
        if (store.isKey(node))
            selection.add(store, node);
        for (NodeId child = store.firstChild(node); child != keyspace::InvalidNode; child = store.nextSibling(child))
            stack.push_back(child);
    }
}

} // namespace

void KeySelection::add(const Keyspace& store, NodeId node)
{
    const keyspace::KeyInfo info = store.keyInfo(node);
    keys.push_back(store.path(node));
    types.push_back(info.type);
    nodes.push_back(node);
    if (info.memoryMeasured)
        memoryBytes += info.memoryBytes;
    else
        ++keysMemoryUnmeasured;
    if (info.expiresAtMs == keyspace::ExpiryUnknown)
        ++keysTtlUnknown;
    else if (keyspace::hasExpiry(info.expiresAtMs))
        ++keysWithTtl;
}

QByteArray KeySelection::sizeText() const
{
    const keyspace::MemoryFigure memory{memoryBytes, size(), keysMemoryUnmeasured}; // keys are a list here
    QByteArray text = memory.known() ? keyspace::formatMemory(memory) : QByteArray("memory not measured");
    if (memory.atLeast())
        text += ", " + keyspace::formatCount(keysMemoryUnmeasured) + " not measured";
    if (size() > 0 && keysTtlUnknown == size())
        return text + "; TTLs not measured";
    text += QByteArray(keysTtlUnknown > 0 ? "; \u2265 " : "; ") + keyspace::formatCount(keysWithTtl) + " with a TTL";
    if (keysTtlUnknown > 0)
        text += ", " + keyspace::formatCount(keysTtlUnknown) + " not measured";
    return text;
}

namespace {

char lowered(char c)
{
    return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// Natural order: runs of digits by their value (user:2 before user:10, as the tree orders id segments), letters
// without case, and the bytes themselves last, so that distinct keys never compare equal.
bool naturalLess(QByteArrayView a, QByteArrayView b)
{
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (isDigit(a[i]) && isDigit(b[j])) {
            qsizetype endA = i, endB = j;
            while (endA < a.size() && a[endA] == '0')
                ++endA; // leading zeros do not change the value
            while (endB < b.size() && b[endB] == '0')
                ++endB;
            qsizetype digitsA = endA, digitsB = endB;
            while (digitsA < a.size() && isDigit(a[digitsA]))
                ++digitsA;
            while (digitsB < b.size() && isDigit(b[digitsB]))
                ++digitsB;
            if (digitsA - endA != digitsB - endB)
                return digitsA - endA < digitsB - endB;
            if (const int order = a.sliced(endA, digitsA - endA).compare(b.sliced(endB, digitsB - endB)); order != 0)
                return order < 0;
            i = digitsA;
            j = digitsB;
            continue;
        }
        const char x = lowered(a[i]), y = lowered(b[j]);
        if (x != y)
            return static_cast<unsigned char>(x) < static_cast<unsigned char>(y);
        ++i;
        ++j;
    }
    if (a.size() - i != b.size() - j)
        return a.size() - i < b.size() - j;
    return a < b;
}

} // namespace

void KeySelection::sortByKey()
{
    std::vector<std::size_t> order(keys.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::sort(order.begin(), order.end(),
              [this](std::size_t a, std::size_t b) { return naturalLess(keys[a], keys[b]); });
    std::vector<QByteArray> sortedKeys;
    std::vector<keyspace::KeyType> sortedTypes;
    std::vector<NodeId> sortedNodes;
    sortedKeys.reserve(keys.size());
    sortedTypes.reserve(keys.size());
    sortedNodes.reserve(keys.size());
    for (const std::size_t i : order) {
        sortedKeys.push_back(std::move(keys[i]));
        sortedTypes.push_back(types[i]);
        sortedNodes.push_back(nodes[i]);
    }
    keys = std::move(sortedKeys);
    types = std::move(sortedTypes);
    nodes = std::move(sortedNodes);
}

KeySelection selectSubtree(const Keyspace& store, NodeId node)
{
    KeySelection selection;
    if (node != Keyspace::root()) {
        selection.prefix = store.namespacePrefix(node);
        selection.description = store.hasChildren(node) ? QByteArray(selection.prefix).append('*') : store.path(node);
    } else {
        selection.description = "*";
    }
    addSubtree(store, node, selection);
    selection.sortByKey();
    return selection;
}

KeySelection selectPattern(const Keyspace& store, const patterns::PatternTree& patterns,
                           patterns::PatternTree::PatternId pattern)
{
    KeySelection selection;
    selection.description = patterns.text(pattern);
    selection.prefix = patternPrefix(patterns, pattern);
    for (const NodeId member : patterns.members(pattern))
        addSubtree(store, member, selection);
    selection.sortByKey();
    return selection;
}

KeySelection selectNodes(const Keyspace& store, const std::vector<NodeId>& nodes, QByteArray description)
{
    KeySelection selection;
    selection.description = std::move(description);
    for (const NodeId node : nodes)
        if (node < store.nodeCount() && store.isKey(node))
            selection.add(store, node);
    return selection;
}

QByteArray globPrefix(const QByteArray& glob, const keyspace::Delimiters& delimiters)
{
    QByteArray literal;
    for (qsizetype i = 0; i < glob.size(); ++i) {
        const char c = glob[i];
        if (c == '*' || c == '?' || c == '[')
            break;
        if (c == '\\' && i + 1 < glob.size())
            literal.append(glob[++i]);
        else
            literal.append(c);
    }
    const qsizetype last = keyspace::KeyGlob::lastDelimiterIn(literal, delimiters);
    return last < 0 ? QByteArray() : literal.left(last + 1);
}

QByteArray patternPrefix(const patterns::PatternTree& patterns, patterns::PatternTree::PatternId pattern)
{
    std::vector<patterns::PatternTree::PatternId> levels;
    for (auto level = pattern; level != patterns::PatternTree::Root; level = patterns.parent(level))
        levels.push_back(level);
    QByteArray prefix;
    for (auto level = levels.rbegin(); level != levels.rend(); ++level) {
        // A placeholder level, or a word with an id glued to it, is where the literal part ends.
        if (patterns.isPlaceholder(*level) || patterns.label(*level).contains('<'))
            break;
        prefix.append(patterns.label(*level));
        // A partial level's label ends with its own inner delimiter; a whole one is followed by the next level's.
        if (!patterns.isPartial(*level))
            prefix.append(level + 1 != levels.rend() ? patterns.joiner(*(level + 1)) : patterns.store().delimiter());
    }
    return prefix;
}

std::vector<QByteArray> renamedKeys(const std::vector<QByteArray>& keys, const QByteArray& from, const QByteArray& to)
{
    std::vector<QByteArray> renamed;
    renamed.reserve(keys.size());
    for (const QByteArray& key : keys)
        renamed.push_back(key.startsWith(from) ? QByteArray(to).append(key.mid(from.size())) : key);
    return renamed;
}

} // namespace keylens::edit
