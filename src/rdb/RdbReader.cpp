#include "rdb/RdbReader.h"

#include "keyspace/KeyEscape.h"
#include "rdb/MemoryModel.h"
#include "rdb/PackedBlobs.h"

#include <QIODevice>

#include <algorithm>
#include <limits>

namespace keylens::rdb {

namespace {

using keyspace::KeyType;

// The RDB format's codes (as redis-server's rdb.h numbers them).
enum Type : std::uint8_t {
    String = 0,
    List = 1,
    Set = 2,
    ZSet = 3,
    Hash = 4,
    ZSet2 = 5,
    ModulePreGa = 6,
    Module2 = 7,
    HashZipmap = 9,
    ListZiplist = 10,
    SetIntset = 11,
    ZSetZiplist = 12,
    HashZiplist = 13,
    ListQuicklist = 14,
    StreamListpacks = 15,
    HashListpack = 16,
    ZSetListpack = 17,
    ListQuicklist2 = 18,
    StreamListpacks2 = 19,
    SetListpack = 20,
    StreamListpacks3 = 21,
    HashMetadataPreGa = 22,
    HashListpackExPreGa = 23,
    HashMetadata = 24,
    HashListpackEx = 25,
};

// Valkey 9 (VALKEY080) gave type 22 a layout of its own, and ends its types there.
constexpr std::uint8_t ValkeyHash2 = 22;
constexpr std::uint8_t ValkeyLastType = ValkeyHash2;

enum Opcode : std::uint8_t {
    SlotImport = 243, // Valkey 9's; Redis 8.6 (RDB 13) gives 243 to key metadata, which this reader does not know
    SlotInfo = 244,
    Function2 = 245,
    FunctionPreGa = 246,
    ModuleAux = 247,
    Idle = 248,
    Freq = 249,
    Aux = 250,
    ResizeDb = 251,
    ExpireTimeMs = 252,
    ExpireTime = 253,
    SelectDb = 254,
    Eof = 255,
};

// Module values are a sequence of typed fields up to an end marker (RDB_MODULE_OPCODE_*).
enum ModuleField : std::uint64_t {
    ModuleEof = 0,
    ModuleSint = 1,
    ModuleUint = 2,
    ModuleFloat = 3,
    ModuleDouble = 4,
    ModuleString = 5
};

constexpr std::uint64_t LongestBlob = 1ULL << 32; // a listpack's or ziplist's own 32-bit length field

// A length field, or the special encoding of a string that follows.
struct Length
{
    std::uint64_t value = 0;
    bool encoded = false; // value is RDB_ENC_INT8/16/32 or LZF
};

class Reader
{
public:
    Reader(QIODevice& device, int db, const RdbCallbacks& callbacks)
        : m_in(device, callbacks.cancel)
        , m_wantedDb(db)
        , m_callbacks(callbacks)
    {}

    RdbSummary run()
    {
        try {
            header();
            body();
        } catch (const ParseError& error) {
            m_summary.error = error;
        }
        m_summary.bytes = m_in.offset();
        headerKnown(); // a file without keys
        return m_summary;
    }

private:
    void header()
    {
        char magic[9];
        try {
            m_in.read(magic, 9);
        } catch (const ParseError&) {
            m_in.fail(QStringLiteral("this is not an RDB file: it is shorter than the 9 bytes of its header"));
        }
        const QByteArrayView head(magic, 9);
        bool ok = false;
        if (head.startsWith("REDIS")) {
            m_summary.version = head.sliced(5).toByteArray().toInt(&ok);
        } else if (head.startsWith("VALKEY")) {
            m_summary.valkey = true;
            m_summary.version = head.sliced(6).toByteArray().toInt(&ok);
        }
        if (!ok)
            throw ParseError{0, QStringLiteral("this is not an RDB file: it starts with \"%1\", not REDIS or VALKEY "
                                               "and a version")
                                    .arg(QString::fromLatin1(keyspace::escapeLikeRedisCli(head)))};
        // Redis wrote versions 1 to 14 (REDIS-FACTS: 13 and 14 by Redis 8.6 and 8.8), Valkey 9 VALKEY080; a server
        // refuses any version past its own. A version no server wrote is refused here, at its offset; 13 and 14 are
        // read as far as they are the format we know, and the first unknown code is named.
        const int lastKnown = m_summary.valkey ? 80 : 14;
        if (m_summary.version < 1 || m_summary.version > lastKnown || (m_summary.valkey && m_summary.version < 80)) {
            const int version = std::exchange(m_summary.version, 0); // no header read: nothing to report of it
            throw ParseError{m_summary.valkey ? 6u : 5u,
                             QStringLiteral("this is not an RDB file any server wrote: its header says version %1 "
                                            "(%2 files go up to %3)")
                                 .arg(version)
                                 .arg(m_summary.valkey ? QStringLiteral("VALKEY") : QStringLiteral("REDIS"))
                                 .arg(lastKnown)};
        }
        if (!m_summary.valkey && m_summary.version > 12)
            m_newer = true;
    }

