#pragma once

#include "redis/Error.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <optional>

namespace keylens::edit {

// A DUMP backup: what a bulk delete or rename writes before it touches a key, and what `keylens-cli restore` puts
// back. The format is documented in docs/backup-format.md: a gzip stream of a header, one record per key (its bytes,
// its PTTL when it was dumped, and the DUMP payload, which carries its own RDB version and CRC) and an end record
// with the count, so a file cut short (a crash, a kill) is told from a complete one and still restores what it holds.
struct BackupRecord
{
    QByteArray key;
    std::int64_t pttlMs = -1; // -1: no TTL
    QByteArray payload;       // DUMP's reply
};

// Writes a backup. Records are made durable in groups: sync() flushes the compressor and fsyncs the file, and a bulk
// action calls it before it deletes or renames the keys it just wrote, so that every key it touched is on disk
// first.
class BackupWriter
{
public:
    BackupWriter() = default;
    ~BackupWriter();
    BackupWriter(const BackupWriter&) = delete;
    BackupWriter& operator=(const BackupWriter&) = delete;

    // Creates `path` (an existing file is never overwritten) and writes the header; `source` says where the keys
    // came from (an address, never a password).
    redis::Status open(const QString& path, const QByteArray& source);
    redis::Status write(const BackupRecord& record);
    redis::Status sync();
    // Writes the end record and closes the file. Without it (a crash), the file reads as incomplete.
    redis::Status finish();

    bool isOpen() const { return m_file != nullptr; }
    std::uint64_t records() const { return m_records; }
    const QString& path() const { return m_path; }

private:
    redis::Status put(const QByteArray& bytes);
    redis::Error failure(const QString& what) const;

    void* m_file = nullptr; // gzFile
    int m_descriptor = -1;
    QString m_path;
    std::uint64_t m_records = 0;
};

// Reads a backup, one record at a time.
class BackupReader
{
public:
    BackupReader() = default;
    ~BackupReader();
    BackupReader(const BackupReader&) = delete;
    BackupReader& operator=(const BackupReader&) = delete;

    redis::Status open(const QString& path);
    // The next record, nothing at the end (or where the file stops early: see complete()), or an error for bytes
    // that are not a backup.
    redis::Result<std::optional<BackupRecord>> next();

    const QByteArray& source() const { return m_source; }
    std::int64_t createdAtMs() const { return m_createdAtMs; }
    // The end record was read, and its count matched: nothing is missing.
    bool complete() const { return m_complete; }
    std::uint64_t recordsRead() const { return m_records; }

private:
    // Exactly `size` bytes, or fewer at the end of the stream.
    QByteArray take(qsizetype size);
    redis::Error corrupt(const QString& what) const;

    void* m_file = nullptr; // gzFile
    QString m_path;
    QByteArray m_source;
    std::int64_t m_createdAtMs = 0;
    std::uint64_t m_records = 0;
    bool m_complete = false;
    bool m_ended = false;
};

} // namespace keylens::edit
