#include "patterns/SplitAddresses.h"

#include "lint/AddressGroups.h"
#include "lint/Characters.h"
#include "lint/SegmentUnits.h"

#include <QVarLengthArray>

#include <algorithm>

namespace keylens::patterns {

using keyspace::Keyspace;
using keyspace::NodeId;

namespace {

using Groups = QVarLengthArray<QByteArrayView, 8>;

bool isAddress(const Groups& groups)
{
    return lint::isAddress(std::span<const QByteArrayView>(groups.data(), std::size_t(groups.size())));
}

// A `/` and one to three digits: a prefix length, the end of the segment or followed by another inner delimiter.
qsizetype prefixLength(QByteArrayView tail)
{
    if (tail.size() < 2 || tail.front() != '/')
        return 0;
    qsizetype digits = 1;
    while (digits < tail.size() && digits <= 3 && lint::isDigit(tail[digits]))
        ++digits;
    if (digits == 1 || (digits < tail.size() && !lint::isInnerDelimiter(tail[digits])))
        return 0;
    return digits;
}

AddressEnd endAt(NodeId node, QByteArrayView segment, qsizetype groupEnd)
{
    AddressEnd end{node};
    const qsizetype prefix = prefixLength(segment.sliced(groupEnd));
    end.prefix = prefix > 0;
    const qsizetype consumed = groupEnd + prefix;
    if (consumed < segment.size()) {
        end.delimiterAfter = segment[consumed];
        const lint::SegmentUnits units = lint::segmentUnits(segment);
        for (qsizetype i = 0; i < units.size(); ++i) {
            if (units[i].text.data() - segment.data() > consumed) {
                end.nextUnit = std::uint16_t(std::min<qsizetype>(i, 0xfffe));
                break;
            }
        }
        if (end.nextUnit == 0)
            end.nextUnit = std::uint16_t(std::min<qsizetype>(units.size() - 1, 0xfffe));
    }
    return end;
}

class Walk
{
public:
    explicit Walk(const Keyspace& store)
        : m_store(store)
    {}

    // `node` holds the last of `groups`, with children: they go on with the address, or it ends here.
    bool from(NodeId node, Groups groups)
    {
        bool continues = false, leaves = false;
        for (NodeId child = m_store.firstChild(node); child != keyspace::InvalidNode;
             child = m_store.nextSibling(child)) {
            const QByteArrayView segment = m_store.segment(child);
            const QByteArrayView group = lint::headPiece(segment);
            const qsizetype cut = group.size();
            // An address goes on over ':' only (`fe80:1/hour` with '/' among the delimiters is a level after it).
            if (m_store.joiner(child) != ':' || !lint::isAddressGroup(group) || groups.size() == 8) {
                // The address would end at `node`: it must be one by now (most candidates end here, `user:1:profile`).
                if (continues || !isAddress(groups))
                    return false;
                leaves = true;
                continue;
            }
            continues = true;
            if (leaves)
                return false;
            Groups longer = groups;
            longer.append(group);
            if (cut < segment.size() || !m_store.hasChildren(child)) {
                if (!isAddress(longer))
                    return false;
                m_found.ends.push_back(endAt(child, segment, cut));
            } else if (m_store.isKey(child) || !from(child, longer)) {
                return false; // a key inside an address is no address
            } else if (m_found.ends.back().node != child) {
                m_found.inside.push_back(child);
            }
        }
        if (leaves) { // the address ends at `node`; what follows is the next level's
            if (!isAddress(groups))
                return false;
            m_found.ends.push_back(AddressEnd{node});
            return true;
        }
        return continues;
    }

    SplitAddress take() { return std::move(m_found); }

private:
    const Keyspace& m_store;
    SplitAddress m_found;
};

} // namespace

std::optional<SplitAddress> splitAddressFrom(const Keyspace& store, NodeId start, QByteArrayView group)
{
    if (!store.delimiters().contains(':') || !lint::isAddressGroup(group) || !store.hasChildren(start) ||
        store.isKey(start))
        return std::nullopt;
    Walk walk(store);
    Groups groups;
    groups.append(group);
    if (!walk.from(start, groups))
        return std::nullopt;
    SplitAddress found = walk.take();
    // The start ending the address itself would be no split at all.
    if (std::any_of(found.ends.begin(), found.ends.end(), [&](const AddressEnd& end) { return end.node == start; }))
        return std::nullopt;
    found.inside.push_back(start);
    return found;
}

} // namespace keylens::patterns