    void body()
    {
        std::optional<std::int64_t> expiresAtMs;
        std::optional<std::uint64_t> idle;
        std::optional<int> frequency;
        for (;;) {
            if (m_callbacks.cancel && m_callbacks.cancel->load())
                m_in.fail(QStringLiteral("cancelled"));
            const std::uint64_t at = m_in.offset();
            const std::uint8_t code = m_in.byte();
            switch (code) {
            case Eof:
                trailer();
                return;
            case SelectDb: {
                // A server refuses a file with a database past its `databases` (16 unless configured, at most
                // INT_MAX): a number past that names none, and would be cut to another database.
                const std::uint64_t db = length();
                if (db > std::uint64_t(std::numeric_limits<int>::max()))
                    m_in.fail(QStringLiteral("SELECTDB names database %1, which no server can have").arg(db));
                m_db = int(db);
                continue;
            }
            case ResizeDb:
                m_summary.dbSizes.emplace_back(m_db, length());
                length(); // keys with a TTL
                continue;
            case ExpireTime:
                expiresAtMs = std::int64_t(m_in.littleEndian32()) * 1000;
                continue;
            case ExpireTimeMs:
                expiresAtMs = std::int64_t(m_in.littleEndian64());
                continue;
            case Idle:
                idle = length();
                continue;
            case Freq:
                frequency = m_in.byte();
                continue;
            case Aux: {
                QByteArray name = stringBytes();
                QByteArray value = stringBytes();
                auxField(name, value);
                m_summary.aux.emplace_back(std::move(name), std::move(value));
                continue;
            }
            case ModuleAux: {
                length(); // module id
                if (length() != ModuleUint)
                    m_in.fail(QStringLiteral("a module's auxiliary data does not start with its 'when' field"));
                length();
                skipModuleValue();
                continue;
            }
            case Function2:
                skipString();
                ++m_summary.functions;
                continue;
            case FunctionPreGa:
                m_in.fail(QStringLiteral("a function library in the format of Redis 7.0's release candidates "
                                         "(opcode 246), which no released server writes"));
            case SlotInfo: // the slot, its keys, its keys with a TTL (cluster mode)
                length();
                length();
                length();
                continue;
            case SlotImport:
                if (!m_summary.valkey)
                    break;
                skipString(); // the import job's name, then its slot ranges
                for (std::uint64_t ranges = length(); ranges > 0; --ranges) {
                    length();
                    length();
                }
                continue;
            default:
                break;
            }
            if (code > (m_summary.valkey ? ValkeyLastType : std::uint8_t(HashListpackEx))) {
                m_in.fail(QStringLiteral("unknown opcode %1 at offset %2 (the file is RDB version %3%4)")
                              .arg(code)
                              .arg(at)
                              .arg(m_summary.version)
                              .arg(m_newer ? QStringLiteral(", newer than Keylens reads") : QString()));
            }
            headerKnown();
            RdbKey key;
            key.db = m_db;
            key.rdbType = code;
            key.key = stringBytes();
            key.expiresAtMs = std::exchange(expiresAtMs, std::nullopt);
            key.idleSeconds = std::exchange(idle, std::nullopt);
            key.frequency = std::exchange(frequency, std::nullopt);
            const std::uint64_t valueAt = m_in.offset();
            value(code, key);
            key.savedBytes = m_in.offset() - valueAt;
            key.estimatedMemory += memory::key(std::uint64_t(key.key.size()));
            ++m_summary.keys;
            if ((m_wantedDb < 0 || m_wantedDb == key.db) && m_callbacks.key)
                m_callbacks.key(key);
            if (m_callbacks.progress && m_in.offset() - m_progressAt >= (1u << 20)) {
                m_progressAt = m_in.offset();
                m_callbacks.progress(m_progressAt);
            }
        }
    }

