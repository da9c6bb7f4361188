#include "rdb/RdbScan.h"

#include "rdb/RdbReader.h"
#include "scan/Ingest.h"
#include "scan/KeyBatch.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include <cstdio>

namespace keylens::rdb {

namespace {

constexpr std::size_t BatchKeys = 1024;

QString savedAtText(std::int64_t seconds)
{
    return QDateTime::fromSecsSinceEpoch(seconds).toString(Qt::ISODate);
}

} // namespace

scan::DrivenScan scanRdbFile(const scan::ScanOptions& options, keyspace::Keyspace& store, const scan::ScanHooks& hooks)
{
    scan::DrivenScan driven;
    scan::ScanSummary& summary = driven.summary;
    summary.rdbFile = options.rdbFile;
    summary.memoryEstimated = true;
    summary.coldAfterSeconds = options.coldAfterSeconds;
    QFile file;
    const bool fromStdin = options.rdbFile == QLatin1String("-");
    const bool opened = fromStdin ? file.open(stdin, QIODevice::ReadOnly)
                                  : (file.setFileName(options.rdbFile), file.open(QIODevice::ReadOnly));
    if (!opened) {
        summary.error = redis::Error{redis::ErrorKind::Usage,
                                     QStringLiteral("cannot open %1: %2").arg(options.rdbFile, file.errorString())};
        return driven;
    }
    const std::int64_t nowMs = QDateTime::currentMSecsSinceEpoch();
    QElapsedTimer clock;
    clock.start();
    std::atomic<bool> cancel{false};
    if (hooks.started)
        hooks.started([&cancel] { cancel = true; });

    scan::Ingest ingest(store);
    ingest.setKeyStored(hooks.keyStored);
    scan::KeyBatch batch;
    const auto flush = [&] {
        if (batch.size() == 0)
            return;
        ingest.add(batch);
        batch = {};
    };
    const qint64 fileSize = fromStdin ? -1 : file.size();
    const auto progress = [&](std::uint64_t bytes) {
        if (!hooks.progress)
            return;
        scan::ScanProgress now;
        now.keysSeen = summary.keysSeen;
        now.elapsedMs = clock.elapsed();
        now.keysPerSecond = now.elapsedMs > 0 ? double(summary.keysSeen) * 1000.0 / double(now.elapsedMs) : 0;
        if (fileSize > 0 && bytes > 0)
            now.etaMs = std::int64_t(double(now.elapsedMs) * (double(fileSize) / double(bytes) - 1));
        hooks.progress(now);
    };

    // TTLs and idle times as of this moment: the save, or now. A store's expiries are absolute, read against now:
    // as of the save, every expiry moves by the time since.
    std::int64_t asOfMs = nowMs;
    std::uint64_t idleKeys = 0;
    std::uint64_t frequencyKeys = 0;
    RdbCallbacks callbacks;
    callbacks.cancel = &cancel;
    callbacks.header = [&](const RdbSummary& header) {
        if (options.ttlFromSave && header.savedAtSeconds)
            asOfMs = *header.savedAtSeconds * 1000;
        redis::ServerInfo info;
        info.address = fromStdin ? QStringLiteral("standard input") : QFileInfo(options.rdbFile).fileName();
        info.db = options.connection.db;
        info.redisVersion = QString::fromLatin1(header.redisVersion);
        if (header.usedMemory)
            info.usedMemory = qint64(*header.usedMemory);
        summary.server = info;
        ingest.serverInfo(info, options);
        store.setColdAfter(options.coldAfterSeconds, asOfMs / 1000);
        if (hooks.serverKnown)
            hooks.serverKnown(info);
    };
    callbacks.key = [&](const RdbKey& key) {
        ++summary.keysSeen;
        const std::int64_t shiftMs = nowMs - asOfMs;
        if (key.expiresAtMs && *key.expiresAtMs <= asOfMs) {
            ++summary.keysExpired;
            return;
        }
        keyspace::KeyInfo info;
        info.type = key.type;
        info.expiresAtMs = key.expiresAtMs ? *key.expiresAtMs + shiftMs : keyspace::NoExpiry;
        info.memoryBytes = key.estimatedMemory;
        info.memoryMeasured = true;
        if (key.idleSeconds) {
            info.access = keyspace::KeyAccess::lastAccessAt(asOfMs / 1000 - std::int64_t(*key.idleSeconds));
            ++idleKeys;
        } else if (key.frequency) {
            info.access = keyspace::KeyAccess::frequency(*key.frequency);
            ++frequencyKeys;
        }
        batch.add(key.key, info);
        if (batch.size() >= BatchKeys)
            flush();
    };
    callbacks.progress = progress;
    const RdbSummary read = readRdb(file, options.connection.db, callbacks);
    flush();

    summary.complete = read.complete;
    summary.cancelled = cancel.load();
    summary.durationMs = clock.elapsed();
    summary.scanCalls = read.version > 0 ? 1 : 0; // the header was read: what follows is a (partial) result
    summary.memoryMeasured = true;
    summary.server.dbsize = qint64(summary.keysSeen - summary.keysExpired);
    summary.access = idleKeys > 0        ? scan::AccessQuestion::IdleTime
                     : frequencyKeys > 0 ? scan::AccessQuestion::Frequency
                                         : scan::AccessQuestion::None;
    const std::uint64_t stored = summary.keysSeen - summary.keysExpired;
    summary.accessNotMeasured = summary.access == scan::AccessQuestion::None ? 0 : stored - idleKeys - frequencyKeys;
    if (read.error && !summary.cancelled) {
        const QString where =
            read.version > 0 ? QStringLiteral("the file is damaged at byte %1: %2") : QStringLiteral("%2");
        summary.error =
            redis::Error{redis::ErrorKind::Protocol, where.arg(read.error->offset).arg(read.error->message)};
    }
    summary.notices << QStringLiteral("Read from the RDB file %1 (version %2%3): memory is estimated from the "
                                      "encodings, as Redis 7 would hold the keys once loaded")
                           .arg(fromStdin ? QStringLiteral("on standard input") : options.rdbFile)
                           .arg(read.version)
                           .arg(read.savedAtSeconds ? QStringLiteral(", saved ") + savedAtText(*read.savedAtSeconds)
                                                    : QString());
    if (summary.keysExpired > 0)
        summary.notices << QStringLiteral("%1 keys had expired by %2 and are not counted")
                               .arg(summary.keysExpired)
                               .arg(options.ttlFromSave && read.savedAtSeconds ? QStringLiteral("the time of the save")
                                                                               : QStringLiteral("now"));
    if (read.complete && !read.checksumChecked && read.version >= 5)
        summary.notices << QStringLiteral("The file was saved without a checksum (rdbchecksum no): damage would "
                                          "go unnoticed");
    ingest.settle(summary);
    driven.duplicates = ingest.duplicates();
    driven.received = ingest.received();
    driven.finished = true;
    return driven;
}

} // namespace keylens::rdb
