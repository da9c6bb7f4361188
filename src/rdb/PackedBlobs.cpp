#include "rdb/PackedBlobs.h"

#include <cstring>
#include <optional>

namespace keylens::rdb {

namespace {

std::uint32_t le32(const unsigned char* p)
{
    return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
}

std::uint16_t le16(const unsigned char* p)
{
    return std::uint16_t(p[0] | p[1] << 8);
}

// The bytes a listpack entry's back-length takes for an entry of `size` bytes (encoding and data).
std::size_t backLengthBytes(std::uint64_t size)
{
    return size < 128 ? 1 : size < 16384 ? 2 : size < 2097152 ? 3 : size < 268435456 ? 4 : 5;
}

// A listpack's or ziplist's header count against the entries walked: 65535 says "too many, count them".
std::optional<std::uint64_t> countAgrees(std::uint16_t declared, std::uint64_t entries)
{
    if (declared != 65535 && declared != entries)
        return std::nullopt;
    return entries;
}

std::int64_t signedLe(const unsigned char* p, int bytes)
{
    std::uint64_t value = 0;
    for (int i = 0; i < bytes; ++i)
        value |= std::uint64_t(p[i]) << (8 * i);
    const int shift = 64 - 8 * bytes; // sign-extend from the top byte
    return std::int64_t(value << shift) >> shift;
}

// One entry of a listpack or a ziplist, as its encoding byte says: `head` bytes of encoding, then `data` bytes (a
// string's, or a ziplist integer's), and its value where it is an integer. The one reading of each format's entries,
// for the walks that count them and those that keep their first elements.
struct PackedEntry
{
    std::uint64_t head = 1;
    std::uint64_t data = 0;
    std::optional<std::int64_t> integer;