    void headerKnown()
    {
        if (std::exchange(m_headerTold, true) || !m_callbacks.header)
            return;
        m_callbacks.header(m_summary);
    }

    void trailer()
    {
        // Versions 5 and later end in a CRC-64 of every byte before it (zero: saved with rdbchecksum no).
        if (m_summary.version >= 5 || m_summary.valkey) {
            const std::uint64_t computed = m_in.crc();
            const std::uint64_t saved = m_in.littleEndian64();
            if (saved != 0) {
                m_summary.checksumChecked = true;
                if (saved != computed)
                    m_in.fail(QStringLiteral("the checksum does not match: the file was damaged after it was written "
                                             "(saved %1, computed %2)")
                                  .arg(saved, 16, 16, QLatin1Char('0'))
                                  .arg(computed, 16, 16, QLatin1Char('0')));
            }
        }
        m_summary.complete = true;
    }

    void auxField(const QByteArray& name, const QByteArray& value)
    {
        if (!isSummarisedAux(name))
            return;
        bool ok = false;
        if (name == "ctime") {
            if (const qlonglong seconds = value.toLongLong(&ok); ok)
                m_summary.savedAtSeconds = seconds;
        } else if (name == "used-mem") {
            if (const qulonglong bytes = value.toULongLong(&ok); ok)
                m_summary.usedMemory = bytes;
        } else if (name == "redis-ver" || name == "valkey-ver") {
            m_summary.redisVersion = value;
        }
    }

    // ---- lengths and strings ----

    Length lengthField()
    {
        const std::uint8_t first = m_in.byte();
        switch (first >> 6) {
        case 0:
            return {first & 0x3fu, false};
        case 1:
            return {std::uint64_t(first & 0x3f) << 8 | m_in.byte(), false};
        case 2:
            if (first == 0x80)
                return {m_in.bigEndian32(), false};
            if (first == 0x81)
                return {m_in.bigEndian64(), false};
            m_in.fail(QStringLiteral("a length field with the unknown form 0x%1").arg(first, 2, 16, QLatin1Char('0')));
        default:
            return {first & 0x3fu, true};
        }
    }

    std::uint64_t length()
    {
        const Length field = lengthField();
        if (field.encoded)
            m_in.fail(QStringLiteral("an encoded string where a length was expected"));
        return field.value;
    }

    // LZF expands at most 88 times (a 3-byte back-reference copies up to 264 bytes): a larger claim is a damaged or
    // crafted length (4 GB from 12 bytes), which redis-server refuses when the string does not decompress to it.
    void checkCompressedClaim(std::uint64_t compressed, std::uint64_t size)
    {
        if (compressed == 0 || size > compressed * 88 + 64)
            m_in.fail(QStringLiteral("a compressed string claims %1 bytes from %2").arg(size).arg(compressed));
    }

    // A string's bytes (keys, AUX fields, blobs).
    QByteArray stringBytes()
    {
        const Length field = lengthField();
        if (!field.encoded) {
            QByteArray bytes;
            m_in.readInto(bytes, field.value);
            return bytes;
        }
        switch (field.value) {
        case 0:
            return QByteArray::number(qint8(m_in.byte()));
        case 1: {
            const std::uint16_t low = m_in.byte();
            return QByteArray::number(qint16(low | std::uint16_t(m_in.byte()) << 8));
        }
        case 2:
            return QByteArray::number(qint32(m_in.littleEndian32()));
        case 3: {
            const std::uint64_t compressed = length();
            const std::uint64_t size = length();
            checkCompressedClaim(compressed, size);
            if (size > LongestBlob)
                m_in.fail(QStringLiteral("a compressed string claims %1 bytes from %2").arg(size).arg(compressed));
            QByteArray packed;
            m_in.readInto(packed, compressed);
            std::optional<QByteArray> plain = lzfDecompress(packed, std::size_t(size));
            if (!plain)
                m_in.fail(QStringLiteral("a compressed string does not decompress"));
            return *plain;
        }
        default:
            m_in.fail(QStringLiteral("a string with the unknown encoding %1").arg(field.value));
        }
    }

