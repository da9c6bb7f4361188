#pragma once

#include <cstddef>
#include <cstdint>

namespace keylens::rdb {

// The CRC-64 an RDB file ends with: Jones's polynomial (0xad93d23594c935a9), reflected, initial value 0, no final
// xor, as redis-server computes it over every byte before the trailer. "123456789" gives 0xe9c6d914c4b8d9ca.
class Crc64
{
public:
    void update(const char* data, std::size_t size);
    std::uint64_t value() const { return m_crc; }

private:
    std::uint64_t m_crc = 0;
};

} // namespace keylens::rdb