    std::uint64_t bytes() const { return head + data; }
};

// The listpack entry at `at` (before its back-length), or nothing where its encoding is none or its header runs into
// the end byte.
std::optional<PackedEntry> listpackEntryAt(const unsigned char* p, std::size_t size, std::size_t at)
{
    const auto fits = [&](std::size_t n) { return at + n <= size - 1; };
    const unsigned char e = p[at];
    PackedEntry entry;
    if ((e & 0x80) == 0) { // 7-bit unsigned integer
        entry.integer = e & 0x7f;
    } else if ((e & 0xc0) == 0x80) { // string up to 63 bytes
        entry.data = e & 0x3f;
    } else if ((e & 0xe0) == 0xc0) { // 13-bit integer
        if (!fits(2))
            return std::nullopt;
        entry.head = 2;
        const std::int64_t raw = std::int64_t(e & 0x1f) << 8 | p[at + 1];
        entry.integer = raw >= 4096 ? raw - 8192 : raw;
    } else if ((e & 0xf0) == 0xe0) { // string up to 4095 bytes
        if (!fits(2))
            return std::nullopt;
        entry.head = 2, entry.data = std::uint64_t(e & 0x0f) << 8 | p[at + 1];
    } else if (e == 0xf0) { // string with a 32-bit length
        if (!fits(5))
            return std::nullopt;
        entry.head = 5, entry.data = le32(p + at + 1);
    } else if (e >= 0xf1 && e <= 0xf4) { // 16, 24, 32 and 64-bit integers
        const int width = e == 0xf1 ? 2 : e == 0xf2 ? 3 : e == 0xf3 ? 4 : 8;
        if (!fits(std::size_t(1 + width)))
            return std::nullopt;
        entry.head = std::uint64_t(1 + width);
        entry.integer = signedLe(p + at + 1, width);
    } else {
        return std::nullopt; // 0xf5-0xfe are unused; 0xff only ends the listpack
    }
    return entry;
}

// The ziplist entry whose encoding byte is at `at` (after the previous entry's length), or nothing where its encoding
// is none or its header runs into the end byte.
std::optional<PackedEntry> ziplistEntryAt(const unsigned char* p, std::size_t size, std::size_t at)
{
    const auto fits = [&](std::size_t n) { return at + n <= size - 1; };
    const unsigned char e = p[at];
    PackedEntry entry;
    switch (e >> 6) {
    case 0:
        entry.data = e & 0x3f;
        break;
    case 1:
        if (!fits(2))
            return std::nullopt;
        entry.head = 2, entry.data = std::uint64_t(e & 0x3f) << 8 | p[at + 1];
        break;
    case 2:
        if (!fits(5))
            return std::nullopt;
        entry.head = 5, entry.data = std::uint64_t(p[at + 1]) << 24 | std::uint64_t(p[at + 2]) << 16 |
                                     std::uint64_t(p[at + 3]) << 8 | p[at + 4];
        break;
    default: {
        // Integers: 16, 32, 64, 24 and 8 bits after the encoding byte, or 0-12 in the encoding byte itself.
        const int width = e == 0xc0 ? 2 : e == 0xd0 ? 4 : e == 0xe0 ? 8 : e == 0xf0 ? 3 : e == 0xfe ? 1 : 0;
        if (width == 0 && !(e >= 0xf1 && e <= 0xfd))
            return std::nullopt;
        if (!fits(std::size_t(1 + width)))
            return std::nullopt;
        entry.integer = width > 0 ? signedLe(p + at + 1, width) : std::int64_t(e & 0x0f) - 1;
        entry.data = std::uint64_t(width);
    }
    }
    return entry;
}

} // namespace

std::optional<std::uint64_t> listpackEntries(QByteArrayView blob)
{
    // Header: total bytes (32 bits), element count (16 bits, 65535: count them); entries; 0xFF.
    const auto* p = reinterpret_cast<const unsigned char*>(blob.data());
    const std::size_t size = std::size_t(blob.size());
    if (size < 7 || le32(p) != size || p[size - 1] != 0xff)
        return std::nullopt;
    const std::uint16_t declared = le16(p + 4);
    std::uint64_t entries = 0;
    std::size_t at = 6;
    while (at < size - 1) {
        const std::optional<PackedEntry> entry = listpackEntryAt(p, size, at);
        if (!entry)
            return std::nullopt;
        at += std::size_t(entry->bytes() + backLengthBytes(entry->bytes()));
        if (at > size - 1)
            return std::nullopt;
        ++entries;
    }
    return countAgrees(declared, entries);
}

std::optional<std::uint64_t> ziplistEntries(QByteArrayView blob)
{
    // Header: total bytes, offset of the last entry (32 bits each), count (16 bits); entries; 0xFF.
    const auto* p = reinterpret_cast<const unsigned char*>(blob.data());
    const std::size_t size = std::size_t(blob.size());
    if (size < 11 || le32(p) != size || p[size - 1] != 0xff)
        return std::nullopt;
    const std::uint16_t declared = le16(p + 8);
    std::uint64_t entries = 0;
    std::size_t at = 10;
    while (at < size - 1) {
        // The previous entry's length: one byte, or 0xFE and four.
        at += p[at] < 254 ? 1 : 5;
        if (at >= size - 1)
            return std::nullopt;
        const std::optional<PackedEntry> entry = ziplistEntryAt(p, size, at);
        if (!entry)
            return std::nullopt;
        at += std::size_t(entry->bytes());
        if (at > size - 1)
            return std::nullopt;
        ++entries;
    }
    return countAgrees(declared, entries);
}

std::optional<std::uint64_t> intsetEntries(QByteArrayView blob)
{
    const auto* p = reinterpret_cast<const unsigned char*>(blob.data());
    if (blob.size() < 8)
        return std::nullopt;
    const std::uint32_t width = le32(p);
    const std::uint32_t count = le32(p + 4);
    if ((width != 2 && width != 4 && width != 8) || std::uint64_t(blob.size()) != 8 + std::uint64_t(width) * count)
        return std::nullopt;
    return count;
}

std::optional<std::uint64_t> zipmapPairs(QByteArrayView blob)
{
    // A count byte (254 and up: count them), then pairs of length-prefixed key and value (a free byte after the
    // value's length, and that many unused bytes after it), then 0xFF.
    const auto* p = reinterpret_cast<const unsigned char*>(blob.data());
    const std::size_t size = std::size_t(blob.size());
    if (size < 2 || p[size - 1] != 0xff)
        return std::nullopt;
    std::size_t at = 1;
    std::uint64_t pairs = 0;
    const auto length = [&](std::uint64_t* out) {
        if (at >= size)
            return false;
        if (p[at] < 254) {
            *out = p[at++];
            return true;
        }
        if (p[at] == 254 && at + 5 <= size) {
            *out = le32(p + at + 1);
            at += 5;
            return true;
        }
        return false;
    };
    while (at < size && p[at] != 0xff) {
        std::uint64_t keyLength = 0;
        std::uint64_t valueLength = 0;
        if (!length(&keyLength) || (at += std::size_t(keyLength)) >= size || !length(&valueLength) || at >= size)
            return std::nullopt;
        const std::size_t free = p[at++];
        at += std::size_t(valueLength) + free;
        if (at >= size)
            return std::nullopt;
        ++pairs;
    }
    if (at != size - 1 || (p[0] < 254 && p[0] != pairs))
        return std::nullopt;
    return pairs;
}

namespace {

// An element kept: a string cut to `bytes`, an integer as its text.
void keep(QByteArrayList& out, const PackedEntry& entry, const unsigned char* start, int bytes)
{
    if (entry.integer)
        out.push_back(QByteArray::number(qlonglong(*entry.integer)));
    else
        out.push_back(QByteArray(reinterpret_cast<const char*>(start + entry.head),
                                 qsizetype(std::min<std::uint64_t>(entry.data, std::uint64_t(bytes)))));
}

} // namespace

QByteArrayList listpackElements(QByteArrayView blob, int count, int bytes, int step)
{
    QByteArrayList out;
    const auto* p = reinterpret_cast<const unsigned char*>(blob.data());
    const std::size_t size = std::size_t(blob.size());
    if (size < 7 || count <= 0)
        return out;
    std::size_t at = 6;
    for (int index = 0; at < size - 1 && out.size() < count; ++index) {
        const std::optional<PackedEntry> entry = listpackEntryAt(p, size, at);
        if (!entry || at + entry->bytes() > size - 1)
            break;
        if (index % step == 0)
            keep(out, *entry, p + at, bytes);
        at += std::size_t(entry->bytes() + backLengthBytes(entry->bytes()));
    }
    return out;
}

QByteArrayList ziplistElements(QByteArrayView blob, int count, int bytes, int step)
{
    QByteArrayList out;
    const auto* p = reinterpret_cast<const unsigned char*>(blob.data());
    const std::size_t size = std::size_t(blob.size());
    if (size < 11 || count <= 0)
        return out;
    std::size_t at = 10;
    for (int index = 0; at < size - 1 && out.size() < count; ++index) {
        at += p[at] < 254 ? 1 : 5; // the previous entry's length
        if (at >= size - 1)
            break;
        const std::optional<PackedEntry> entry = ziplistEntryAt(p, size, at);
        if (!entry || at + entry->bytes() > size - 1)
            break;
        if (index % step == 0)
            keep(out, *entry, p + at, bytes);
        at += std::size_t(entry->bytes());
    }
    return out;
}

QByteArrayList intsetElements(QByteArrayView blob, int count)
{
    QByteArrayList out;
    const auto* p = reinterpret_cast<const unsigned char*>(blob.data());
    if (blob.size() < 8)
        return out;
    const std::uint32_t width = le32(p);
    const std::uint32_t length = le32(p + 4);
    if ((width != 2 && width != 4 && width != 8) || std::uint64_t(blob.size()) < 8 + std::uint64_t(width) * length)
        return out;
    for (std::uint32_t i = 0; i < length && out.size() < count; ++i)
        out.push_back(QByteArray::number(qlonglong(signedLe(p + 8 + std::size_t(width) * i, int(width)))));
    return out;
}

namespace {

// LZF: a control byte below 32 starts a run of control + 1 literal bytes; another is a back reference, its length in
// the top 3 bits (7: one more byte) + 2, its distance in the low 5 bits and the next byte + 1. The first `keep` bytes
// of `size`: where keep covers the whole, every byte must be there and nothing may be left over; where it does not,
// the input may end early (a prefix of the compressed bytes) and the run that crosses `keep` is cut.
std::optional<QByteArray> lzfDecode(QByteArrayView in, std::size_t size, std::size_t keep)
{
    const bool whole = keep >= size;
    const std::size_t wanted = std::min(size, keep);
    // Room for the run or reference that crosses `wanted`: 32 literals or 264 copied bytes at most.
    const std::size_t room = whole ? size : std::min(size, wanted + 264);
    QByteArray out(qsizetype(room), Qt::Uninitialized);
    auto* o = reinterpret_cast<unsigned char*>(out.data());
    const auto* i = reinterpret_cast<const unsigned char*>(in.data());
    const unsigned char* const iEnd = i + in.size();
    std::size_t written = 0;
    const auto finished = [&]() -> std::optional<QByteArray> {
        if (whole && (written != size || i != iEnd))
            return std::nullopt;
        out.truncate(qsizetype(std::min(written, wanted)));
        return out;
    };
    while (i < iEnd && (whole || written < wanted)) {
        const std::size_t control = *i++;
        if (control < 32) {
            std::size_t run = control + 1;
            if (std::size_t(iEnd - i) < run || room - written < run) {
                if (whole)
                    return std::nullopt;
                run = std::min({run, std::size_t(iEnd - i), room - written});
            }
            std::memcpy(o + written, i, run);
            i += run;
            written += run;
            continue;
        }
        // A reference cut off by the end of the input ends a prefix; a whole with one is damaged.
        std::size_t length = control >> 5;
        if (length == 7 && i < iEnd)
            length += *i++;
        else if (length == 7)
            return whole ? std::nullopt : finished();
        length += 2;
        if (i >= iEnd)
            return whole ? std::nullopt : finished();
        const std::size_t distance = ((control & 0x1f) << 8) + *i++ + 1;
        if (distance > written || (whole && room - written < length))
            return std::nullopt;
        for (std::size_t k = 0; k < length && written < room; ++k, ++written) // may overlap: byte by byte
            o[written] = o[written - distance];
    }
    return finished();
}

} // namespace

std::optional<QByteArray> lzfDecompress(QByteArrayView in, std::size_t size)
{
    return lzfDecode(in, size, size);
}

std::optional<QByteArray> lzfDecompressPrefix(QByteArrayView in, std::size_t size, std::size_t keep)
{
    return lzfDecode(in, size, keep);
}

void LzfWalk::feed(QByteArrayView piece)
{
    const auto* p = reinterpret_cast<const unsigned char*>(piece.data());
    const std::size_t n = std::size_t(piece.size());
    std::size_t i = 0;
    while (i < n && !m_bad) {
        if (m_literalLeft > 0) {
            const std::size_t taken = std::size_t(std::min<std::uint64_t>(m_literalLeft, n - i));
            i += taken;
            m_literalLeft -= taken;
            continue;
        }
        const std::size_t byte = p[i++];
        if (m_need == 0) { // a control byte: a literal run, or a back reference's length
            m_control = byte;
            if (byte < 32) {
                m_literalLeft = byte + 1;
                m_out += byte + 1;
            } else {
                m_length = byte >> 5;
                m_need = m_length == 7 ? 2 : 1;
            }
            continue;
        }
        if (m_need == 2) {
            m_length += byte;
            m_need = 1;
            continue;
        }
        const std::size_t distance = ((m_control & 0x1f) << 8) + byte + 1;
        m_bad = distance > m_out; // before anything was written
        m_out += m_length + 2;
        m_need = 0;
    }
}

bool LzfWalk::decompressesTo(std::uint64_t size) const
{
    return !m_bad && m_need == 0 && m_literalLeft == 0 && m_out == size;
}

} // namespace keylens::rdb
