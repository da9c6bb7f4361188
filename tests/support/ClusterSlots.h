#pragma once

#include "PlainClient.h"
#include "redis/ClusterSlot.h"

#include <vector>

namespace keylens::test {

// Which port serves each slot of a cluster without replicas, from CLUSTER SLOTS as a plain client reads it
// (flattened: start, end, ip, port, id per range).
inline std::vector<quint16> slotPorts(quint16 anyPort)
{
    PlainClient client(anyPort);
    const std::vector<QByteArray> flat = client.elements({"CLUSTER", "SLOTS"});
    std::vector<quint16> ports(redis::ClusterSlots, 0);
    for (std::size_t i = 0; i + 4 < flat.size(); i += 5) {
        for (int slot = flat[i].toInt(); slot <= flat[i + 1].toInt(); ++slot)
            ports[std::size_t(slot)] = quint16(flat[i + 3].toUInt());
    }
    return ports;
}

} // namespace keylens::test
