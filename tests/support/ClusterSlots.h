#pragma once

#include "PlainClient.h"
#include "redis/ClusterSlot.h"

#include <vector>

namespace keylens::test {

// Which primary's port serves each slot, from CLUSTER SLOTS as a plain client reads it (flattened: start, end,
// then ip, port and id of the primary and of each replica the node knows of, per range).
inline std::vector<quint16> slotPorts(quint16 anyPort)
{
    PlainClient client(anyPort);
    const std::vector<QByteArray> flat = client.elements({"CLUSTER", "SLOTS"});
    std::vector<quint16> ports(redis::ClusterSlots, 0);
    const auto isNumber = [](const QByteArray& text) {
        bool ok = false;
        text.toLongLong(&ok);
        return ok;
    };
    for (std::size_t i = 0; i + 4 < flat.size();) {
        const int first = flat[i].toInt(), last = flat[i + 1].toInt();
        for (int slot = first; slot <= last; ++slot)
            ports[std::size_t(slot)] = quint16(flat[i + 3].toUInt());
        // Past the range's nodes (an address is no number): to the next range's start.
        for (i += 2; i < flat.size() && !isNumber(flat[i]); i += 3)
            ;
    }
    return ports;
}

} // namespace keylens::test
