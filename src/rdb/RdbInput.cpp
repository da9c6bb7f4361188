#include "rdb/RdbInput.h"

#include <QFileDevice>
#include <QIODevice>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <poll.h>
#include <unistd.h>

namespace keylens::rdb {

namespace {

constexpr qint64 ChunkBytes = 1 << 20;

} // namespace

RdbInput::RdbInput(QIODevice& device, const std::atomic<bool>* cancel)
    : m_device(device)
    , m_cancel(cancel)
{
    if (const auto* file = qobject_cast<const QFileDevice*>(&device); file && device.isSequential())
        m_descriptor = file->handle();
}

void RdbInput::waitForBytes()
{
    if (m_descriptor < 0)
        return;
    for (;;) {
        if (m_cancel && m_cancel->load())
            fail(QStringLiteral("cancelled"));
        pollfd wanted{m_descriptor, POLLIN, 0};
        const int ready = ::poll(&wanted, 1, 100);
        if (ready > 0)
            return; // bytes, or the writer's end (POLLHUP): read() tells which
        if (ready < 0 && errno != EINTR)
            return; // let read() report it
    }
}

void RdbInput::fail(const QString& message) const
{
    throw ParseError{m_offset, message};
}

bool RdbInput::refill()
{
    // What was consumed goes into the CRC before the buffer is replaced.
    m_crc.update(m_buffer.constData() + m_crcFrom, m_position - m_crcFrom);
    m_buffer.resize(ChunkBytes);
    qint64 got = 0;
    // A pipe gives what it has: wait for more until the writer closes it.
    while (got == 0) {
        if (m_descriptor >= 0) {
            // A pipe is read straight from its descriptor: QFile's read waits to fill the whole megabyte, which a
            // stalled writer never does, and no cancel could end that wait.
            waitForBytes();
            got = ::read(m_descriptor, m_buffer.data(), std::size_t(ChunkBytes));
            if (got < 0 && errno == EINTR)
                got = 0;
            else if (got < 0)
                fail(
                    QStringLiteral("the file could not be read: %1").arg(QString::fromLocal8Bit(std::strerror(errno))));
            else if (got == 0)
                break; // the writer closed it
            continue;
        }
        got = m_device.read(m_buffer.data(), ChunkBytes);
        if (got < 0)
            fail(QStringLiteral("the file could not be read: %1").arg(m_device.errorString()));
        if (got == 0 && (m_device.atEnd() && !m_device.isSequential()))
            break;
        if (got == 0 && !m_device.waitForReadyRead(-1))
            break;
    }
    m_buffer.resize(got);
    m_position = 0;
    m_crcFrom = 0;
    return got > 0;
}

void RdbInput::consumed(std::size_t size)
{
    m_position += size;
    m_offset += size;
}

bool RdbInput::atEnd()
{
    return m_position >= std::size_t(m_buffer.size()) && !refill();
}

std::uint8_t RdbInput::byte()
{
    if (m_position >= std::size_t(m_buffer.size()) && !refill())
        fail(QStringLiteral("the file ends here, in the middle of a record"));
    const auto value = std::uint8_t(m_buffer[qsizetype(m_position)]);
    consumed(1);
    return value;
}

void RdbInput::read(char* out, std::size_t size)
{
    while (size > 0) {
        if (m_position >= std::size_t(m_buffer.size()) && !refill())
            fail(QStringLiteral("the file ends here, %1 bytes short of a record").arg(size));
        const std::size_t take = std::min(size, std::size_t(m_buffer.size()) - m_position);
        std::memcpy(out, m_buffer.constData() + m_position, take);
        consumed(take);
        out += take;
        size -= take;
    }
}

void RdbInput::readInto(QByteArray& out, std::uint64_t size)
{
    while (size > 0) {
        if (m_position >= std::size_t(m_buffer.size()) && !refill())
            fail(QStringLiteral("the file ends here, %1 bytes short of a value").arg(size));
        const std::size_t take = std::size_t(std::min<std::uint64_t>(size, std::size_t(m_buffer.size()) - m_position));
        out.append(m_buffer.constData() + m_position, qsizetype(take));
        consumed(take);
        size -= take;
    }
}

void RdbInput::skip(std::uint64_t size)
{
    while (size > 0) {
        if (m_position >= std::size_t(m_buffer.size()) && !refill())
            fail(QStringLiteral("the file ends here, %1 bytes short of a value").arg(size));
        const std::size_t take = std::size_t(std::min<std::uint64_t>(size, std::size_t(m_buffer.size()) - m_position));
        consumed(take);
        size -= take;
    }
}

std::uint32_t RdbInput::littleEndian32()
{
    unsigned char b[4];
    read(reinterpret_cast<char*>(b), 4);
    return std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 | std::uint32_t(b[3]) << 24;
}

std::uint64_t RdbInput::littleEndian64()
{
    const std::uint64_t low = littleEndian32();
    return low | std::uint64_t(littleEndian32()) << 32;
}

std::uint32_t RdbInput::bigEndian32()
{
    unsigned char b[4];
    read(reinterpret_cast<char*>(b), 4);
    return std::uint32_t(b[3]) | std::uint32_t(b[2]) << 8 | std::uint32_t(b[1]) << 16 | std::uint32_t(b[0]) << 24;
}

std::uint64_t RdbInput::bigEndian64()
{
    const std::uint64_t high = bigEndian32();
    return high << 32 | bigEndian32();
}

std::uint64_t RdbInput::crc()
{
    m_crc.update(m_buffer.constData() + m_crcFrom, m_position - m_crcFrom);
    m_crcFrom = m_position;
    return m_crc.value();
}

} // namespace keylens::rdb
