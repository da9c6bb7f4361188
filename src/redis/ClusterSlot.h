#pragma once

#include <QByteArrayView>

#include <cstdint>

namespace keylens::redis {

// Redis Cluster's 16,384 hash slots.
inline constexpr std::uint16_t ClusterSlots = 16384;

// The slot a key lives in: CRC16 (XMODEM) of the key, or of its hash tag, modulo 16,384. A hash tag is the part
// between the first `{` and the first `}` after it, when that part is not empty (`{user:1}:profile` and
// `{user:1}:settings` share a slot; `{}x` and `x{` hash whole).
std::uint16_t clusterSlot(QByteArrayView key);

// CRC-16/XMODEM (polynomial 0x1021, initial 0), the checksum the slot is taken from.
std::uint16_t crc16Xmodem(QByteArrayView bytes);

} // namespace keylens::redis
