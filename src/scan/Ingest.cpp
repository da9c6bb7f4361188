#include "scan/Ingest.h"

#include <algorithm>

namespace keylens::scan {

void Ingest::serverInfo(const redis::ServerInfo& info, const ScanOptions& options)
{
    const bool wholeKeyspace = options.match.isEmpty() && options.type.isEmpty();
    if (wholeKeyspace && info.dbsize && *info.dbsize > 0)
        m_store.reserve(static_cast<std::size_t>(*info.dbsize));
}

void Ingest::add(const KeyBatch& batch, std::size_t from, std::size_t to)
{
    to = std::min(to, batch.size());
    for (std::size_t i = from; i < to; ++i) {
        const QByteArrayView key = batch.key(i);
        const keyspace::KeyInfo& info = batch.entries[i].info;
        keyspace::NodeId node = keyspace::InvalidNode;
        if (m_store.insert(key, info, &node) == keyspace::Keyspace::Insert::Duplicate)
            ++m_duplicates;
        else if (m_keyStored)
            m_keyStored(node, key, info);
    }
    m_received += to > from ? to - from : 0;
}

} // namespace keylens::scan
