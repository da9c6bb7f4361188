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

// What the header says of the backup's purpose (format version 2; a version 1 file knows neither).
struct BackupPlan
{
    QByteArray action;             // "delete", "rename", "expire", "persist": what was done to the keys after the dump
    std::uint64_t plannedKeys = 0; // how many keys the action meant to back up; 0 when unknown

    QByteArray actionPhrase() const; // "a delete", "an expire"
};

// Writes a backup. Records are made durable in groups: sync() flushes the compressor and fsyncs the file, and a bulk
// action calls it before it changes the keys it just wrote, so that every key it touched is on disk first.
class BackupWriter
{
public:
    BackupWriter() = default;
    ~BackupWriter();
    BackupWriter(const BackupWriter&) = delete;
    BackupWriter& operator=(const BackupWriter&) = delete;

    // Creates `path` (an existing file is never overwritten) and writes the header; `source` says where the keys
    // came from (an address, never a password).
    redis::Status open(const QString& path, const QByteArray& source, const BackupPlan& plan = {});
    redis::Status write(const BackupRecord& record);
    redis::Status sync();
    // Writes the end record and closes the file. Without it (a crash, or after a failed write), the file reads as
    // stopped early.
    redis::Status finish();

    bool isOpen() const { return m_file != nullptr; }
    std::uint64_t records() const { return m_records; }
    // The records on disk for sure: written before the last sync that succeeded. After a failed write (a full disk)
    // this, not records(), is what a restore reads.
    std::uint64_t durableRecords() const { return m_durable; }
    const QString& path() const { return m_path; }

private:
    redis::Status put(const QByteArray& bytes);
    redis::Error failure(const QString& what) const;

    void* m_file = nullptr; // gzFile
    int m_descriptor = -1;
    QString m_path;
    std::uint64_t m_records = 0;
    std::uint64_t m_durable = 0;
    bool m_failed = false; // a write or sync failed: the end record would claim what may not be there
};

// Reads a backup, one record at a time, and tells the three ways a file ends apart: complete (its end record), stopped
// early (the compressed stream ends, cleanly or cut off, between records or inside the last one: a writer that was
// killed or ran out of disk), and damaged (a decompression error, a length Redis cannot have, a record past the
// end of a stream that was closed properly, an end record whose count is wrong). Damage is an ErrorKind::Damaged
// error that names where it was found and the last good record.
class BackupReader
{
public:
    BackupReader() = default;
    ~BackupReader();
    BackupReader(const BackupReader&) = delete;
    BackupReader& operator=(const BackupReader&) = delete;

    // Usage for a file that is not a backup at all, Damaged for one whose header is damaged.
    redis::Status open(const QString& path);
    // The next record; nothing at the end (complete() or stoppedEarly() says which end); a Damaged error where the
    // file is damaged, after which it returns nothing.
    redis::Result<std::optional<BackupRecord>> next();

    const QString& path() const { return m_path; }
    const QByteArray& source() const { return m_source; }
    std::int64_t createdAtMs() const { return m_createdAtMs; }
    const BackupPlan& plan() const { return m_plan; }
    // The end record was read, and its count matched: nothing is missing.
    bool complete() const { return m_complete; }
    // The stream ended without its end record and without damage: its writer did not finish.
    bool stoppedEarly() const { return m_ended && !m_complete && !m_damaged; }
    bool damaged() const { return m_damaged; }
    std::uint64_t recordsRead() const { return m_records; }

private:
    enum class StreamEnd { None, Clean, CutOff };
    // Exactly `size` bytes, or fewer where the stream ends or is damaged (see m_streamEnd, m_inflateError). Grows
    // its buffer as bytes arrive, so a length that lies costs no more memory than the file holds.
    QByteArray take(qsizetype size);
    // Ends the reading with a Damaged error that says where: the uncompressed offset of the record, the file offset
    // zlib had reached, and the last good key.
    redis::Error damage(const QString& what);
    // A record that stops short (`what` says how; empty between two records): the writer stopped (nothing), or
    // damage when the stream failed to decompress, or was closed properly inside a record.
    redis::Result<std::optional<BackupRecord>> shortRecord(const QString& what);

    void* m_file = nullptr; // gzFile
    QString m_path;
    QByteArray m_source;
    BackupPlan m_plan;
    std::int64_t m_createdAtMs = 0;
    std::uint64_t m_records = 0;
    std::uint64_t m_offset = 0;       // uncompressed bytes read
    std::uint64_t m_recordOffset = 0; // where the record being read starts
    QByteArray m_lastKey;
    StreamEnd m_streamEnd = StreamEnd::None;
    QString m_inflateError; // zlib's words for a stream that does not decompress
    bool m_complete = false;
    bool m_ended = false;
    bool m_damaged = false;
};

// The largest key and DUMP payload Redis can hold or send (proto-max-bulk-len's default, and a string's limit):
// a longer length in a backup is damage.
inline constexpr std::uint64_t LargestRedisString = 512ull * 1024 * 1024;

} // namespace keylens::edit
