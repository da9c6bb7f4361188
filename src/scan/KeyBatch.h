#pragma once

#include "keyspace/NamespaceStats.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QMetaType>

#include <cstdint>
#include <vector>

namespace keylens::scan {

// One pipeline's worth of inspected keys, handed from the scan thread to the thread that owns the
// store. A value type: all key bytes in one buffer, so a batch of 1000 keys is two allocations.
struct KeyBatch
{
    struct Entry
    {
        std::uint32_t offset = 0;
        std::uint32_t length = 0;
        keyspace::KeyInfo info;
    };

    std::uint64_t jobId = 0;
    QByteArray keyBytes;
    std::vector<Entry> entries;
    std::uint32_t vanished = 0; // keys SCAN returned that were gone by the time we asked about them
    std::uint16_t shard = 0;    // a cluster scan's shard it came from (ScanSummary::shards); 0 for a single server

    void add(QByteArrayView key, const keyspace::KeyInfo& info);
    QByteArrayView key(std::size_t index) const
    {
        return QByteArrayView(keyBytes.constData() + entries[index].offset, entries[index].length);
    }
    std::size_t size() const { return entries.size(); }
};

} // namespace keylens::scan

Q_DECLARE_METATYPE(keylens::scan::KeyBatch)
