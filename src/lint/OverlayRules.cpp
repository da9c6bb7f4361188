#include "lint/OverlayRules.h"

#include <QLocale>

namespace keylens::lint {

using keyspace::KeyType;

bool isCollection(KeyType type)
{
    return type == KeyType::Hash || type == KeyType::List || type == KeyType::Set || type == KeyType::ZSet ||
           type == KeyType::Stream;
}

bool isBigString(std::uint64_t bytes)
{
    return bytes > BigStringBytes;
}

bool isBigStringKey(const keyspace::KeyInfo& key, std::size_t keyBytes)
{
    return key.type == keyspace::KeyType::String && key.memoryMeasured &&
           isBigString(key.memoryBytes - std::min<std::uint64_t>(key.memoryBytes, keyBytes));
}

bool isBigCollection(std::uint64_t elements)
{
    return elements > BigCollectionElements;
}

bool isBigKey(keyspace::KeyType type, std::uint64_t length)
{
    return type == keyspace::KeyType::String ? isBigString(length) : isCollection(type) && isBigCollection(length);
}

bool mayBeBigKey(const keyspace::KeyInfo& key, std::size_t keyBytes)
{
    const bool measurable = key.type == keyspace::KeyType::String || isCollection(key.type);
    if (measurable && !key.memoryMeasured)
        return true; // unknown is not small: only its length can tell
    return isBigStringKey(key, keyBytes) ||
           (isCollection(key.type) && key.memoryMeasured && key.memoryBytes > BigCollectionMinimumBytes);
}

BigKeyCandidates bigKeyCandidates(const keyspace::Keyspace& store, std::size_t maximum)
{
    BigKeyCandidates candidates;
    for (keyspace::NodeId node = 1; node < store.nodeCount() && candidates.nodes.size() < maximum; ++node) {
        if (!store.isKey(node))
            continue;
        // The key's own bytes count only against a string that is big with them: its path is walked for those
        // alone (walking every key's was a twentieth of a second at a million keys).
        const keyspace::KeyInfo info = store.keyInfo(node);
        const bool bigWithItsName =
            info.type == keyspace::KeyType::String && info.memoryMeasured && isBigString(info.memoryBytes);
        if (mayBeBigKey(info, bigWithItsName ? store.pathLength(node) : 0))
            candidates.nodes.push_back(node);
    }
    candidates.keys.reserve(candidates.nodes.size());
    for (const keyspace::NodeId node : candidates.nodes)
        candidates.keys.emplace_back(store.path(node), store.keyInfo(node).type);
    return candidates;
}

bool lacksTtlAmongExpiring(const keyspace::KeyInfo& key, const keyspace::NamespaceStats& siblings)
{
    return key.expiresAtMs == keyspace::NoExpiry && siblings.keysWithTtl * 2 > siblings.keysTtlKnown();
}

bool hasKeysLackingTtlAmongExpiring(const keyspace::NamespaceStats& stats)
{
    return stats.keysWithTtl * 2 > stats.keysTtlKnown() && stats.keysWithoutTtl() > 0;
}

bool isStrayPersistent(const keyspace::KeyInfo& key, const keyspace::NamespaceStats& siblings)
{
    return isStrayPersistent(key, siblings.keysTtlKnown(), siblings.keysWithTtl);
}

bool isStrayPersistent(const keyspace::KeyInfo& key, std::uint32_t siblingsTtlKnown, std::uint32_t siblingsWithTtl)
{
    return key.expiresAtMs == keyspace::NoExpiry && siblingsTtlKnown >= 10 &&
           std::uint64_t(siblingsWithTtl) * 10 >= std::uint64_t(siblingsTtlKnown) * 9;
}

OverlayText bigKeyText()
{
    return {QStringLiteral("Big key"),
            QStringLiteral("A string above %1 KB, or a hash, list, set, sorted set or stream above %2 elements. Big "
                           "keys block the server while they are read, copied or deleted.")
                .arg(BigStringBytes / 1024)
                .arg(QLocale(QLocale::English).toString(qulonglong(BigCollectionElements)))};
}

OverlayText missingTtlText()
{
    return {QStringLiteral("Missing TTL"),
            QStringLiteral("Most keys of this namespace expire, these do not: often a cache entry written without its "
                           "expiry, which stays until memory runs out.")};
}

QString bigCollectionProbeText()
{
    return QStringLiteral("After a scan, collections above %1 KB are asked for their length (one O(1) command each).")
        .arg(BigCollectionMinimumBytes / 1024);
}

} // namespace keylens::lint
