#pragma once

#include "rdb/Crc64.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <cstdint>

class QIODevice;

namespace keylens::rdb {

// Why a file could not be read past a point: where, and what was expected there.
struct ParseError
{
    std::uint64_t offset = 0;
    QString message;
};

// The bytes of an RDB file, front to back, from any device (a file, standard input): a buffer refilled a megabyte at
// a time, the offset of the next byte, and the CRC-64 of every byte consumed. Reads past the end throw ParseError
// with the offset: a length field that claims more than the file has costs no memory it does not have (readInto()
// grows its output as the bytes arrive).
class RdbInput
{
public:
    // `cancel`, once set, ends a read that waits on a pipe with no bytes (a FIFO before its writer, a stalled gunzip):
    // such a wait wakes every 100 ms to look at it, and fails with "cancelled".
    explicit RdbInput(QIODevice& device, const std::atomic<bool>* cancel = nullptr);

    std::uint8_t byte();
    void read(char* out, std::size_t size);
    // Appends `size` bytes to `out`, a chunk at a time.
    void readInto(QByteArray& out, std::uint64_t size);
    void skip(std::uint64_t size);
    std::uint32_t littleEndian32();
    std::uint64_t littleEndian64();
    std::uint32_t bigEndian32();
    std::uint64_t bigEndian64();

    std::uint64_t offset() const { return m_offset; }
    // The CRC of everything consumed so far (call before reading the trailer).
    std::uint64_t crc();
    // Whether nothing is left (reads ahead).
    bool atEnd();

    [[noreturn]] void fail(const QString& message) const;

private:
    bool refill(); // false at the end
    // On a pipe with nothing buffered: waits until bytes or the writer's end arrive, or `cancel` is set (fails).
    void waitForBytes();
    void consumed(std::size_t size);

    QIODevice& m_device;
    const std::atomic<bool>* m_cancel = nullptr;
    int m_descriptor = -1; // of a pipe read through a QFile, for poll()
    QByteArray m_buffer;
    std::size_t m_position = 0; // in m_buffer
    std::size_t m_crcFrom = 0;  // bytes of m_buffer before this are in m_crc
    std::uint64_t m_offset = 0;
    Crc64 m_crc;
};

} // namespace keylens::rdb
