#include "keyspace/SegmentPool.h"

#include <cstring>
#include <optional>

namespace keylens::keyspace {

namespace detail {
std::size_t hashBytes(const char* data, std::size_t size)
{
    std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ size;
    std::size_t i = 0;
    for (; i + 8 <= size; i += 8) {
        std::uint64_t word;
        std::memcpy(&word, data + i, 8);
        h = (h ^ mix64(word)) * 0x100000001b3ULL;
    }
    std::uint64_t tail = 0;
    if (size > i) // data may be null for an empty view
        std::memcpy(&tail, data + i, size - i);
    return mix64(h ^ tail);
}
} // namespace detail

namespace {

constexpr std::size_t BlockSize = 1 << 20;

std::size_t varintSize(std::uint64_t value)
{
    std::size_t bytes = 1;
    while (value >= 0x80) {
        value >>= 7;
        ++bytes;
    }
    return bytes;
}

} // namespace

SegmentPool::SegmentPool() = default;

std::uint64_t SegmentPool::store(QByteArrayView segment)
{
    const auto length = static_cast<std::uint64_t>(segment.size());
    const std::size_t needed = varintSize(length) + static_cast<std::size_t>(length);
    if (m_blocks.empty() || m_lastBlockUsed + needed > m_lastBlockSize) {
        // A segment bigger than a block (a 16 KB key is one segment) gets a block of its own size.
        std::optional<Block> next = needed <= BlockSize ? m_nextBlock.takeIfReady() : std::nullopt;
        m_lastBlockSize = std::max(BlockSize, needed);
        m_blocks.push_back(next ? std::move(*next) : std::make_unique_for_overwrite<char[]>(m_lastBlockSize));
        m_blockBytes += m_lastBlockSize;
        m_lastBlockUsed = 0;
    } else if (m_lastBlockUsed > m_lastBlockSize / 2 && !m_nextBlock.isPending()) {
        // Half way through a block: the next one is touched on the page worker, as PagedArray's next page is (the
        // ids of ten million keys are a hundred such blocks, each 256 fresh pages for the kernel to clear).
        m_nextBlock.start(std::make_unique_for_overwrite<char[]>(BlockSize), [](Block& block) {
            if (!detail::populate(block.get(), BlockSize))
                std::memset(block.get(), 0, BlockSize);
        });
    }
    char* out = m_blocks.back().get() + m_lastBlockUsed;
    std::uint64_t rest = length;
    while (rest >= 0x80) {
        *out++ = static_cast<char>((rest & 0x7f) | 0x80);
        rest >>= 7;
    }
    *out++ = static_cast<char>(rest);
    if (length)
        std::memcpy(out, segment.data(), static_cast<std::size_t>(length));
    const std::uint64_t location = (std::uint64_t(m_blocks.size() - 1) << 32) | m_lastBlockUsed;
    m_lastBlockUsed += needed;
    return location;
}

QByteArrayView SegmentPool::view(SegmentId id) const
{
    const std::uint64_t location = m_locations[id];
    const char* in = m_blocks[location >> 32].get() + (location & 0xffffffffu);
    std::uint64_t length = 0;
    for (int shift = 0;; shift += 7) {
        const auto byte = static_cast<unsigned char>(*in++);
        length |= std::uint64_t(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            break;
    }
    return QByteArrayView(in, static_cast<qsizetype>(length));
}

SegmentId SegmentPool::find(QByteArrayView segment) const
{
    const std::size_t hash = hashOf(segment);
    return m_index.find(hash, [&](SegmentId id) { return view(id) == segment; });
}

std::size_t SegmentPool::hashOf(QByteArrayView segment)
{
    return detail::hashBytes(segment.data(), static_cast<std::size_t>(segment.size()));
}

void SegmentPool::prefetchLocation(std::size_t hash) const
{
    if (const SegmentId id = m_index.candidate(hash); id != detail::IdHashTable::Empty)
        __builtin_prefetch(&m_locations[id]);
}

void SegmentPool::prefetchBytes(std::size_t hash) const
{
    if (const SegmentId id = m_index.candidate(hash); id != detail::IdHashTable::Empty) {
        const std::uint64_t location = m_locations[id];
        __builtin_prefetch(m_blocks[location >> 32].get() + (location & 0xffffffffu));
    }
}

SegmentId SegmentPool::intern(QByteArrayView segment)
{
    return intern(segment, hashOf(segment));
}

SegmentId SegmentPool::intern(QByteArrayView segment, std::size_t hash)
{
    const SegmentId found = m_index.find(hash, [&](SegmentId id) { return view(id) == segment; });
    if (found != detail::IdHashTable::Empty)
        return found;
    const auto id = static_cast<SegmentId>(size());
    m_locations.push_back(store(segment));
    m_index.insert(hash, id, [this](SegmentId other) { return hashOfId(other); });
    return id;
}

void SegmentPool::reserve(std::size_t segments)
{
    m_index.reserve(segments, [this](SegmentId other) { return hashOfId(other); });
}

void SegmentPool::reserveAhead(std::size_t segments)
{
    m_index.reserveAhead(segments);
}

std::size_t SegmentPool::memoryBytes() const
{
    return m_blockBytes + (m_nextBlock.isPending() ? BlockSize : 0) + m_locations.memoryBytes() + m_index.memoryBytes();
}

std::size_t SegmentPool::hashOfId(SegmentId id) const
{
    const QByteArrayView bytes = view(id);
    return detail::hashBytes(bytes.data(), static_cast<std::size_t>(bytes.size()));
}

} // namespace keylens::keyspace
