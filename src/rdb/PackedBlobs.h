#pragma once

#include <QByteArray>
#include <QByteArrayList>
#include <QByteArrayView>

#include <cstdint>
#include <optional>

namespace keylens::rdb {

// The compact encodings Redis saves as one string (a listpack, a ziplist, an intset, a zipmap): their elements are
// counted by walking them, which also checks that every entry lies inside the blob and the blob ends where it says.
// Nothing for a blob that does not hold together (the caller reports it with the file offset).

std::optional<std::uint64_t> listpackEntries(QByteArrayView blob);
std::optional<std::uint64_t> ziplistEntries(QByteArrayView blob);
std::optional<std::uint64_t> intsetEntries(QByteArrayView blob);
// A zipmap's field-value pairs.
std::optional<std::uint64_t> zipmapPairs(QByteArrayView blob);

// The first `count` elements of a listpack, a ziplist or an intset, each cut to `bytes`, integers as their decimal
// text: a set's or list's members, or (`step` 2: every other entry from the first) a sorted set's. Fewer where the blob
// has fewer, or where it stops holding together (the caller has walked it with the counts above first).
QByteArrayList listpackElements(QByteArrayView blob, int count, int bytes, int step = 1);
QByteArrayList ziplistElements(QByteArrayView blob, int count, int bytes, int step = 1);
QByteArrayList intsetElements(QByteArrayView blob, int count);

// LZF, as liblzf writes it (redis-server compresses strings over 20 bytes with it): `size` bytes out, or nothing when
// the input is not a valid LZF stream of that size.
std::optional<QByteArray> lzfDecompress(QByteArrayView in, std::size_t size);
// The first `keep` bytes of an LZF string of `size` bytes, from the first of its compressed bytes (LZF never looks
// ahead: a prefix of keep + keep / 32 + 3 of them is enough); nothing when they do not decompress.
std::optional<QByteArray> lzfDecompressPrefix(QByteArrayView in, std::size_t size, std::size_t keep);

// An LZF stream fed in pieces and walked, keeping none of it: what it would decompress to, counted. A value skipped
// unread is still proved to be as long as it says (redis-server refuses a file where it is not, and a damaged stream
// would otherwise be reported as a key of the size it claims).
class LzfWalk
{
public:
    void feed(QByteArrayView piece);
    bool decompressesTo(std::uint64_t size) const;

private:
    std::uint64_t m_out = 0;
    std::uint64_t m_literalLeft = 0; // bytes of a literal run still to come
    std::size_t m_control = 0;
    std::size_t m_length = 0;
    int m_need = 0; // bytes a back reference still needs: its length's extra byte, its distance's
    bool m_bad = false;
};

} // namespace keylens::rdb
