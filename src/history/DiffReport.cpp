#include "history/DiffReport.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "report/JsonWriter.h"

#include <QDateTime>

#include <cmath>

namespace keylens::history {

namespace {

using report::JsonWriter;

void writePair(JsonWriter& json, QByteArrayView field, const std::optional<SnapshotStats>& before,
               const std::optional<SnapshotStats>& after, std::uint64_t SnapshotStats::*figure)
{
    json.key(field).beginArray();
    before ? json.value((*before).*figure) : json.null();
    after ? json.value((*after).*figure) : json.null();
    json.endArray();
}

void writeTtlShares(JsonWriter& json, const Change& change)
{
    json.key("ttl_share").beginArray();
    change.before ? json.value(change.before->ttlShare()) : json.null();
    change.after ? json.value(change.after->ttlShare()) : json.null();
    json.endArray();
}

void writeChange(JsonWriter& json, const Change& change, QByteArrayView pathField)
{
    json.beginObject();
    json.bytesField(pathField, change.path);
    if (pathField == "path")
        json.key("depth").value(change.depth + 1);
    writePair(json, "keys", change.before, change.after, &SnapshotStats::keys);
    writePair(json, "memory_bytes", change.before, change.after, &SnapshotStats::memoryBytes);
    json.key("status").value(changeStatusName(change.status));
    json.key("keys_delta").value(change.keysDelta());
    json.key("memory_delta_bytes").value(change.memoryDelta());
    json.key("memory_growth_percent");
    const std::optional<double> growth = change.memoryGrowthPercent();
    growth ? json.value(*growth) : json.null();
    writeTtlShares(json, change);
    json.endObject();
}

void writeSide(JsonWriter& json, QByteArrayView field, const Snapshot& snapshot, const QByteArray& source)
{
    json.key(field).beginObject();
    json.key("source").value(source);
    json.key("taken_at_ms").value(snapshot.takenAtMs);
    json.key("complete").value(snapshot.complete);
    json.key("address").value(snapshot.server.address);
    json.key("db").value(snapshot.server.db);
    json.key("run_id").value(snapshot.server.runId);
    json.key("redis_version").value(snapshot.server.redisVersion);
    json.key("delimiter").value(snapshot.delimiters);
    json.key("keys").value(snapshot.totals.keys);
    json.key("memory_bytes").value(snapshot.totals.memoryBytes);
    json.key("used_memory");
    snapshot.server.usedMemory ? json.value(*snapshot.server.usedMemory) : json.null();
    json.endObject();
}

QByteArray signedBytes(std::int64_t delta)
{
    if (delta == 0)
        return "0 B";
    return (delta > 0 ? "+" : "-") + keyspace::formatBytes(std::uint64_t(std::abs(delta)));
}

QByteArray signedCount(std::int64_t delta)
{
    if (delta == 0)
        return "0";
    return (delta > 0 ? "+" : "-") + keyspace::formatCount(std::uint64_t(std::abs(delta)));
}

QByteArray describe(const Snapshot& snapshot, const QByteArray& source)
{
    const QDateTime when = QDateTime::fromMSecsSinceEpoch(snapshot.takenAtMs);
    return source + " (" + snapshot.server.address + " db " + QByteArray::number(snapshot.server.db) + ", " +
           when.toString(QStringLiteral("yyyy-MM-dd HH:mm")).toUtf8() + ", " +
           keyspace::formatCount(snapshot.totals.keys) + " keys, " +
           keyspace::formatBytes(snapshot.totals.memoryBytes) + (snapshot.complete ? ")" : ", partial)");
}

// Columns are counted in characters, not bytes: `Δ` is two bytes of UTF-8.
qsizetype displayWidth(QByteArrayView text)
{
    return std::count_if(text.begin(), text.end(),
                         [](char c) { return (static_cast<unsigned char>(c) & 0xc0) != 0x80; });
}

QByteArray padded(QByteArrayView text, qsizetype width, bool right = false)
{
    const qsizetype fill = std::max<qsizetype>(0, width - displayWidth(text));
    if (right)
        return QByteArray(fill, ' ') + text.toByteArray();
    return text.toByteArray() + QByteArray(fill, ' ');
}

void appendTable(QByteArray& out, QByteArrayView title, const std::vector<Change>& changes, std::size_t rows)
{
    std::size_t changed = 0;
    for (const Change& change : changes)
        changed += change.status != ChangeStatus::Same;
    out += "\n" + title.toByteArray() + " (" + QByteArray::number(qulonglong(changed)) + " changed of " +
           QByteArray::number(qulonglong(changes.size())) + ", biggest memory change first)\n";
    if (changed == 0)
        return;
    out += padded("", 2) + padded("", 38) + padded("keys now", 12, true) + padded("Δ keys", 12, true) +
           padded("memory now", 12, true) + padded("Δ memory", 14, true) + padded("Δ %", 9, true) + "  status\n";
    std::size_t shown = 0;
    for (const Change& change : changes) {
        if (change.status == ChangeStatus::Same)
            continue;
        if (shown++ == rows) {
            out += "  … " + QByteArray::number(qulonglong(changed - rows)) + " more (--format json lists them all)\n";
            break;
        }
        const std::optional<double> growth = change.memoryGrowthPercent();
        const QByteArray percent =
            growth ? (*growth >= 0 ? "+" : "") + QByteArray::number(*growth, 'f', 1) + "%" : QByteArray();
        // The figures after; a vanished one has none (its Δ says what it held).
        const QByteArray keys = change.after ? keyspace::formatCount(change.keysAfter()) : QByteArray("—");
        const QByteArray memory = change.after ? keyspace::formatBytes(change.memoryAfter()) : QByteArray("—");
        QByteArray name = keyspace::displayBytes(change.path);
        if (name.size() > 37)
            name = name.first(36) + "…";
        out += "  " + padded(name, 38) + padded(keys, 12, true) + padded(signedCount(change.keysDelta()), 12, true) +
               padded(memory, 12, true) + padded(signedBytes(change.memoryDelta()), 14, true) +
               padded(percent, 9, true) + "  " + changeStatusName(change.status).toByteArray() + "\n";
    }
}

} // namespace

std::vector<const Change*> changesPastGate(const SnapshotDiff& diff, const GrowthGate& gate)
{
    std::vector<const Change*> past;
    if (!diff.memoryCompared)
        return past; // said in the caveats
    for (const std::vector<Change>* list : {&diff.namespaces, &diff.patterns}) {
        for (const Change& change : *list) {
            if (gate.exceededBy(change))
                past.push_back(&change);
        }
    }
    return past;
}

QByteArray diffToJson(const SnapshotDiff& diff, const DiffReportOptions& options)
{
    QByteArray out;
    JsonWriter json(&out);
    json.beginDocument(1);
    writeSide(json, "before", diff.before, options.beforeSource);
    writeSide(json, "after", diff.after, options.afterSource);
    json.key("caveats").beginArray();
    for (const QString& caveat : diff.caveats)
        json.value(caveat.toUtf8());
    json.endArray();
    json.key("depth").value(diff.comparedDepth);
    json.key("memory_compared").value(diff.memoryCompared);
    json.key("totals");
    writeChange(json, diff.totals, "path");
    json.key("changes").beginArray();
    for (const Change& change : diff.namespaces)
        writeChange(json, change, "path");
    json.endArray();
    json.key("not_comparable").value(diff.notComparable);
    if (!diff.patterns.empty()) {
        json.key("patterns").beginArray();
        for (const Change& change : diff.patterns)
            writeChange(json, change, "pattern");
        json.endArray();
    }
    json.key("findings").beginArray();
    for (const RuleChange& rule : diff.findings) {
        json.beginObject();
        json.key("rule").value(rule.rule);
        json.key("findings").beginArray().value(rule.before).value(rule.after).endArray();
        json.endObject();
    }
    json.endArray();
    if (options.gate) {
        json.key("growth_gate").beginObject();
        json.key("percent").value(options.gate->percent);
        json.key("bytes").value(options.gate->bytes);
        json.key("exceeded").beginArray();
        for (const Change* change : changesPastGate(diff, *options.gate))
            json.bytesValue(change->path);
        json.endArray();
        json.endObject();
    }
    json.endObject();
    out += '\n';
    return out;
}

QByteArray diffToText(const SnapshotDiff& diff, const DiffReportOptions& options)
{
    QByteArray out;
    out += "Before: " + describe(diff.before, options.beforeSource) + "\n";
    out += "After:  " + describe(diff.after, options.afterSource) + "\n";
    for (const QString& caveat : diff.caveats)
        out += "Note: " + caveat.toUtf8() + "\n";
    const Change& totals = diff.totals;
    out += "\nKeys:   " + keyspace::formatCount(totals.keysBefore()) + " → " +
           keyspace::formatCount(totals.keysAfter()) + " (" + signedCount(totals.keysDelta()) + ")\n";
    const std::optional<double> growth = totals.memoryGrowthPercent();
    out += "Memory: " + keyspace::formatBytes(totals.memoryBefore()) + " → " +
           keyspace::formatBytes(totals.memoryAfter()) + " (" + signedBytes(totals.memoryDelta()) +
           (growth ? QByteArray(", ") + (*growth >= 0 ? "+" : "") + QByteArray::number(*growth, 'f', 1) + "%"
                   : QByteArray()) +
           ")\n";
    const QByteArray namespacesTitle = "Namespaces, " + QByteArray::number(diff.comparedDepth) + " levels";
    appendTable(out, namespacesTitle, diff.namespaces, options.rows);
    if (diff.notComparable > 0)
        out += "  " + QByteArray::number(qulonglong(diff.notComparable)) +
               " namespaces listed on one side only, among the many small siblings the other side summed: not "
               "compared\n";
    if (!diff.patterns.empty())
        appendTable(out, "Patterns", diff.patterns, options.rows);
    if (!diff.findings.empty()) {
        out += "\nFindings by rule (before → after)\n";
        for (const RuleChange& rule : diff.findings)
            out += "  " + padded(rule.rule, 24) + keyspace::formatCount(rule.before) + " → " +
                   keyspace::formatCount(rule.after) + "\n";
    }
    if (options.gate) {
        const std::vector<const Change*> past = changesPastGate(diff, *options.gate);
        out += "\nGrowth gate (more than " + QByteArray::number(options.gate->percent) + "% and " +
               keyspace::formatBytes(options.gate->bytes) + "): ";
        if (past.empty())
            out += "nothing grew past it\n";
        for (const Change* change : past)
            out += "\n  " + keyspace::displayBytes(change->path) + " grew by " + signedBytes(change->memoryDelta());
        if (!past.empty())
            out += "\n";
    }
    return out;
}

} // namespace keylens::history
