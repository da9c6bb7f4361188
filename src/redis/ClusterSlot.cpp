#include "redis/ClusterSlot.h"

#include <array>

namespace keylens::redis {

namespace {

constexpr std::array<std::uint16_t, 256> crcTable()
{
    std::array<std::uint16_t, 256> table{};
    for (unsigned byte = 0; byte < 256; ++byte) {
        std::uint16_t crc = std::uint16_t(byte << 8);
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 0x8000) ? std::uint16_t((crc << 1) ^ 0x1021) : std::uint16_t(crc << 1);
        table[byte] = crc;
    }
    return table;
}

constexpr std::array<std::uint16_t, 256> CrcTable = crcTable();

} // namespace

std::uint16_t crc16Xmodem(QByteArrayView bytes)
{
    std::uint16_t crc = 0;
    for (const char c : bytes)
        crc = std::uint16_t((crc << 8) ^ CrcTable[((crc >> 8) ^ std::uint8_t(c)) & 0xff]);
    return crc;
}

std::uint16_t clusterSlot(QByteArrayView key)
{
    const qsizetype open = key.indexOf('{');
    if (open >= 0) {
        const qsizetype close = key.indexOf('}', open + 1);
        if (close > open + 1)
            key = key.sliced(open + 1, close - open - 1);
    }
    return std::uint16_t(crc16Xmodem(key) % ClusterSlots);
}

} // namespace keylens::redis