    // A string value skipped: its length (what it holds in memory) and whether it is an integer.
    struct Skipped
    {
        std::uint64_t length = 0;
        bool integer = false;
    };
    // `prefix`, when given, receives the first `keep` bytes of the string (a compressed one's decompressed as far as
    // they go); the rest is skipped unread.
    Skipped skipString(QByteArray* prefix = nullptr, std::size_t keep = 0)
    {
        const Length field = lengthField();
        if (!field.encoded) {
            const std::uint64_t kept = prefix ? std::min<std::uint64_t>(keep, field.value) : 0;
            if (kept > 0)
                m_in.readInto(*prefix, kept);
            m_in.skip(field.value - kept);
            return {field.value, false};
        }
        const auto integer = [&](QByteArray text) {
            const std::uint64_t size = std::uint64_t(text.size());
            if (prefix)
                *prefix = std::move(text);
            return Skipped{size, true};
        };
        switch (field.value) {
        case 0:
            return integer(QByteArray::number(qint8(m_in.byte())));
        case 1: {
            const std::uint16_t low = m_in.byte();
            return integer(QByteArray::number(qint16(low | std::uint16_t(m_in.byte()) << 8)));
        }
        case 2:
            return integer(QByteArray::number(qint32(m_in.littleEndian32())));
        case 3: {
            const std::uint64_t compressed = length();
            const std::uint64_t size = length();
            checkCompressedClaim(compressed, size); // skipped unread, yet its size is what the key is said to hold
            const std::uint64_t read =
                prefix && keep > 0 ? std::min<std::uint64_t>(compressed, keep + keep / 32 + 3) : 0;
            LzfWalk walk;
            if (read > 0) {
                QByteArray packed;
                m_in.readInto(packed, read);
                *prefix = lzfDecompressPrefix(packed, std::size_t(size), keep).value_or(QByteArray());
                walk.feed(packed);
            }
            // The rest is read in pieces and walked, not kept: a stream that does not make its length is damaged.
            constexpr std::uint64_t Piece = 64 * 1024;
            for (std::uint64_t left = compressed - read; left > 0;) {
                const std::uint64_t piece = std::min(left, Piece);
                m_lzfPiece.resize(0); // readInto appends; resize(0) keeps the capacity, clear() would not
                m_in.readInto(m_lzfPiece, piece);
                walk.feed(m_lzfPiece);
                left -= piece;
            }
            if (!walk.decompressesTo(size))
                m_in.fail(
                    QStringLiteral("a compressed string does not decompress to the %1 bytes it claims").arg(size));
            return {size, false};
        }
        default:
            m_in.fail(QStringLiteral("a string with the unknown encoding %1").arg(field.value));
        }
    }

    // A packed blob (listpack, ziplist, intset, zipmap): read whole, as it is walked to count its elements.
    QByteArray blob()
    {
        QByteArray bytes = stringBytes();
        if (std::uint64_t(bytes.size()) > LongestBlob)
            m_in.fail(QStringLiteral("a packed value of %1 bytes, more than its format can hold").arg(bytes.size()));
        return bytes;
    }

    std::uint64_t counted(std::optional<std::uint64_t> entries, const char* what)
    {
        if (!entries)
            m_in.fail(
                QStringLiteral("a damaged %1 (its entries do not add up to its length)").arg(QLatin1String(what)));
        return *entries;
    }

    void skipDouble() // a ZSET (version 1) score: a length byte, 253-255 for NaN and infinities, else its text
    {
        const std::uint8_t size = m_in.byte();
        if (size < 253)
            m_in.skip(size);
    }

