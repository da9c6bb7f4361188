#pragma once

#include <QByteArrayView>

#include <array>
#include <cstdint>

namespace keylens::keyspace {

// The Redis data types Keylens tells apart. `Other` is a type the server named that we do not know
// (module types such as ReJSON-RL); `Unknown` is a key we could not ask about (TYPE was denied).
enum class KeyType : std::uint8_t { String, Hash, List, Set, ZSet, Stream, Other, Unknown };
inline constexpr int KeyTypeCount = 8;

// Lower-case names as TYPE returns them ("zset", "stream"); "other" and "unknown" for the last two.
QByteArrayView keyTypeName(KeyType type);

// Maps a TYPE reply to a KeyType. "none" is not a type (the key vanished): callers check it first.
KeyType keyTypeFromName(QByteArrayView name);

template<typename T> using PerKeyType = std::array<T, KeyTypeCount>;

} // namespace keylens::keyspace
