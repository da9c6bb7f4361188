#include "edit/BackupFile.h"

#include "keyspace/KeyEscape.h"

#include <QDateTime>
#include <QFile>
#include <QtEndian>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <unistd.h>
#include <zlib.h>

namespace keylens::edit {

namespace {

using redis::Error;
using redis::ErrorKind;
using redis::Status;

constexpr char Magic[] = "KEYLENS-BACKUP\n";
constexpr qsizetype MagicSize = sizeof(Magic) - 1;
constexpr std::uint8_t Version = 2; // 2 added the plan (action, planned keys) to the header
constexpr std::uint8_t OldestVersion = 1;
constexpr char KeyTag = 'K';
constexpr char EndTag = 'E';
// A header field (the source, the action) is a few bytes; more is damage, not a name.
constexpr std::uint32_t LargestHeaderField = 64 * 1024;
// take() reads in steps of this, so a damaged length never asks for more memory than the stream has.
constexpr qsizetype ReadStep = 1 << 20;

gzFile handle(void* file)
{
    return static_cast<gzFile>(file);
}

template<typename Number> void append(QByteArray& out, Number value)
{
    char bytes[sizeof(Number)];
    qToLittleEndian(value, bytes);
    out.append(bytes, sizeof(Number));
}

template<typename Number> Number number(const QByteArray& bytes)
{
    return qFromLittleEndian<Number>(bytes.constData());
}

} // namespace

BackupWriter::~BackupWriter()
{
    if (m_file)
        gzclose(handle(m_file)); // unfinished: the file stays, and reads as incomplete
}

Error BackupWriter::failure(const QString& what) const
{
    return Error{ErrorKind::Usage, QStringLiteral("Could not %1 the backup file %2: %3")
                                       .arg(what, m_path, QString::fromLocal8Bit(std::strerror(errno)))};
}

Status BackupWriter::open(const QString& path, const QByteArray& source, const BackupPlan& plan)
{
    m_path = path;
    // O_EXCL: a backup never replaces another one, which may be the only copy of keys deleted earlier.
    m_descriptor = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (m_descriptor < 0)
        return errno == EEXIST ? Error{ErrorKind::Usage,
                                       QStringLiteral("The backup file %1 exists already; Keylens never overwrites a "
                                                      "backup. Choose another name.")
                                           .arg(path)}
                               : failure(QStringLiteral("create"));
    const int writing = ::dup(m_descriptor); // gzclose closes its own descriptor; ours is for fsync
    m_file = gzdopen(writing, "wb6");
    if (!m_file) {
        ::close(writing);
        return failure(QStringLiteral("open"));
    }
    QByteArray header(Magic, MagicSize);
    header.append(char(Version));
    append<std::int64_t>(header, QDateTime::currentMSecsSinceEpoch());
    append<std::uint32_t>(header, std::uint32_t(source.size()));
    header.append(source);
    append<std::uint32_t>(header, std::uint32_t(plan.action.size()));
    header.append(plan.action);
    append<std::uint64_t>(header, plan.plannedKeys);
    if (Status written = put(header); !written)
        return written;
    return sync();
}

Status BackupWriter::put(const QByteArray& bytes)
{
    if (!m_file)
        return Error{ErrorKind::Usage, QStringLiteral("The backup file is not open")};
    if (bytes.isEmpty())
        return {};
    if (gzwrite(handle(m_file), bytes.constData(), unsigned(bytes.size())) != int(bytes.size())) {
        m_failed = true;
        return failure(QStringLiteral("write"));
    }
    return {};
}

Status BackupWriter::write(const BackupRecord& record)
{
    if (std::uint64_t(record.payload.size()) > std::numeric_limits<std::uint32_t>::max())
        return Error{ErrorKind::Unsupported, QStringLiteral("A value over 4 GiB cannot be backed up")};
    QByteArray bytes;
    bytes.reserve(1 + 4 + record.key.size() + 8 + 4 + record.payload.size());
    bytes.append(KeyTag);
    append<std::uint32_t>(bytes, std::uint32_t(record.key.size()));
    bytes.append(record.key);
    append<std::int64_t>(bytes, record.pttlMs);
    append<std::uint32_t>(bytes, std::uint32_t(record.payload.size()));
    bytes.append(record.payload);
    if (Status written = put(bytes); !written)
        return written;
    ++m_records;
    return {};
}

Status BackupWriter::sync()
{
    if (!m_file)
        return Error{ErrorKind::Usage, QStringLiteral("The backup file is not open")};
    if (m_failed || gzflush(handle(m_file), Z_SYNC_FLUSH) != Z_OK || ::fdatasync(m_descriptor) != 0) {
        m_failed = true;
        return failure(QStringLiteral("write"));
    }
    m_durable = m_records;
    return {};
}

Status BackupWriter::finish()
{
    // After a failed write the end record would count records that may not be on disk: without it the file reads
    // as stopped early, with every record that is there.
    Status written = m_failed ? Status(failure(QStringLiteral("write"))) : Status();
    if (written) {
        QByteArray end;
        end.append(EndTag);
        append<std::uint64_t>(end, m_records);
        written = put(end);
    }
    if (written)
        written = sync();
    if (m_file && gzclose(handle(m_file)) != Z_OK && written)
        written = failure(QStringLiteral("close"));
    m_file = nullptr;
    if (m_descriptor >= 0) {
        if (::fsync(m_descriptor) != 0 && written)
            written = failure(QStringLiteral("write"));
        ::close(m_descriptor);
        m_descriptor = -1;
    }
    return written;
}

BackupReader::~BackupReader()
{
    if (m_file)
        gzclose(handle(m_file));
}

QByteArray BackupPlan::actionPhrase() const
{
    return (action.startsWith('e') ? "an " : "a ") + action;
}

Error BackupReader::damage(const QString& what)
{
    m_damaged = true;
    m_ended = true;
    const z_off_t fileOffset = m_file ? gzoffset(handle(m_file)) : -1;
    QString where = QStringLiteral("at byte %L1 of its contents").arg(m_recordOffset);
    if (fileOffset >= 0)
        where += QStringLiteral(" (zlib had read %L1 bytes of the file)").arg(qint64(fileOffset));
    QString after = m_records == 0
                        ? QStringLiteral("before its first key")
                        : QStringLiteral("after %L1 good keys, the last %2")
                              .arg(m_records)
                              .arg(QLatin1Char('\'') + keyspace::displayString(m_lastKey) + QLatin1Char('\''));
    return Error{ErrorKind::Damaged, QStringLiteral("%1 is damaged %2, %3: %4").arg(m_path, where, after, what)};
}

QByteArray BackupReader::take(qsizetype size)
{
    QByteArray bytes;
    bytes.reserve(std::min(size, ReadStep));
    while (bytes.size() < size && m_streamEnd == StreamEnd::None && m_inflateError.isEmpty()) {
        const qsizetype step = std::min(size - bytes.size(), ReadStep);
        const qsizetype filled = bytes.size();
        bytes.resize(filled + step);
        const int got = gzread(handle(m_file), bytes.data() + filled, unsigned(step));
        bytes.resize(filled + std::max(got, 0));
        if (got > 0) {
            m_offset += std::uint64_t(got);
            if (got == step)
                continue;
        }
        // Fewer bytes than asked: the stream ended or failed. zlib says which.
        int code = Z_OK;
        const char* message = gzerror(handle(m_file), &code);
        if (got < 0 || (code != Z_OK && code != Z_BUF_ERROR))
            m_inflateError = QString::fromUtf8(message && *message ? message : "a decompression error");
        else if (got == 0)
            m_streamEnd = code == Z_BUF_ERROR ? StreamEnd::CutOff : StreamEnd::Clean;
    }
    return bytes;
}

Status BackupReader::open(const QString& path)
{
    m_path = path;
    const int descriptor = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (descriptor < 0)
        return Error{ErrorKind::Usage, QStringLiteral("Could not open the backup file %1: %2")
                                           .arg(path, QString::fromLocal8Bit(std::strerror(errno)))};
    m_file = gzdopen(descriptor, "rb");
    if (!m_file) {
        ::close(descriptor);
        return Error{ErrorKind::Usage, QStringLiteral("%1 cannot be read").arg(path)};
    }
    const auto notABackup = [&](const QString& what) {
        return Error{ErrorKind::Usage, QStringLiteral("%1 is not a Keylens backup: %2").arg(path, what)};
    };
    const QByteArray magic = take(MagicSize);
    if (!m_inflateError.isEmpty())
        return damage(QStringLiteral("its header does not decompress (%1)").arg(m_inflateError));
    if (magic != QByteArrayView(Magic, MagicSize))
        return notABackup(QStringLiteral("it does not start like one"));
    const QByteArray version = take(1);
    if (version.size() != 1 || std::uint8_t(version[0]) < OldestVersion || std::uint8_t(version[0]) > Version)
        return notABackup(QStringLiteral("format version %1 is not one this Keylens reads")
                              .arg(version.isEmpty() ? 0 : int(std::uint8_t(version[0]))));
    const auto field = [&](QByteArray* out) {
        const QByteArray size = take(4);
        if (size.size() != 4 || number<std::uint32_t>(size) > LargestHeaderField)
            return false;
        *out = take(number<std::uint32_t>(size));
        return out->size() == qsizetype(number<std::uint32_t>(size));
    };
    const QByteArray created = take(8);
    if (created.size() != 8 || !field(&m_source))
        return damage(QStringLiteral("its header is cut short or holds a length no header has"));
    m_createdAtMs = number<std::int64_t>(created);
    if (std::uint8_t(version[0]) >= 2) {
        const bool read = field(&m_plan.action);
        const QByteArray planned = take(8);
        if (!read || planned.size() != 8)
            return damage(QStringLiteral("its header is cut short or holds a length no header has"));
        m_plan.plannedKeys = number<std::uint64_t>(planned);
    }
    return {};
}

redis::Result<std::optional<BackupRecord>> BackupReader::shortRecord(const QString& what)
{
    if (!m_inflateError.isEmpty())
        return damage(QStringLiteral("the compressed data does not decompress (%1)").arg(m_inflateError));
    if (m_streamEnd == StreamEnd::Clean && !what.isEmpty())
        // The writer closes its stream only after whole records: a record cut by a proper end was never written so.
        return damage(QStringLiteral("a record runs past the end of the file (%1)").arg(what));
    m_ended = true; // the writer stopped: a record it did not finish is not restored
    return std::optional<BackupRecord>();
}

redis::Result<std::optional<BackupRecord>> BackupReader::next()
{
    if (m_ended)
        return std::optional<BackupRecord>();
    m_recordOffset = m_offset;
    const QByteArray tag = take(1);
    if (tag.isEmpty())
        return shortRecord({}); // between two records
    if (tag[0] == EndTag) {
        const QByteArray count = take(8);
        if (count.size() != 8)
            return shortRecord(QStringLiteral("its end record is cut short"));
        if (number<std::uint64_t>(count) != m_records)
            return damage(QStringLiteral("its end record says it holds %L1 keys, and %L2 were read")
                              .arg(number<std::uint64_t>(count))
                              .arg(m_records));
        // The gzip trailer comes after the end record, and its CRC is the only checksum of the whole: a file cut
        // before it, or with bytes after the end record, cannot be vouched for.
        const QByteArray after = take(1);
        if (!after.isEmpty())
            return damage(QStringLiteral("bytes follow its end record"));
        if (!m_inflateError.isEmpty())
            return damage(QStringLiteral("the compressed data does not decompress (%1)").arg(m_inflateError));
        if (m_streamEnd != StreamEnd::Clean)
            return damage(QStringLiteral("it is cut before its gzip trailer, so its checksum could not be checked"));
        m_ended = true;
        m_complete = true;
        return std::optional<BackupRecord>();
    }
    if (tag[0] != KeyTag)
        return damage(
            QStringLiteral("a record of unknown kind (byte 0x%1)").arg(std::uint8_t(tag[0]), 2, 16, QLatin1Char('0')));
    BackupRecord record;
    const QByteArray keySize = take(4);
    if (keySize.size() != 4)
        return shortRecord(QStringLiteral("a key's length is cut short"));
    const std::uint64_t keyBytes = number<std::uint32_t>(keySize);
    if (keyBytes > LargestRedisString)
        return damage(QStringLiteral("a key of %L1 bytes (Redis keys stop at 512 MiB)").arg(keyBytes));
    record.key = take(qsizetype(keyBytes));
    if (std::uint64_t(record.key.size()) != keyBytes)
        return shortRecord(
            QStringLiteral("a key of %L1 bytes is cut short at %L2").arg(keyBytes).arg(record.key.size()));
    const QByteArray pttl = take(8);
    const QByteArray payloadSize = take(4);
    if (pttl.size() != 8 || payloadSize.size() != 4)
        return shortRecord(QStringLiteral("a record's TTL or length is cut short"));
    record.pttlMs = number<std::int64_t>(pttl);
    if (record.pttlMs < -1)
        return damage(QStringLiteral("a TTL of %L1 ms").arg(record.pttlMs));
    const std::uint64_t payloadBytes = number<std::uint32_t>(payloadSize);
    if (payloadBytes > LargestRedisString)
        return damage(QStringLiteral("a value of %L1 bytes (a DUMP payload stops at 512 MiB)").arg(payloadBytes));
    record.payload = take(qsizetype(payloadBytes));
    if (std::uint64_t(record.payload.size()) != payloadBytes)
        return shortRecord(
            QStringLiteral("a value of %L1 bytes is cut short at %L2").arg(payloadBytes).arg(record.payload.size()));
    ++m_records;
    m_lastKey = record.key;
    return std::optional<BackupRecord>(std::move(record));
}

} // namespace keylens::edit