    void skipModuleValue()
    {
        for (;;) {
            const std::uint64_t field = length();
            switch (field) {
            case ModuleEof:
                return;
            case ModuleSint:
            case ModuleUint:
                length();
                break;
            case ModuleFloat:
                m_in.skip(4);
                break;
            case ModuleDouble:
                m_in.skip(8);
                break;
            case ModuleString:
                skipString();
                break;
            default:
                m_in.fail(QStringLiteral("a module value with the unknown field type %1").arg(field));
            }
        }
    }

    // ---- values ----

    // How many of a collection's first members the callbacks keep (its type set first).
    int membersWanted(const RdbKey& key) const
    {
        return m_callbacks.members && (m_wantedDb < 0 || m_wantedDb == key.db) ? m_callbacks.members(key) : 0;
    }

    // A string element skipped, its first bytes kept in `key.members` while it is among the first `wanted`.
    Skipped memberString(RdbKey& key, int wanted)
    {
        if (key.members.size() >= wanted)
            return skipString();
        QByteArray member;
        const Skipped s = skipString(&member, std::size_t(std::max(1, m_callbacks.memberBytes)));
        key.members.push_back(std::move(member));
        return s;
    }

    void value(std::uint8_t code, RdbKey& key)
    {
        switch (code) {
        case String: {
            key.type = KeyType::String;
            const int keep =
                m_callbacks.valueBytes && (m_wantedDb < 0 || m_wantedDb == key.db) ? m_callbacks.valueBytes(key) : 0;
            const Skipped s = keep > 0 ? skipString(&key.valuePrefix, std::size_t(keep)) : skipString();
            key.type = KeyType::String;
            key.elements = s.length;
            // Loaded, a string of digits that fits a long is stored as an integer.
            key.estimatedMemory = memory::string(s.length, s.integer);
            return;
        }
        case List:
        case Set: {
            key.type = code == List ? KeyType::List : KeyType::Set;
            const int wanted = membersWanted(key);
            key.elements = length();
            std::uint64_t entries = 0;
            std::uint64_t bytes = 0;
            for (std::uint64_t i = 0; i < key.elements; ++i) {
                const Skipped s = memberString(key, wanted);
                entries += memory::sds(s.length);
                bytes += s.length + 2;
            }
            // A list saved this way (before quicklists) loads into listpack nodes; a set into a hash table.
            key.estimatedMemory = code == List ? memory::quicklist(bytes / 8192 + 1, bytes + 11)
                                               : memory::hashTable(key.elements, entries);
            return;
        }
        case ZSet:
        case ZSet2: {
            key.type = KeyType::ZSet;
            const int wanted = membersWanted(key);
            key.elements = length();
            std::uint64_t members = 0;
            for (std::uint64_t i = 0; i < key.elements; ++i) {
                members += memory::sds(memberString(key, wanted).length);
                if (code == ZSet)
                    skipDouble();
                else
                    m_in.skip(8);
            }
            key.estimatedMemory = memory::skiplist(key.elements, members);
            return;
        }
        case HashMetadataPreGa:
            if (m_summary.valkey) {
                valkeyHash2(key);
                return;
            }
            [[fallthrough]];
        case Hash:
        case HashMetadata: {
            key.type = KeyType::Hash;
            if (code == HashMetadata)
                m_in.skip(8); // the soonest field expiry
            key.elements = length();
            std::uint64_t entries = 0;
            for (std::uint64_t i = 0; i < key.elements; ++i) {
                if (code != Hash)
                    length(); // the field's TTL
                entries += memory::sds(skipString().length);
                entries += memory::sds(skipString().length);
            }
            key.estimatedMemory = memory::hashTable(key.elements, entries);
            return;
        }
        case ModulePreGa:
            m_in.fail(QStringLiteral("a module value in the format of Redis 4.0's release candidates (type 6): "
                                     "without its module it cannot be skipped"));
        case Module2: {
            key.type = KeyType::Other;
            length(); // the module's id: its name and version
            const std::uint64_t from = m_in.offset();
            skipModuleValue();
            key.estimatedMemory = 16 + memory::allocation(m_in.offset() - from);
            return;
        }
        case HashZipmap: {
            key.type = KeyType::Hash;
            const QByteArray bytes = blob();
            key.elements = counted(zipmapPairs(bytes), "zipmap");
            key.estimatedMemory = memory::packed(std::uint64_t(bytes.size()));
            return;
        }
        case ListZiplist:
        case ZSetZiplist:
        case HashZiplist: {
            key.type = code == ListZiplist ? KeyType::List : code == ZSetZiplist ? KeyType::ZSet : KeyType::Hash;
            const int wanted = code == HashZiplist ? 0 : membersWanted(key);
            const QByteArray bytes = blob();
            const std::uint64_t entries = counted(ziplistEntries(bytes), "ziplist");
            if (wanted > 0)
                key.members = ziplistElements(bytes, wanted, m_callbacks.memberBytes, code == ZSetZiplist ? 2 : 1);
            key.elements = code == ListZiplist ? entries : entries / 2;
            // Loaded as a listpack of about the same size (a list: a quicklist of one node).
            key.estimatedMemory = code == ListZiplist
                                      ? memory::quicklist(1, memory::allocation(std::uint64_t(bytes.size())))
                                      : memory::packed(std::uint64_t(bytes.size()));
            return;
        }
        case SetIntset: {
            key.type = KeyType::Set;
            const int wanted = membersWanted(key);
            const QByteArray bytes = blob();
            key.elements = counted(intsetEntries(bytes), "intset");
            if (wanted > 0)
                key.members = intsetElements(bytes, wanted);
            key.estimatedMemory = memory::packed(std::uint64_t(bytes.size()));
            return;
        }
        case SetListpack:
        case ZSetListpack:
        case HashListpack:
        case HashListpackExPreGa:
        case HashListpackEx: {
            key.type = code == SetListpack ? KeyType::Set : code == ZSetListpack ? KeyType::ZSet : KeyType::Hash;
            if (code == HashListpackEx)
                m_in.skip(8); // the soonest field expiry
            const int wanted = key.type == KeyType::Hash ? 0 : membersWanted(key);
            const QByteArray bytes = blob();
            const std::uint64_t entries = counted(listpackEntries(bytes), "listpack");
            if (wanted > 0)
                key.members = listpackElements(bytes, wanted, m_callbacks.memberBytes, code == ZSetListpack ? 2 : 1);
            const std::uint64_t per = code == SetListpack                                     ? 1
                                      : code == HashListpackEx || code == HashListpackExPreGa ? 3
                                                                                              : 2;
            key.elements = entries / per;
            key.estimatedMemory = memory::packed(std::uint64_t(bytes.size()));
            if (per == 3) // a listpackEx: the listpack and a small struct beside it
                key.estimatedMemory += memory::allocation(24);
            return;
        }
        case ListQuicklist:
        case ListQuicklist2: {
            key.type = KeyType::List;
            const int wanted = membersWanted(key);
            const std::uint64_t nodes = length();
            std::uint64_t nodeBytes = 0;
            for (std::uint64_t i = 0; i < nodes; ++i) {
                const std::uint64_t container = code == ListQuicklist2 ? length() : 2;
                if (container == 1) { // PLAIN: one big element, kept as it is
                    const Skipped s = memberString(key, wanted);
                    ++key.elements;
                    nodeBytes += memory::allocation(s.length);
                    continue;
                }
                if (container != 2)
                    m_in.fail(QStringLiteral("a quicklist node of the unknown kind %1").arg(container));
                const QByteArray bytes = blob();
                key.elements += code == ListQuicklist2 ? counted(listpackEntries(bytes), "listpack")
                                                       : counted(ziplistEntries(bytes), "ziplist");
                if (const int more = wanted - int(key.members.size()); more > 0)
                    key.members += code == ListQuicklist2 ? listpackElements(bytes, more, m_callbacks.memberBytes)
                                                          : ziplistElements(bytes, more, m_callbacks.memberBytes);
                nodeBytes += memory::allocation(std::uint64_t(bytes.size()));
            }
            key.estimatedMemory = memory::quicklist(nodes, nodeBytes);
            return;
        }
        case StreamListpacks:
        case StreamListpacks2:
        case StreamListpacks3:
            stream(code, key);
            return;
        default:
            m_in.fail(QStringLiteral("unknown value type %1").arg(code));
        }
    }

