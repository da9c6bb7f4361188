#include "scan/FileValueSamples.h"

#include <algorithm>
#include <utility>

namespace keylens::scan {

namespace {

bool isAlnum(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// A piece that is an id rather than a word: it has a digit, or it is long, or it mixes cases as base64 does.
bool isIdPiece(QByteArrayView piece)
{
    if (std::any_of(piece.begin(), piece.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return true;
    const auto capitals = std::count_if(piece.begin(), piece.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
    return piece.size() >= 20 || (piece.size() >= 6 && capitals >= 2 && capitals < piece.size());
}

} // namespace

QByteArray FileValueSamples::kindOf(QByteArrayView key)
{
    QByteArray kind;
    kind.reserve(key.size());
    for (qsizetype i = 0;;) {
        // One ':'-separated segment at a time.
        const qsizetype colon = key.indexOf(':', i);
        const qsizetype end = colon < 0 ? key.size() : colon;
        const QByteArrayView segment = key.sliced(i, end - i);
        const qsizetype segmentStart = kind.size();
        qsizetype at = 0;
        while (at < segment.size()) {
            if (!isAlnum(segment[at])) {
                kind += segment[at++];
                continue;
            }
            qsizetype pieceEnd = at;
            while (pieceEnd < segment.size() && isAlnum(segment[pieceEnd]))
                ++pieceEnd;
            const QByteArrayView piece = segment.sliced(at, pieceEnd - at);
            if (!isIdPiece(piece)) {
                kind += piece;
                at = pieceEnd;
                continue;
            }
            // An id: the rest of the segment goes with it when ids make up most of it (a base64 token's pieces).
            qsizetype idBytes = 0;
            for (qsizetype j = at; j < segment.size();) {
                qsizetype k = j;
                while (k < segment.size() && isAlnum(segment[k]))
                    ++k;
                if (k > j && isIdPiece(segment.sliced(j, k - j)))
                    idBytes += k - j;
                j = std::max(k, j + 1);
            }
            if (idBytes * 2 >= segment.size() - at) {
                // A token that starts with its own '-' or '_' (base64url) is folded whole too.
                const QByteArrayView before = QByteArrayView(kind).sliced(segmentStart);
                if (std::all_of(before.begin(), before.end(), [](char c) { return c == '-' || c == '_'; }))
                    kind.truncate(segmentStart);
                kind += '#';
                at = segment.size();
                break;
            }
            kind += '#';
            at = pieceEnd;
        }
        if (end >= key.size())
            break;
        kind += ':';
        i = end + 1;
    }
    return kind;
}

FileValueSamples::Kept* FileValueSamples::kindOfKey(QByteArrayView key)
{
    const QByteArray kind = kindOf(key);
    auto it = m_kinds.find(kind);
    if (it == m_kinds.end()) {
        if (m_kinds.size() >= MaximumKinds)
            return nullptr;
        it = m_kinds.insert(kind, {});
    }
    return &*it;
}

bool FileValueSamples::wants(QByteArrayView key, bool expires)
{
    Kept* kind = kindOfKey(key);
    if (!kind)
        return false;
    std::uint8_t& kept = expires ? kind->expiring : kind->persistent;
    if (kept >= (expires ? 1 : 2))
        return false;
    ++kept;
    return true;
}

void FileValueSamples::keep(const QByteArray& key, QByteArray firstBytes)
{
    m_values->insert(key, std::move(firstBytes));
}

std::shared_ptr<const QHash<QByteArray, QByteArray>> FileValueSamples::take()
{
    m_kinds.clear();
    return std::exchange(m_values, std::make_shared<QHash<QByteArray, QByteArray>>());
}

bool FileValueSamples::wantsMembers(QByteArrayView key)
{
    Kept* kind = kindOfKey(key);
    if (!kind || kind->collections >= 2)
        return false;
    ++kind->collections;
    return true;
}

void FileValueSamples::keepMembers(const QByteArray& key, QByteArrayList members)
{
    m_members->insert(key, std::move(members));
}

std::shared_ptr<const QHash<QByteArray, QByteArrayList>> FileValueSamples::takeMembers()
{
    m_kinds.clear();
    return std::exchange(m_members, std::make_shared<QHash<QByteArray, QByteArrayList>>());
}

} // namespace keylens::scan
