#pragma once

#include "keyspace/Keyspace.h"
#include "keyspace/NamespaceStats.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <utility>
#include <vector>

namespace keylens::lint {

// The rules behind the tree's "big key" and "missing TTL" overlays, in one place: the model decides
// with them, and the legend, the tooltips and the details pane explain them with the texts below.

// big-string / big-collection: values that block the server while they are read, copied or deleted.
inline constexpr std::uint64_t BigStringBytes = 10 * 1024;
inline constexpr std::uint64_t BigCollectionElements = 5000;
// A collection of more than BigCollectionElements takes more than this however it is encoded (the most
// compact, a listpack of small integers, needs about 2 bytes an element): only collections above it are
// worth asking for their length.
inline constexpr std::uint64_t BigCollectionMinimumBytes = 10 * 1024;

bool isCollection(keyspace::KeyType type);
// A string value of `bytes` (its length, or MEMORY USAGE when the length is not known).
bool isBigString(std::uint64_t bytes);
bool isBigCollection(std::uint64_t elements);
// A scanned string key whose value may be big, before its length is known: MEMORY USAGE less the key's
// own bytes, which it includes (a 16 KB key name with a short value is a long key, not a big string).
bool isBigStringKey(const keyspace::KeyInfo& key, std::size_t keyBytes);
// A key's length (STRLEN, or the collection's element count) says whether it is big.
bool isBigKey(keyspace::KeyType type, std::uint64_t length);
// Whether a scanned key may be big, so that its length is worth one O(1) command (STRLEN, HLEN…):
// MEMORY USAGE rounds up to the allocator's size classes, so a 9 KB string can measure above 10 KB.
// A string or collection whose memory was not measured (MEMORY USAGE denied) may be big too.
bool mayBeBigKey(const keyspace::KeyInfo& key, std::size_t keyBytes);
// The keys of a store that mayBeBigKey(), at most `maximum` of them (usually a few dozen; every string
// and collection when MEMORY USAGE was denied), with the name and type that asking their length needs:
// the browser and keylens-cli lint ask the server with these.
inline constexpr std::size_t BigKeyCandidatesMaximum = 100'000;
struct BigKeyCandidates
{
    std::vector<keyspace::NodeId> nodes;
    std::vector<std::pair<QByteArray, keyspace::KeyType>> keys; // parallel to nodes
};
BigKeyCandidates bigKeyCandidates(const keyspace::Keyspace& store, std::size_t maximum = BigKeyCandidatesMaximum);

// missing-ttl among expiring keys: a key without a TTL beside siblings that mostly expire (the forgotten
// cache entry), and a namespace that holds such keys. Keys whose TTL was not measured count neither way.
bool lacksTtlAmongExpiring(const keyspace::KeyInfo& key, const keyspace::NamespaceStats& siblings);
bool hasKeysLackingTtlAmongExpiring(const keyspace::NamespaceStats& stats);
// The linter's stricter form: a persistent key among at least 10 measured siblings of which 90% expire.
bool isStrayPersistent(const keyspace::KeyInfo& key, const keyspace::NamespaceStats& siblings);
// The same from the siblings' counts: keys whose TTL was measured, and those with a TTL.
bool isStrayPersistent(const keyspace::KeyInfo& key, std::uint32_t siblingsTtlKnown, std::uint32_t siblingsWithTtl);

// What an overlay means, for the legend (title and explanation) and tooltips ("title: explanation").
struct OverlayText
{
    QString title;
    QString explanation;
};
OverlayText bigKeyText();
OverlayText missingTtlText();
// How the browser finds big collections without opening them, for the legend.
QString bigCollectionProbeText();

} // namespace keylens::lint
