#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <optional>

namespace keylens::live {

// What a keyspace event (`__keyevent@0__:<event>`) did to its key, as a person counts it: a write (set, hset, lpush,
// incrby, expire, rename_to, …), a delete (del, unlink, rename_from, move_from), an expiry, an eviction.
enum class KeyEvent { Write, Delete, Expired, Evicted };
inline constexpr int KeyEventCount = 4;

// Nothing for an event that changes no key's existence or value (`new`, which repeats the write after it;
// `keymiss`, a read).
std::optional<KeyEvent> keyEventOf(QByteArrayView eventName);

// The PSUBSCRIBE pattern of every key event of database `db`: `__keyevent@0__:*`.
QByteArray keyEventChannels(int db);
// The event name of one of its channels (`__keyevent@0__:expired` → `expired`); empty for another channel.
QByteArrayView eventNameOf(QByteArrayView channel);

} // namespace keylens::live