    // Valkey 9's hash with field expiries (RDB_TYPE_HASH_2): its fields, each a field, a value and the field's
    // absolute expiry in ms as a little-endian int64 (-1: none). Loaded, a hash table whose entries carry the expiry.
    void valkeyHash2(RdbKey& key)
    {
        key.type = KeyType::Hash;
        key.elements = length();
        std::uint64_t entries = 0;
        for (std::uint64_t i = 0; i < key.elements; ++i) {
            entries += memory::sds(skipString().length + 8);
            entries += memory::sds(skipString().length);
            m_in.skip(8);
        }
        key.estimatedMemory = memory::hashTable(key.elements, entries);
    }

    void stream(std::uint8_t code, RdbKey& key)
    {
        key.type = KeyType::Stream;
        const std::uint64_t listpacks = length();
        std::uint64_t listpackBytes = 0;
        std::uint64_t last = 0;
        memory::StreamIdTree nodes;
        for (std::uint64_t i = 0; i < listpacks; ++i) {
            const QByteArray id = stringBytes();
            if (id.size() != memory::StreamIdTree::IdBytes)
                m_in.fail(QStringLiteral("a stream node's key is not a 16-byte entry ID"));
            nodes.add(id.constData());
            const QByteArray bytes = blob();
            counted(listpackEntries(bytes), "listpack");
            last = std::uint64_t(bytes.size());
            listpackBytes += memory::allocation(last);
        }
        if (listpacks > 0) // as the server that wrote it holds the newest node: with room for the entries to come
            key.preallocatedMemory = memory::streamNodePreallocation(last);
        listpackBytes += key.preallocatedMemory;
        key.elements = length(); // entries
        length();                // last ID
        length();
        if (code >= StreamListpacks2) {
            for (int i = 0; i < 5; ++i) // first ID, the greatest deleted ID, entries added
                length();
        }
        key.estimatedMemory = memory::stream(nodes, listpackBytes);
        const std::uint64_t groups = length();
        for (std::uint64_t g = 0; g < groups; ++g) {
            skipString(); // name
            length();     // last delivered ID
            length();
            if (code >= StreamListpacks2)
                length(); // entries read
            const std::uint64_t groupPending = length();
            memory::StreamIdTree pending;
            char id[memory::StreamIdTree::IdBytes];
            for (std::uint64_t p = 0; p < groupPending; ++p) {
                m_in.read(id, sizeof id);
                pending.add(id);
                m_in.skip(8); // delivery time
                length();     // delivery count
            }
            key.estimatedMemory += memory::consumerGroup(pending);
            const std::uint64_t groupConsumers = length();
            for (std::uint64_t c = 0; c < groupConsumers; ++c) {
                const std::uint64_t nameLength = skipString().length;
                m_in.skip(code >= StreamListpacks3 ? 16 : 8); // seen time (and active time)
                const std::uint64_t owned = length();
                if (owned > groupPending)
                    m_in.fail(QStringLiteral("a stream consumer owns more pending entries than its group has"));
                memory::StreamIdTree ownedIds;
                for (std::uint64_t p = 0; p < owned; ++p) {
                    m_in.read(id, sizeof id);
                    ownedIds.add(id);
                }
                key.estimatedMemory += memory::consumer(nameLength, ownedIds);
            }
        }
    }

    RdbInput m_in;
    QByteArray m_lzfPiece; // the piece of a compressed value being walked, its buffer reused
    int m_wantedDb;
    const RdbCallbacks& m_callbacks;
    bool m_headerTold = false;
    RdbSummary m_summary;
    int m_db = 0;
    bool m_newer = false;
    std::uint64_t m_progressAt = 0;
};

} // namespace

RdbSummary readRdb(QIODevice& device, int db, const RdbCallbacks& callbacks)
{
    return Reader(device, db, callbacks).run();
}

bool isSummarisedAux(QByteArrayView name)
{
    return name == "redis-ver" || name == "valkey-ver" || name == "ctime" || name == "used-mem";
}

} // namespace keylens::rdb
