#include "scan/RdbFileScan.h"

#include "keyspace/KeyGlob.h"
#include "keyspace/Units.h"
#include "rdb/RdbReader.h"
#include "scan/FileValueSamples.h"
#include "scan/KeyBatch.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include <cstdio>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace keylens::scan {

namespace {

constexpr std::size_t BatchKeys = 1024;

// A FIFO's open() waits for a writer, deaf to Ctrl-C and to a cancel: it is opened without waiting, and the wait moves
// to the reads, which wake for a cancel (rdb::RdbInput). Other files open as usual.
bool openWithoutWaiting(QFile& file, const QString& path)
{
    struct stat about = {};
    if (::stat(QFile::encodeName(path).constData(), &about) != 0 || !S_ISFIFO(about.st_mode)) {
        file.setFileName(path);
        return file.open(QIODevice::ReadOnly);
    }
    const int descriptor = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (descriptor < 0) {
        file.setFileName(path); // for its error string
        return file.open(QIODevice::ReadOnly);
    }
    ::fcntl(descriptor, F_SETFL, ::fcntl(descriptor, F_GETFL) & ~O_NONBLOCK); // reads wait, after a poll
    return file.open(descriptor, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle);
}

QString savedAtText(std::int64_t seconds)
{
    return QDateTime::fromSecsSinceEpoch(seconds).toString(Qt::ISODate);
}

// The streams whose newest node had room to spare on the server that wrote the file: their memory is a range (the
// JSON's memory_bytes and memory_bytes_if_loaded), and a notice says why.
struct StreamRange
{
    std::uint64_t keys = 0;
    std::uint64_t memoryBytes = 0;       // as the server that wrote the file held them
    std::uint64_t preallocatedBytes = 0; // of it, what a server that loads the file would not hold
};

QString streamRangeNotice(const StreamRange& streams)
{
    return QStringLiteral("%1 between %2 (as the server that wrote the file held %3) and %4 (as a server that loads "
                          "it would): the server that adds a stream's entries allocates its newest node 4 KiB ahead "
                          "of them, a server that loads the file allocates each node at its size")
        .arg(streams.keys == 1
                 ? QStringLiteral("1 stream takes")
                 : QStringLiteral("%1 streams take").arg(QString::fromUtf8(keyspace::formatCount(streams.keys))),
             QString::fromUtf8(keyspace::formatBytes(streams.memoryBytes)),
             streams.keys == 1 ? QStringLiteral("it") : QStringLiteral("them"),
             QString::fromUtf8(keyspace::formatBytes(streams.memoryBytes - streams.preallocatedBytes)));
}

} // namespace

