#include "scan/MemorySampling.h"

namespace keylens::scan {

using keyspace::KeyType;

std::uint64_t elementBound(KeyType type, std::uint64_t memoryBytes)
{
    switch (type) {
    case KeyType::Hash:
        return memoryBytes / 40;
    case KeyType::Set:
        return memoryBytes / 32;
    case KeyType::ZSet:
        return memoryBytes / 80;
    case KeyType::List:
        return memoryBytes / 40;
    case KeyType::Stream:
        return memoryBytes / 24;
    default:
        return 0;
    }
}

MemoryCheck memoryCheckFor(KeyType type, std::uint64_t memoryBytes, std::uint64_t exactCap)
{
    // A module's type (Other) decides what SAMPLES means to it, and is left as the server measured it.
    const bool collection = type == KeyType::Hash || type == KeyType::Set || type == KeyType::ZSet ||
                            type == KeyType::List || type == KeyType::Stream;
    if (!collection || memoryBytes < SampledFromBytes)
        return MemoryCheck::None;
    if (exactCap > 0 && elementBound(type, memoryBytes) <= exactCap)
        return MemoryCheck::Whole;
    return MemoryCheck::WasSampled;
}

QByteArrayView samplesArgument(MemoryCheck check)
{
    static_assert(CheckMemorySamples == 64, "the argument below spells it");
    return check == MemoryCheck::Whole ? QByteArrayView("0") : QByteArrayView("64");
}

} // namespace keylens::scan
