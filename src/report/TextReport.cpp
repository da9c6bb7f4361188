#include "report/TextReport.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "redis/ClusterSlot.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>

namespace keylens::report {

namespace {

using keyspace::formatBytes;
using keyspace::formatCount;
using keyspace::formatDuration;
using keyspace::formatPercent;
using keyspace::KeyType;
using keyspace::NamespaceStats;

constexpr int MaxNameWidth = 56;

// Terminal columns taken by UTF-8 text (one per code point; wide CJK glyphs are not worth a table here).
int displayWidth(QByteArrayView utf8)
{
    int width = 0;
    for (const char c : utf8) {
        if ((static_cast<unsigned char>(c) & 0xc0) != 0x80)
            ++width;
    }
    return width;
}

QByteArray truncated(const QByteArray& utf8, int width)
{
    if (displayWidth(utf8) <= width)
        return utf8;
    QByteArray out;
    int taken = 0;
    for (const char c : utf8) {
        const bool starts = (static_cast<unsigned char>(c) & 0xc0) != 0x80;
        if (starts && ++taken > width - 1)
            break;
        out.append(c);
    }
    return out.append("…");
}

QByteArray padRight(const QByteArray& text, int width)
{
    return text + QByteArray(std::max(0, width - displayWidth(text)), ' ');
}

QByteArray padLeft(const QByteArray& text, int width)
{
    return QByteArray(std::max(0, width - displayWidth(text)), ' ') + text;
}

// "hash 71% set 14% list 11%": the `limit` biggest types of a namespace, biggest first.
QByteArray typeMix(const NamespaceStats& stats, std::size_t limit = 3)
{
    if (stats.keys == 0)
        return "-";
    std::array<std::pair<std::uint32_t, KeyType>, keyspace::KeyTypeCount> counts;
    for (int i = 0; i < keyspace::KeyTypeCount; ++i)
        counts[static_cast<std::size_t>(i)] = {stats.types[static_cast<std::size_t>(i)], static_cast<KeyType>(i)};
    std::stable_sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    if (counts[0].first == stats.keys)
        return keyspace::keyTypeName(counts[0].second).toByteArray();
    QByteArray out;
    for (std::size_t i = 0; i < limit && i < counts.size() && counts[i].first > 0; ++i) {
        if (!out.isEmpty())
            out.append(' ');
        // Never round a minority to 0% or a majority to 100%: both would misstate the mix.
        const int percent = std::min(99, static_cast<int>(100.0 * counts[i].first / stats.keys + 0.5));
        out.append(keyspace::keyTypeName(counts[i].second)).append(' ');
        out.append(percent < 1 ? QByteArray("<1%") : QByteArray::number(percent).append('%'));
    }
    return out;
}

class Table
{
public:
    explicit Table(const ScanReport& report, QByteArray noun = "NAMESPACE")
        : m_report(report)
        , m_noun(std::move(noun))
    {}

    // `estimate`: a sampled scan's, with its bound (the JSON's memory_estimate).
    void row(const QByteArray& name, const NamespaceStats& stats,
             const std::optional<keyspace::MemoryEstimate>& estimate = std::nullopt)
    {
        const keyspace::MemoryFigure figure = keyspace::memoryFigureOf(stats);
        const bool sampled = sampledScan();
        m_rows.push_back({name, formatCount(stats.keys), sampled ? estimatedMemory(stats, estimate) : memory(figure),
                          sampled ? estimatedShare(stats, estimate) : share(figure), ttlShare(stats), coldShare(stats),
                          expiries(stats), typeMix(stats)});
    }

