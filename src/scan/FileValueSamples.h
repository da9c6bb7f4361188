#pragma once

#include <QByteArray>
#include <QByteArrayList>
#include <QByteArrayView>
#include <QHash>

#include <cstdint>
#include <memory>

namespace keylens::scan {

// Which string values an RDB file's reading keeps the first bytes of, for a lint's role evidence: a few per kind of
// key (two without a TTL, one with), the kind told by the key's name with its ids folded (`sess:#`,
// `:#:product_#`, `shopfront-cache-#`), up to a cap of kinds; and which sets, sorted sets and lists without a TTL it
// keeps the first members of (two per kind: an index of other keys?). The same evidence a server gives when asked for
// a few keys per pattern, without a second pass over the file.
class FileValueSamples
{
public:
    // Whether to keep this key's first bytes; counts it as kept.
    bool wants(QByteArrayView key, bool expires);
    void keep(const QByteArray& key, QByteArray firstBytes);
    std::shared_ptr<const QHash<QByteArray, QByteArray>> take();
    // The same for a collection without a TTL's first members.
    bool wantsMembers(QByteArrayView key);
    void keepMembers(const QByteArray& key, QByteArrayList members);
    std::shared_ptr<const QHash<QByteArray, QByteArrayList>> takeMembers();

    // A key's kind: its name with every id-like piece folded to '#', and a segment that is mostly ids after its words
    // folded whole (`flask_cache_#`).
    static QByteArray kindOf(QByteArrayView key);

    static constexpr int MaximumKinds = 8192;

private:
    struct Kept
    {
        std::uint8_t persistent = 0;
        std::uint8_t expiring = 0;
        std::uint8_t collections = 0;
    };
    // The kind of a key, counted as one more kept when it may be; nullptr past the cap of kinds.
    Kept* kindOfKey(QByteArrayView key);
    QHash<QByteArray, Kept> m_kinds;
    std::shared_ptr<QHash<QByteArray, QByteArray>> m_values = std::make_shared<QHash<QByteArray, QByteArray>>();
    std::shared_ptr<QHash<QByteArray, QByteArrayList>> m_members =
        std::make_shared<QHash<QByteArray, QByteArrayList>>();
};

} // namespace keylens::scan
