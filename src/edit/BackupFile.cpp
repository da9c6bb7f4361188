#include "edit/BackupFile.h"

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
constexpr std::uint8_t Version = 1;
constexpr char KeyTag = 'K';
constexpr char EndTag = 'E';
// QByteArray's own ceiling; also what keeps a corrupt length from asking for terabytes.
constexpr std::uint64_t LargestField = std::uint64_t(std::numeric_limits<qsizetype>::max() / 2);

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

Status BackupWriter::open(const QString& path, const QByteArray& source)
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
    if (gzwrite(handle(m_file), bytes.constData(), unsigned(bytes.size())) != int(bytes.size()))
        return failure(QStringLiteral("write"));
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
    if (gzflush(handle(m_file), Z_SYNC_FLUSH) != Z_OK || ::fdatasync(m_descriptor) != 0)
        return failure(QStringLiteral("write"));
    return {};
}

Status BackupWriter::finish()
{
    QByteArray end;
    end.append(EndTag);
    append<std::uint64_t>(end, m_records);
    Status written = put(end);
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

Error BackupReader::corrupt(const QString& what) const
{
    return Error{ErrorKind::Usage, QStringLiteral("%1 is not a Keylens backup, or is damaged: %2").arg(m_path, what)};
}

QByteArray BackupReader::take(qsizetype size)
{
    QByteArray bytes(size, Qt::Uninitialized);
    qsizetype filled = 0;
    while (filled < size) {
        const int chunk = int(std::min<qsizetype>(size - filled, 1 << 30));
        const int got = gzread(handle(m_file), bytes.data() + filled, unsigned(chunk));
        if (got <= 0)
            break;
        filled += got;
    }
    bytes.truncate(filled);
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
        return corrupt(QStringLiteral("it cannot be read"));
    }
    const QByteArray magic = take(MagicSize);
    if (magic != QByteArrayView(Magic, MagicSize))
        return corrupt(QStringLiteral("it does not start like one"));
    const QByteArray version = take(1);
    if (version.size() != 1 || std::uint8_t(version[0]) != Version)
        return corrupt(QStringLiteral("format version %1 is not one this Keylens reads")
                           .arg(version.isEmpty() ? 0 : int(std::uint8_t(version[0]))));
    const QByteArray created = take(8);
    const QByteArray sourceSize = take(4);
    if (created.size() != 8 || sourceSize.size() != 4)
        return corrupt(QStringLiteral("its header stops early"));
    m_createdAtMs = number<std::int64_t>(created);
    m_source = take(number<std::uint32_t>(sourceSize));
    return {};
}

redis::Result<std::optional<BackupRecord>> BackupReader::next()
{
    if (m_ended)
        return std::optional<BackupRecord>();
    const QByteArray tag = take(1);
    if (tag.isEmpty()) { // stopped before its end record: a writer that crashed or was killed
        m_ended = true;
        return std::optional<BackupRecord>();
    }
    if (tag[0] == EndTag) {
        m_ended = true;
        const QByteArray count = take(8);
        if (count.size() != 8)
            return std::optional<BackupRecord>();
        if (number<std::uint64_t>(count) != m_records)
            return corrupt(QStringLiteral("it says it holds %1 keys, and %2 were read")
                               .arg(number<std::uint64_t>(count))
                               .arg(m_records));
        m_complete = true;
        return std::optional<BackupRecord>();
    }
    if (tag[0] != KeyTag)
        return corrupt(QStringLiteral("an unknown record after %1 keys").arg(m_records));
    BackupRecord record;
    const QByteArray keySize = take(4);
    if (keySize.size() != 4) {
        m_ended = true;
        return std::optional<BackupRecord>();
    }
    record.key = take(number<std::uint32_t>(keySize));
    const QByteArray pttl = take(8);
    const QByteArray payloadSize = take(4);
    if (record.key.size() != qsizetype(number<std::uint32_t>(keySize)) || pttl.size() != 8 || payloadSize.size() != 4) {
        m_ended = true; // a record cut short is not restored: its payload would be incomplete
        return std::optional<BackupRecord>();
    }
    record.pttlMs = number<std::int64_t>(pttl);
    const std::uint64_t payloadBytes = number<std::uint32_t>(payloadSize);
    if (payloadBytes > LargestField)
        return corrupt(QStringLiteral("a value of %1 bytes").arg(payloadBytes));
    record.payload = take(qsizetype(payloadBytes));
    if (std::uint64_t(record.payload.size()) != payloadBytes) {
        m_ended = true;
        return std::optional<BackupRecord>();
    }
    ++m_records;
    return std::optional<BackupRecord>(std::move(record));
}

} // namespace keylens::edit