    void othersRow(const QByteArray& indent, const Others& others)
    {
        if (others.namespaces == 0)
            return;
        const keyspace::MemoryFigure figure = keyspace::memoryFigureOf(others);
        NamespaceStats summed; // what a point estimate needs of them
        summed.keys = std::uint32_t(std::min<std::uint64_t>(others.keys, UINT32_MAX));
        summed.memoryBytes = others.memoryBytes;
        summed.keysMemoryUnmeasured = std::uint32_t(std::min<std::uint64_t>(others.keysMemoryUnmeasured, summed.keys));
        const bool sampled = sampledScan();
        m_rows.push_back({indent + "… " + formatCount(others.namespaces) + " more " + m_noun.toLower() + 's',
                          formatCount(others.keys),
                          sampled ? estimatedMemory(summed, std::nullopt) : memory(figure),
                          sampled ? estimatedShare(summed, std::nullopt) : share(figure),
                          {},
                          {},
                          {},
                          {}});
    }

    QByteArray render() const
    {
        const std::array<QByteArray, Columns> headers = {m_noun, "KEYS", "MEMORY",     "%MEM",
                                                         "TTL",  "COLD", "EXPIRES IN", "TYPES"};
        // COLD only when the scan measured idle times: a column of dashes says nothing.
        const bool withCold = m_report.summary.access == scan::AccessQuestion::IdleTime;
        std::array<int, Columns> widths{};
        for (std::size_t c = 0; c < headers.size(); ++c)
            widths[c] = displayWidth(headers[c]);
        for (const auto& row : m_rows) {
            widths[0] = std::max(widths[0], std::min(MaxNameWidth, displayWidth(row[0])));
            for (std::size_t c = 1; c < row.size(); ++c)
                widths[c] = std::max(widths[c], displayWidth(row[c]));
        }
        QByteArray out;
        const auto line = [&](const std::array<QByteArray, Columns>& cells) {
            QByteArray text = padRight(truncated(cells[0], widths[0]), widths[0]);
            for (std::size_t c = 1; c < 6; ++c) {
                if (c != ColdColumn || withCold)
                    text.append("  ").append(padLeft(cells[c], widths[c]));
            }
            text.append("  ").append(padRight(cells[6], widths[6])).append("  ").append(cells[7]);
            while (text.endsWith(' '))
                text.chop(1);
            out.append(text).append('\n');
        };
        line(headers);
        for (const auto& row : m_rows)
            line(row);
        return out;
    }

private:
    // Unknown when no key was measured, a lower bound when some were not: never "0 B" for memory not measured.
    QByteArray memory(const keyspace::MemoryFigure& figure) const
    {
        return m_report.summary.memoryMeasured ? keyspace::formatMemory(figure) : QByteArray("n/a");
    }
    QByteArray share(const keyspace::MemoryFigure& figure) const
    {
        if (!m_report.summary.memoryMeasured || m_report.totals.memoryBytes == 0 || !figure.known())
            return "-";
        const QByteArray percent = formatPercent(double(figure.bytes) / double(m_report.totals.memoryBytes));
        if (figure.atLeast())
            return QByteArray("\u2265 ") + percent;
        return percent;
    }
    // A sampled scan measured the memory of a few keys: the sums of those say little, and the table shows what the
    // header does, each row's estimate (± its bound where the report has one), and its share of the estimated total.
    bool sampledScan() const
    {
        return m_report.summary.memoryMeasured && m_report.totalEstimate && m_report.totalEstimate->bytes;
    }
    static std::optional<double> estimateOf(const NamespaceStats& stats,
                                            const std::optional<keyspace::MemoryEstimate>& estimate)
    {
        return estimate ? estimate->bytes : keyspace::estimatedMemory(stats);
    }
    static QByteArray estimatedMemory(const NamespaceStats& stats,
                                      const std::optional<keyspace::MemoryEstimate>& estimate)
    {
        const std::optional<double> bytes = estimateOf(stats, estimate);
        if (!bytes)
            return "n/a";
        QByteArray text = "\u2248 " + formatBytes(std::uint64_t(std::llround(*bytes)));
        // As the header: no bound with fewer than two keys measured ("± ?"), none needed when all were (0).
        if (estimate && !estimate->bound)
            text += " \u00b1 ?";
        else if (estimate && *estimate->bound > 0)
            text += " \u00b1 " + formatBytes(std::uint64_t(std::llround(*estimate->bound)));
        return text;
    }
    QByteArray estimatedShare(const NamespaceStats& stats,
                              const std::optional<keyspace::MemoryEstimate>& estimate) const
    {
        const std::optional<double> bytes = estimateOf(stats, estimate);
        const double total = *m_report.totalEstimate->bytes;
        if (!bytes || total <= 0)
            return "-";
        return "\u2248 " + formatPercent(*bytes / total);
    }
    QByteArray expiries(const NamespaceStats& stats) const
    {
        if (!stats.hasExpiringKeys())
            return "-";
        const QByteArray first = formatDuration(m_report.remainingMs(stats.soonestExpiryMs));
        const QByteArray last = formatDuration(m_report.remainingMs(stats.latestExpiryMs));
        return first == last ? first : first + "–" + last;
    }

