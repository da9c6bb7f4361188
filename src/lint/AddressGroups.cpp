#include "lint/AddressGroups.h"

#include "lint/Characters.h"
#include "lint/SegmentUnits.h"

#include <QVarLengthArray>

#include <algorithm>

namespace keylens::lint {

bool isAddressGroup(QByteArrayView group)
{
    return group.size() <= 4 && std::all_of(group.begin(), group.end(), isHexDigit);
}

bool isAddress(std::span<const QByteArrayView> groups)
{
    const auto n = qsizetype(groups.size());
    if (n < 3 || n > 8)
        return false;
    const auto empties = std::count_if(groups.begin(), groups.end(), [](QByteArrayView g) { return g.isEmpty(); });
    bool valid = false;
    if (empties == 0)
        valid = n == 8;
    else if (empties == 1)
        valid = !groups.front().isEmpty() && !groups.back().isEmpty();
    else if (empties == 2)
        valid = (groups[0].isEmpty() && groups[1].isEmpty()) || (groups[n - 1].isEmpty() && groups[n - 2].isEmpty());
    if (!valid || n - empties < 2)
        return false;
    return std::any_of(groups.begin(), groups.end(), [](QByteArrayView g) { return g.size() >= 3; });
}

QByteArrayView headPiece(QByteArrayView segment)
{
    return segment.first(std::find_if(segment.begin(), segment.end(), isInnerDelimiter) - segment.begin());
}

QByteArrayView tailPiece(QByteArrayView segment)
{
    qsizetype cut = segment.size();
    while (cut > 0 && !isInnerDelimiter(segment[cut - 1]))
        --cut;
    return segment.sliced(cut);
}

qsizetype addressRunEnd(std::span<const QByteArrayView> segments, qsizetype first)
{
    const auto n = qsizetype(segments.size());
    if (first + 1 >= n || !isAddressGroup(tailPiece(segments[std::size_t(first)])))
        return -1;
    QVarLengthArray<QByteArrayView, 8> groups;
    groups.append(tailPiece(segments[std::size_t(first)]));
    qsizetype best = -1;
    for (qsizetype at = first + 1; at < n && groups.size() < 8; ++at) {
        const QByteArrayView segment = segments[std::size_t(at)];
        const QByteArrayView head = headPiece(segment);
        if (!isAddressGroup(head))
            break;
        groups.append(head);
        if (isAddress(std::span<const QByteArrayView>(groups.data(), std::size_t(groups.size()))))
            best = at;
        if (head.size() != segment.size())
            break; // the segment goes on past the address
    }
    return best;
}

} // namespace keylens::lint