ScanSummary runRdbFileScan(std::uint64_t jobId, const ScanOptions& options, ScanControl& control, ScanSink& sink)
{
    using namespace rdb;
    ScanSummary summary;
    summary.jobId = jobId;
    summary.rdbFile = options.rdbFile;
    summary.memoryEstimated = true;
    summary.coldAfterSeconds = options.coldAfterSeconds;
    QFile file;
    const bool fromStdin = options.rdbFile == QLatin1String("-");
    const bool opened = fromStdin ? file.open(stdin, QIODevice::ReadOnly) : openWithoutWaiting(file, options.rdbFile);
    if (!opened) {
        summary.error = redis::Error{redis::ErrorKind::Usage,
                                     QStringLiteral("cannot open %1: %2").arg(options.rdbFile, file.errorString())};
        return summary;
    }
    const std::int64_t nowMs = QDateTime::currentMSecsSinceEpoch();
    QElapsedTimer clock;
    clock.start();
    KeyBatch batch;
    // Each batch made as big as the last was at once, not grown by doubling: the reader's thread shares the machine's
    // cores with the ingest.
    const auto startBatch = [&](qsizetype keyBytes) {
        batch = {};
        batch.entries.reserve(BatchKeys);
        batch.keyBytes.reserve(keyBytes);
    };
    startBatch(0);
    const auto flush = [&] {
        if (batch.size() == 0)
            return;
        const qsizetype keyBytes = batch.keyBytes.size();
        sink.batch(std::move(batch));
        startBatch(keyBytes);
    };
    // A pipe (standard input, `keylens <(gunzip -c dump.rdb.gz)`) has no size: the bytes read are counted alone.
    const qint64 fileSize = file.isSequential() ? -1 : file.size();
    std::uint64_t bytesRead = 0;
    std::int64_t pausedMs = 0; // the time spent paused, which the speed and the time left leave out
    const auto progress = [&](std::uint64_t bytes, bool paused = false) {
        bytesRead = bytes;
        ScanProgress now;
        now.jobId = jobId;
        now.paused = paused;
        now.keysSeen = summary.keysSeen;
        now.elapsedMs = clock.elapsed() - pausedMs;
        now.keysPerSecond = now.elapsedMs > 0 ? double(summary.keysSeen) * 1000.0 / double(now.elapsedMs) : 0;
        now.fromFile = true;
        now.bytesRead = bytes;
        now.bytesTotal = fileSize;
        if (fileSize > 0 && bytes > 0)
            now.etaMs = std::int64_t(double(now.elapsedMs) * (double(fileSize) / double(bytes) - 1));
        sink.progress(now);
    };

    // TTLs and idle times as of this moment: the save, or now. A store's expiries are absolute, read against now:
    // as of the save, every expiry moves by the time since.
    std::int64_t asOfMs = nowMs;
    std::uint64_t idleKeys = 0;
    std::uint64_t frequencyKeys = 0;
    auto lengths = std::make_shared<QHash<QByteArray, std::uint64_t>>();
    StreamRange streams;
    // A few string values of each kind of key, their first bytes: what a lint's role evidence would ask a server for.
    FileValueSamples samples;
    // --match and --type as SCAN MATCH and SCAN TYPE would have applied them to the server that saved the file: the
    // same glob syntax, byte-wise, and a key that does not pass is neither seen nor counted as expired.
    const keyspace::KeyGlob match(options.match);
    const auto passesFilters = [&](const RdbKey& key) {
        return (options.type.isEmpty() || keyspace::keyTypeName(key.type) == options.type) &&
               (match.isEmpty() || match.matches(key.key));
    };
    RdbCallbacks callbacks;
    callbacks.cancel = control.cancelFlag();
    callbacks.valueBytes = [&](const RdbKey& key) {
        const bool expires = key.expiresAtMs.has_value();
        return options.valuePrefixBytes > 0 && passesFilters(key) && samples.wants(key.key, expires)
                   ? options.valuePrefixBytes
                   : 0;
    };
    callbacks.members = [&](const RdbKey& key) {
        return options.valueMembers > 0 && !key.expiresAtMs && passesFilters(key) && samples.wantsMembers(key.key)
                   ? options.valueMembers
                   : 0;
    };
    callbacks.memberBytes = std::max(1, options.valueMemberBytes);
    bool headerTold = false;
    callbacks.header = [&](const RdbSummary& header) {
        headerTold = true;
        if (options.ttlFromSave && header.savedAtSeconds)
            asOfMs = *header.savedAtSeconds * 1000;
        redis::ServerInfo info;
        info.address = fromStdin ? QStringLiteral("standard input") : QFileInfo(options.rdbFile).fileName();
        info.db = options.connection.db;
        info.redisVersion = QString::fromLatin1(header.redisVersion);
        if (header.usedMemory)
            info.usedMemory = qint64(*header.usedMemory);
        for (const auto& [db, keys] : header.dbSizes) {
            if (db == options.connection.db)
                info.dbsize = qint64(keys); // sizes the store (the count is corrected when the file is read)
        }
        info.savedAtSeconds = header.savedAtSeconds;
        info.asOfSeconds = asOfMs / 1000;
        summary.server = info;
        sink.serverInfo(info);
    };
    callbacks.key = [&](const RdbKey& key) {
        if (control.isPaused()) {
            // Said at once, as a scan says it (the window reads "Paused at …"), with the keys read so far handed over.
            flush();
            progress(bytesRead, true);
            QElapsedTimer pause;
            pause.start();
            control.waitWhilePaused();
            pausedMs += pause.elapsed();
        }
        if (!passesFilters(key))
            return;
        const std::int64_t shiftMs = nowMs - asOfMs;
        if (key.expiresAtMs && *key.expiresAtMs <= asOfMs) {
            ++summary.keysExpired; // neither seen nor stored: the ingest's accounting has no place for it
            return;
        }
        ++summary.keysSeen;
        keyspace::KeyInfo info;
        info.type = key.type;
        info.expiresAtMs = key.expiresAtMs ? *key.expiresAtMs + shiftMs : keyspace::NoExpiry;
        info.memoryBytes = options.measureMemory ? key.estimatedMemory : 0;
        info.memoryMeasured = options.measureMemory;
        if (options.measureMemory && key.preallocatedMemory > 0) {
            info.preallocatedBytes = std::uint32_t(key.preallocatedMemory); // < 4 KiB
            ++streams.keys;
            streams.memoryBytes += key.estimatedMemory;
            streams.preallocatedBytes += key.preallocatedMemory;
        }
        if (!options.fileAccess) {
            // --no-access: the file's idle times and frequencies are left unread, as a server's would be.
        } else if (key.idleSeconds) {
            info.access = keyspace::KeyAccess::lastAccessAt(asOfMs / 1000 - std::int64_t(*key.idleSeconds));
            ++idleKeys;
        } else if (key.frequency) {
            info.access = keyspace::KeyAccess::frequency(*key.frequency);
            ++frequencyKeys;
        }
        if (key.estimatedMemory >= KnownLengthsFromBytes && std::size_t(lengths->size()) < KnownLengthsMaximum)
            lengths->insert(key.key, key.elements);
        if (!key.valuePrefix.isNull())
            samples.keep(key.key, key.valuePrefix);
        if (!key.members.isEmpty())
            samples.keepMembers(key.key, key.members);
        batch.add(key.key, info);
        if (batch.size() >= BatchKeys)
            flush();
    };
    callbacks.progress = [&](std::uint64_t bytes) { progress(bytes); };
    const RdbSummary read = readRdb(file, options.connection.db, callbacks);
    flush();
    if (!headerTold && read.version > 0)
        callbacks.header(read); // damaged before its first key: what its AUX fields said so far

    summary.knownLengths = std::move(lengths);
    summary.valueMembers = samples.takeMembers();
    summary.valuePrefixes = samples.take();
    if (read.version > 0) {
        RdbFileFacts facts;
        facts.version = read.version;
        facts.valkey = read.valkey;
        facts.fileBytes = fileSize;
        facts.bytesRead = read.bytes;
        facts.aux = read.aux;
        facts.keysByDatabase = read.dbSizes;
        facts.functions = read.functions;
        facts.checksumChecked = read.checksumChecked;
        summary.rdbFacts = std::move(facts);
    }
    summary.complete = read.complete;
    summary.cancelled = control.isCancelled();
    summary.durationMs = clock.elapsed() - pausedMs;
    summary.scanCalls = read.version > 0 ? 1 : 0; // the header was read: what follows is a (partial) result
    summary.memoryMeasured = options.measureMemory;
    summary.server.dbsize = qint64(summary.keysSeen);
    summary.access = idleKeys > 0        ? AccessQuestion::IdleTime
                     : frequencyKeys > 0 ? AccessQuestion::Frequency
                                         : AccessQuestion::None;
    const std::uint64_t stored = summary.keysSeen;
    summary.accessNotMeasured = summary.access == AccessQuestion::None ? 0 : stored - idleKeys - frequencyKeys;
    if (read.error && !summary.cancelled) {
        // A file refused at its header is named (the message says what it starts with); one damaged later says where.
        const QString name = fromStdin ? QStringLiteral("standard input") : options.rdbFile;
        const QString message =
            read.version > 0
                ? QStringLiteral("the file is damaged at byte %1: %2").arg(read.error->offset).arg(read.error->message)
            : read.error->offset > 0 // past the magic: its version
                ? QStringLiteral("%1: at byte %2, %3").arg(name).arg(read.error->offset).arg(read.error->message)
                : QStringLiteral("%1: %2").arg(name, read.error->message);
        summary.error = redis::Error{redis::ErrorKind::Protocol, message};
    }
    if (read.version > 0)
        summary.notices << QStringLiteral("Read from the RDB file %1 (version %2%3): memory is estimated from the "
                                          "encodings, as Redis 7 would hold the keys")
                               .arg(fromStdin ? QStringLiteral("on standard input") : options.rdbFile)
                               .arg(read.version)
                               .arg(read.savedAtSeconds ? QStringLiteral(", saved ") + savedAtText(*read.savedAtSeconds)
                                                        : QString());
    if (streams.keys > 0)
        summary.notices << streamRangeNotice(streams);
    if (summary.keysExpired > 0)
        summary.notices << QStringLiteral("%1 keys had expired by %2 and are not counted")
                               .arg(summary.keysExpired)
                               .arg(options.ttlFromSave && read.savedAtSeconds ? QStringLiteral("the time of the save")
                                                                               : QStringLiteral("now"));
    if (read.complete && !read.checksumChecked && read.version >= 5)
        summary.notices << QStringLiteral("The file was saved without a checksum (rdbchecksum no): damage would "
                                          "go unnoticed");
    return summary;
}

} // namespace keylens::scan
