#include "scan/KeyBatch.h"

namespace keylens::scan {

void KeyBatch::add(QByteArrayView key, const keyspace::KeyInfo& info)
{
    entries.push_back({static_cast<std::uint32_t>(keyBytes.size()), static_cast<std::uint32_t>(key.size()), info});
    keyBytes.append(key);
}

} // namespace keylens::scan