    // The share of the memory held by keys idle past the cold threshold.
    static QByteArray coldShare(const NamespaceStats& stats)
    {
        const std::optional<double> share = stats.coldShare();
        return share ? formatPercent(*share) : QByteArray("-");
    }

    static QByteArray ttlShare(const NamespaceStats& stats)
    {
        if (stats.keys == 0)
            return "-";
        const std::optional<double> share = stats.ttlShare();
        return share ? formatPercent(*share) : QByteArray("n/a"); // PTTL denied: not measured, not 0%
    }

    const ScanReport& m_report;
    QByteArray m_noun; // of the first column: NAMESPACE, PATTERN
    static constexpr std::size_t Columns = 8;
    static constexpr std::size_t ColdColumn = 5;
    std::vector<std::array<QByteArray, Columns>> m_rows;
};

// A name's library, as the JSON's "library" names it: ` [bullmq]`.
QByteArray libraryTag(const lint::LibraryInfo* library)
{
    return library ? " [" + QByteArray(library->id) + ']' : QByteArray();
}

void addNamespaces(Table& table, const std::vector<NamespaceEntry>& entries, const Others& others, int level)
{
    const QByteArray indent(level * 2, ' ');
    for (const NamespaceEntry& entry : entries) {
        table.row(indent + keyspace::displayBytes(entry.path) + libraryTag(entry.library), entry.stats, entry.estimate);
        addNamespaces(table, entry.children, entry.others, level + 1);
    }
    table.othersRow(indent, others);
}

// What the idle times say: how long keys go unread, and how much memory nothing has read past the threshold.
QByteArray accessLine(const ScanReport& report)
{
    const NamespaceStats& totals = report.totals;
    const keyspace::AccessFigures& access = report.totalAccess;
    if (access.idleP50Seconds && access.idleP90Seconds) {
        QByteArray out = "Idle (OBJECT IDLETIME): median " +
                         formatDuration(std::int64_t(*access.idleP50Seconds) * 1000) + ", 90% " +
                         formatDuration(std::int64_t(*access.idleP90Seconds) * 1000) + "; cold (idle > " +
                         formatDuration(report.summary.coldAfterSeconds * 1000) + "): ";
        if (totals.keysCold == 0)
            return out + "no key\n";
        out += formatCount(totals.keysCold) + " keys";
        if (const std::optional<double> share = totals.coldShare(); report.summary.memoryMeasured && share) {
            // Keys whose memory was not measured may be among the cold ones: the sum is then a lower bound.
            const QByteArray atLeast = totals.keysMemoryUnmeasured > 0 ? QByteArray("\u2265 ") : QByteArray();
            out += ", " + atLeast + formatBytes(totals.coldMemoryBytes) + " (" + atLeast + formatPercent(*share) +
                   " of the memory)";
        }
        return out + '\n';
    }
    if (access.frequencyP50 && access.frequencyP90)
        return "Access counters (OBJECT FREQ, LFU): median " + QByteArray::number(*access.frequencyP50) + ", 90% " +
               QByteArray::number(*access.frequencyP90) + "\n";
    return {};
}

QByteArray header(const ScanReport& report)
{
    const scan::ScanSummary& summary = report.summary;
    const redis::ServerInfo& server = summary.server;
    QByteArray out = "Keylens " KEYLENS_VERSION " — " + server.address.toUtf8() + " db" + QByteArray::number(server.db);
    if (!server.redisVersion.isEmpty())
        out += ", Redis " + server.redisVersion.toUtf8();
    out += '\n';

    const bool file = !summary.rdbFile.isEmpty();
    QByteArray state = summary.complete    ? QByteArray(file ? "Read" : "Scanned")
                       : summary.cancelled ? QByteArray("Cancelled after")
                                           : QByteArray(file ? "Stopped by damage after" : "Stopped after");
    out +=
        state + ' ' + keyspace::formatCounted(report.totals.keys, "key") + " in " + formatDuration(summary.durationMs);
    // The rate of the keys this report holds: a scan cancelled before any key was stored had none, whatever SCAN
    // had listed by then.
    // A file has no speed setting: it is read as fast as it comes. --max-rate holds a scan below its speed: the
    // rate is said, never "full speed" alone.
    QByteArray speedName = scan::speedName(summary.speed).toUtf8() + " speed";
    if (summary.maxKeysPerSecond > 0)
        speedName +=
            " held to --max-rate " + formatCount(std::uint64_t(std::llround(summary.maxKeysPerSecond))) + " keys/s";
    const QByteArray speed = file ? QByteArray() : ", " + speedName;
    if (summary.durationMs > 0 && report.totals.keys > 0)
        out += " (" + formatCount(std::uint64_t(report.totals.keys) * 1000 / std::uint64_t(summary.durationMs)) +
               " keys/s" + speed + ")";
    else if (!file)
        out += " (" + speedName + ")";
    if (server.dbsize && !file)
        out += "; DBSIZE " + formatCount(std::uint64_t(*server.dbsize));
    if (server.usedMemory)
        out += (file ? "; used_memory when saved " : "; used_memory ") + formatBytes(std::uint64_t(*server.usedMemory));
    out += '\n';

    const NamespaceStats& totals = report.totals;
    if (report.totalEstimate && report.totalEstimate->bytes)
        out +=
            "Memory in keys (MEMORY USAGE of a sample of " + formatCount(report.totalEstimate->sampledKeys) +
            " keys): about " + formatBytes(std::uint64_t(*report.totalEstimate->bytes)) + " ± " +
            (report.totalEstimate->bound ? formatBytes(std::uint64_t(*report.totalEstimate->bound)) : QByteArray("?"));
    else if (summary.memoryMeasured)
        out += (summary.memoryEstimated ? QByteArray("Memory in keys (estimated from the file): ")
                                        : QByteArray("Memory in keys (MEMORY USAGE): ")) +
               keyspace::formatMemory(keyspace::memoryFigureOf(totals)) +
               (totals.keysMemoryUnmeasured > 0
                    ? " (not measured for " + formatCount(totals.keysMemoryUnmeasured) + " keys)"
                    : QByteArray());
    else
        out += "Memory: not measured";
    if (totals.keys) {
        if (const std::optional<double> share = totals.ttlShare(); !share) {
            out += "; TTLs: not measured";
        } else {
            out += "; " + formatPercent(*share) + " of keys have a TTL";
            if (totals.keysTtlUnknown > 0)
                out += " (not measured for " + formatCount(totals.keysTtlUnknown) + " keys)";
        }
        out += "; types: " + typeMix(totals, keyspace::KeyTypeCount);
    }
    out += '\n';
    if (summary.memoryMeasured)
        out += memorySamplingLines(summary, report.totals);
    out += accessLine(report);
    if (summary.vanished || report.duplicates)
        out += formatCount(summary.vanished) + " keys vanished during the scan; " + formatCount(report.duplicates) +
               " duplicates from SCAN ignored\n";
    if (summary.keysInFlight)
        out += formatCount(summary.keysInFlight) + " keys returned by SCAN were still being inspected when the scan " +
               "stopped: they are not in this report\n";
    if (summary.error)
        out += "! " + summary.error->message.toUtf8() + '\n';
    for (const QString& notice : summary.notices)
        out += "! " + notice.toUtf8() + '\n';
    if (!report.libraries.empty()) {
        QByteArrayList libraries;
        for (const LibraryEntry& entry : report.libraries) {
            QByteArray text = QByteArray(entry.library->id) + " (" + lint::roleName(entry.library->role) + ", " +
                              formatCount(entry.keys) + " keys";
            if (summary.memoryMeasured)
                text += ", " + keyspace::formatMemory(keyspace::memoryFigureOf(entry));
            libraries << text + ')';
        }
        out += "Library layouts: " + libraries.join(", ") + '\n';
    }
    if (report.suggestedDelimiter) {
        out += "Most keys contain no '" + report.delimiter.bytes() + "' but do contain '" +
               QByteArray(1, report.suggestedDelimiter) + "': try --delimiter '" +
               QByteArray(1, report.suggestedDelimiter) + "'\n";
    }
    for (const lint::DelimiterUse& use : report.otherDelimiters) {
        out += formatCount(use.keys) + " keys also use '" + QByteArray(1, use.delimiter) +
               "': split on it too? --delimiter '" + report.delimiter.with(use.delimiter).text() + "'\n";
    }
    return out;
}

// The biggest patterns, the rest summed.
QByteArray patternTable(const ScanReport& report)
{
    if (!report.options.patterns || report.patterns.empty())
        return {};
    Table table(report, "PATTERN");
    Others rest;
    for (std::size_t i = 0; i < report.patterns.size(); ++i) {
        const PatternEntry& entry = report.patterns[i];
        if (i < TextPatterns) {
            table.row(keyspace::displayBytes(entry.pattern) + libraryTag(entry.library), entry.stats);
            continue;
        }
        ++rest.namespaces;
        rest.keys += entry.stats.keys;
        rest.memoryBytes += entry.stats.memoryBytes;
        rest.keysMemoryUnmeasured += entry.stats.keysMemoryUnmeasured;
    }
    table.othersRow({}, rest);
    return "\n" + table.render();
}

QByteArray topKeys(const ScanReport& report)
{
    if (report.topKeys.empty() || !report.summary.memoryMeasured)
        return {};
    const auto ttlOf = [&](const TopKey& top) {
        const QByteArray left = keyspace::formatTimeLeft(top.info.expiresAtMs, report.generatedAtMs);
        return top.info.expiresAtMs == keyspace::NoExpiry ? left : "TTL " + left;
    };
    QByteArray out = "\nBiggest keys\n";
    int memoryWidth = 6;
    int ttlWidth = 10;
    for (const TopKey& top : report.topKeys) {
        memoryWidth = std::max(memoryWidth, displayWidth(formatBytes(top.info.memoryBytes)));
        ttlWidth = std::max(ttlWidth, displayWidth(ttlOf(top)));
    }
    for (const TopKey& top : report.topKeys) {
        out += padLeft(formatBytes(top.info.memoryBytes), memoryWidth) + "  " +
               padRight(keyspace::keyTypeName(top.info.type).toByteArray(), 7) + padRight(ttlOf(top), ttlWidth + 2) +
               (report.summary.isCluster() ? padRight("slot " + QByteArray::number(redis::clusterSlot(top.key)), 12)
                                           : QByteArray()) +
               truncated(keyspace::displayBytes(top.key), 100) + '\n';
    }
    return out;
}

// A cluster's shards: where the keys and the memory live, so that a skewed shard shows.
QByteArray shardTable(const ScanReport& report)
{
    const scan::ScanSummary& summary = report.summary;
    if (!summary.isCluster())
        return {};
    std::uint64_t totalMemory = 0;
    int addressWidth = 5;
    for (const scan::ShardScan& shard : summary.shards) {
        totalMemory += shard.memoryBytes;
        addressWidth = std::max(addressWidth, int(shard.address.size()) + (shard.replica ? 10 : 0));
    }
    QByteArray out = "\n" + padRight("SHARD", addressWidth + 2) + padLeft("KEYS", 12) + padLeft("MEMORY", 11) +
                     padLeft("SHARE", 7) + "  SLOTS\n";
    for (const scan::ShardScan& shard : summary.shards) {
        const QByteArray share = summary.memoryMeasured && totalMemory > 0
                                     ? keyspace::formatPercent(double(shard.memoryBytes) / double(totalMemory))
                                     : QByteArray("n/a");
        QByteArray address = shard.address.toUtf8() + (shard.replica ? QByteArray(" (replica)") : QByteArray());
        out += padRight(address, addressWidth + 2) + padLeft(keyspace::formatCount(shard.keys), 12) +
               padLeft(summary.memoryMeasured ? formatBytes(shard.memoryBytes) : QByteArray("n/a"), 11) +
               padLeft(share, 7) + "  " + shard.slots.toUtf8() +
               (shard.error ? QByteArray("  FAILED: " + shard.error->message.toUtf8()) : QByteArray()) + '\n';
    }
    return out;
}

// An empty database is said with where the keys are, when the server or the file holds some in others.
QByteArray emptyDatabaseText(const ScanReport& report)
{
    const bool file = report.summary.rdbFacts.has_value();
    std::vector<std::pair<int, qint64>> databases;
    if (file) {
        for (const auto& [db, keys] : report.summary.rdbFacts->keysByDatabase)
            databases.emplace_back(db, qint64(keys));
    } else {
        databases = report.summary.server.keysByDatabase;
    }
    const int scanned = report.summary.server.db;
    QByteArray elsewhere;
    for (const auto& [db, keys] : databases) {
        if (db == scanned || keys <= 0)
            continue;
        elsewhere += QByteArray(elsewhere.isEmpty() ? "" : ", ") + keyspace::formatCounted(std::uint64_t(keys), "key") +
                     " in db" + QByteArray::number(db) + " (-n " + QByteArray::number(db) + ")";
    }
    if (elsewhere.isEmpty())
        return "No keys: the database is empty.\n";
    return "No keys in db" + QByteArray::number(scanned) + "; the " + (file ? "file" : "server") + " holds " +
           elsewhere + ".\n";
}

} // namespace

QByteArray memorySamplingLines(const scan::ScanSummary& summary, const NamespaceStats& totals)
{
    QByteArray out;
    if (summary.exactMemory && summary.keysMemoryCorrected > 0) {
        const std::int64_t change = summary.memoryCorrectionBytes;
        out += "Memory of " + keyspace::formatCounted(summary.keysMemoryCorrected, "collection") +
               " measured whole (--exact-memory): " + (change < 0 ? "-" : "+") +
               formatBytes(std::uint64_t(change < 0 ? -change : change)) +
               " against the server's estimates from 5 elements\n";
    }
    if (totals.keysMemorySampled > 0) {
        out += "Memory of " + keyspace::formatCounted(totals.keysMemorySampled, "key") + " (" +
               formatBytes(totals.memorySampledBytes) + ") sampled by the server (MEMORY USAGE scales 5 elements up)";
        out += summary.exactMemory ? "; above --exact-memory-cap (" + formatCount(summary.exactMemoryCap) +
                                         " elements), they were not measured whole\n"
                                   : QByteArray("; --exact-memory to measure them whole\n");
    }
    return out;
}

QByteArray toText(const ScanReport& report)
{
    QByteArray out = header(report);
    out += '\n';
    if (report.totals.keys == 0) {
        // A table of zeros says less than a sentence.
        if (!report.summary.complete)
            out += "No keys were scanned.\n";
        else if (report.summary.server.dbsize.value_or(0) > 0)
            out += "No key matched the --match / --type filters.\n";
        else
            out += emptyDatabaseText(report);
        return out;
    }
    Table table(report);
    table.row("(all keys)", report.totals, report.totalEstimate);
    addNamespaces(table, report.namespaces, report.others, 0);
    if (report.keysWithoutDelimiter.keys > 0)
        table.row("(keys without '" + report.delimiter.bytes() + "')", report.keysWithoutDelimiter);
    out += table.render();
    out += shardTable(report);
    out += patternTable(report);
    out += topKeys(report);
    return out;
}

} // namespace keylens::report
